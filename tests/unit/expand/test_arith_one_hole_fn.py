"""The closure `arith.one_hole_fn` makes for `$(( $1 + 1 ))`, `$(( n * $x ))` (one
operator between the word's one expansion and a number or a plain variable) gives what
the general template path gives: the same value, status, output, messages and side
effects, for any text the expansion holds (a text that is no plain number takes the
general path), any operator, and the hole on either side."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tysh import Kernel
from tysh.kernel.expand import arith, words
from tysh.kernel.run import plan as plan_mod
from tysh.kernel.syntax import ast
from tysh.kernel.syntax.parser import parse

OPS = ["+", "-", "*", "/", "%", "**", "<<", ">>", "&", "|", "^", "<", "<=", ">", ">=",
       "==", "!=", "&&", "||"]

# what the expansion holds: plain numbers (negative ones, 18, 19 and 20 digits, values
# that wrap), and texts that are no plain number: leading zeros (octal), hex, bases,
# expressions, names, blanks, nothing
HOLE_TEXTS = st.one_of(
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.sampled_from(["0", "1", "-1", "7", "63", "64", "999999999999999999",
                     "1000000000000000000", "9223372036854775807", "9223372036854775808",
                     "18446744073709551617", "99999999999999999999", "010", "08", "00",
                     "0x1f", "2#101", "2*3", "1/0", "x", "y", "z=4", "", " ", " 3", "3 ",
                     "1 2", "-0", "+5", "(", "1x"]),
)
# the other operand: a number literal, or variable y with these values (None: unset)
OTHERS = st.sampled_from(["0", "1", "3", "63", "64", "70", "010", "0x10",
                          "9223372036854775807", "y", "y"])
Y_VALUES = st.sampled_from([None, "0", "2", "-1", "-3", "2*3", "1/0", "z=4", "y", "abc",
                            "9223372036854775807", ""])


def _quote(text: str) -> str:
    return "'" + text + "'"


def _run(tmp_path: Path, src: str) -> tuple[int, str, str]:
    r = Kernel(cwd=str(tmp_path)).execute(src)
    return r.code, r.out, r.err


def _general(tmp_path: Path, src: str) -> tuple[int, str, str]:
    """`src` run with no one-hole closure: every template takes `evaluate_one_hole`."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(arith, "one_hole_fn", lambda *a: None)
        _forget()
        try:
            return _run(tmp_path, src)
        finally:
            _forget()


def _forget() -> None:
    """Drop the evaluators made for words already seen (a parsed script is cached)."""
    words._ARITH_WORDS.clear()
    plan_mod._PLANS.clear()


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    _forget()
    yield
    _forget()


def _script(form: str, text: str | None, other: str, op: str, y: str | None) -> str:
    setup = "unset y; " if y is None else f"y={_quote(y)}; "
    if text is None:
        setup += "set --; unset x; "
    else:
        setup += f"set -- {_quote(text)}; x={_quote(text)}; "
    return setup + form.format(op=op, n=other) + '; echo "$? ${r-} ${z-}"'


FORMS = [
    "r=$(( $1 {op} {n} ))",
    "r=$(( {n} {op} $1 ))",
    "echo $(( $x {op} {n} ))",
    "echo $(( {n}{op}$x ))",
    'f() {{ r=$(( $1 {op} {n} )); }}; f "$1"',
    'f() {{ echo $((  {n} {op} $1  )); }}; f "$@"',
    "set -u; r=$(( $1 {op} {n} ))",
    "set -u; echo $(( $x {op} {n} ))",
]


@pytest.mark.parametrize("op", OPS)
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(form=st.sampled_from(FORMS),
       text=st.one_of(st.none(), st.integers(min_value=0, max_value=99).map(str), HOLE_TEXTS),
       other=OTHERS, y=Y_VALUES)
def test_one_hole_closure_equals_the_general_template_path(
        tmp_path: Path, form: str, text: str | None, other: str, op: str,
        y: str | None) -> None:
    src = _script(form, text, other, op, y)
    assert _run(tmp_path, src) == _general(tmp_path, src)


@pytest.mark.parametrize("src", [
    "x=5; y=6; echo $(( $x * $y ))",  # two holes: the general template
    "set -- 3 4; r=$(( $1 - $2 )); echo $r",
    "set -- '2*3'; echo $(( $1 + 1 )) $(( 10 - $1 ))",
    "set -- 010; echo $(( $1 + 1 )) $(( $1 * 2 ))",
    "set -- 5; echo $(( $1 / 0 )); echo after",
    "set -- 5; r=$(( $1 % 0 )); echo $? $r",
    "set -- 2; y=-1; echo $(( $1 ** y ))",
    "x=4; y=1/0; echo $(( $x + y ))",
    "x=4; y=y; echo $(( $x + y ))",
    "x=4; y=z=9; echo $(( $x + y )) $z",
    "set -u; echo $(( $1 + 1 )); echo after",
    "set -u; x=1; echo $(( $x + u )); echo after",
    "a=(7 8); echo $(( $a + 1 )) $(( 1 + ${a} ))",
    "declare -i n=5; echo $(( $n * 2 ))",
    "readonly c=3; echo $(( $c << 2 ))",
    "f() { r=$(( $1 + 1 )); }; i=0; while [ $i -lt 5 ]; do f $i; i=$((i+1)); done; echo $r",
])
def test_one_hole_scripts_equal_the_general_path(tmp_path: Path, src: str) -> None:
    assert _run(tmp_path, src) == _general(tmp_path, src)


def _arith_word(src: str) -> ast.Word:
    """The arithmetic word of `echo $((…))`."""
    cmd: Any = parse(src).statements[0].body.first.commands[0]
    word = cmd.words[1].parts[0].expr
    assert isinstance(word, ast.Word)
    return word


@pytest.mark.parametrize(("src", "fused"), [
    ("echo $(( $1 + 1 ))", True),
    ("echo $(( 10 - $1 ))", True),
    ("echo $(( $count * 2 ))", True),
    ("echo $(( $1 < max ))", True),
    ("echo $(( $1/2 ))", True),
    ("echo $(( $x * $y ))", False),  # two holes
    ("echo $(( $1 + 1 + 2 ))", False),  # two operators
    ("echo $(( -$1 ))", False),
    ("echo $(( $1 + a[1] ))", False),
    ("echo $(( $1 && 1 ))", False),  # short-circuit: the general closure
    ("echo $(( ${1:-3} + 1 ))", False),  # not a plain read
])
def test_which_words_get_the_one_hole_closure(src: str, fused: bool) -> None:
    fn = words.arith_word_fn(_arith_word(src))
    assert fn.__code__.co_filename.startswith("<arith hole") is fused


_BASH = "/usr/bin/bash"


@pytest.mark.skipif(shutil.which(_BASH) is None, reason="needs bash")
@pytest.mark.parametrize("src", [
    "set -- 5; echo $(( $1 + 1 )) $(( 10 - $1 )) $(( $1 * 2 )) $(( $1 / 2 )) $(( $1 % 3 ))"
    " $(( $1 << 2 )) $(( $1 >> 1 )) $(( $1 < 7 )) $(( 2 ** $1 )) $(( $1 ^ 3 ))"
    " $(( $1 | 8 )) $(( $1 & 4 )) $(( $1 == 5 )) $(( $1 != 5 )) $(( $1 >= 6 ))",
    "set -- 010; echo $(( $1 + 1 ))",
    "set -- 0x1f; echo $(( $1 + 1 ))",
    "set -- '2*3'; echo $(( $1 + 1 )) $(( 2 * $1 ))",
    "set -- 9223372036854775807; echo $(( $1 + 1 )) $(( $1 * 2 ))",
    "set -- 18446744073709551617; echo $(( $1 + 1 ))",
    "set -- -5; echo $(( 3 - $1 ))",
    "set -- ''; echo $(( $1 + 1 ))",
    "x=7; y=3; echo $(( $x * y )) $(( y - $x ))",
    "f() { r=$(( $1 + 1 )); }; i=0; while [ $i -lt 50 ]; do f $i; i=$((i+1)); done; echo $r",
    "set -- 5; r=$(( $1 % 0 )); echo not reached",
])
def test_one_hole_results_match_bash(tmp_path: Path, src: str) -> None:
    bash = subprocess.run([_BASH, "-c", src], capture_output=True, text=True, cwd=tmp_path,
                          check=False)
    code, out, _ = _run(tmp_path, src)
    assert (code, out) == (bash.returncode, bash.stdout)
