"""The planned integer comparison (`[ $i -lt 10 ]`, `test "$n" -ge $max`, run/plan.py)
answers as the `[` and `test` builtins do: the same status, output, messages and `$_`
for any operand text, with every case it does not decide (a non-count, a function
named `[`, `set -x`, a trap, split words) handed to the general path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tysh import Kernel
from tysh.kernel.run import plan as plan_mod

OPS = ["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]

# operand texts: plain counts and what the plan must refuse (signs, blanks, leading
# zeros, too long, empty, not a number, a glob, a blank that splits)
OPERANDS = st.one_of(
    st.integers(min_value=0, max_value=10**20).map(str),
    st.sampled_from(["", "0", "007", "-3", "+4", " 5", "5 ", "1 2", "x", "*", "٣",
                     "9223372036854775807", "9223372036854775808", "999999999999999999",
                     "1000000000000000000", "0x10"]),
)

FORMS = [
    '[ $a {op} $b ]', '[ "$a" {op} "$b" ]', 'test $a {op} $b', 'test "$a" {op} 12',
    '[ 12 {op} $b ]', 'set -- "$a" "$b"; [ $1 {op} $2 ]', 'set -- "$a"; test "$1" {op} 3',
]

SCRIPTS = [
    'i=0; while [ $i -lt 5 ]; do echo $i; i=$((i+1)); done; echo "$? $_"',
    'for n in 1 5 9; do test $n -ge 5 && echo "$n $_"; done',
    '[() { echo "my [ $*"; }; i=1; while [ $i -lt 3 ]; do i=3; done; echo $i',
    'test() { echo "my test $*"; return 1; }; for x in 1; do test $x -eq 1; echo $?; done',
    'enable -n test; for x in 1; do test $x -eq 1; echo $?; done',
    'set -x; for x in 1 2; do [ $x -lt 2 ] && echo lt; done',
    "trap 'echo debug' DEBUG; for x in 1; do [ $x -eq 1 ]; done",
    "trap 'echo err $?' ERR; for x in 1; do [ $x -eq 2 ]; done; echo $?",
    'set -e; for x in 1; do [ $x -eq 1 ]; [ $x -eq 2 ]; echo unreached; done',
    'shopt -s sh_word_split; IFS=1; for x in 11 2; do [ $x -gt 1 ]; echo $?; done',
    'shopt -s sh_word_split; for x in 11 2; do [ $x -gt 1 ]; echo $?; done',
    'unset u; for x in 1; do [ $u -lt 1 ]; echo $?; done',
    'set -u; for x in 1; do [ $u -lt 1 ]; echo $?; done; echo after',
    'a=(4 5); for x in 1; do [ $a -eq 4 ]; echo $?; done',
    'for x in 1; do [ $x -lt 1x ]; echo $?; [ $x -lt ]; echo $?; [ $x -lt 2; echo $?; done',
    'for x in 1; do [ $# -eq 0 ]; echo $?; [ $x -eq 1 ] >/dev/null; echo $?; done',
]


def _run(tmp_path: Path, src: str) -> tuple[int, str, str]:
    r = Kernel(cwd=str(tmp_path)).execute(src)
    return r.code, r.out, r.err


def _unplanned_run(tmp_path: Path, src: str) -> tuple[int, str, str]:
    """`_run` with no integer comparison planned."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(plan_mod, "_count_test_step", lambda *a: None)
        plan_mod._PLANS.clear()
        try:
            return _run(tmp_path, src)
        finally:
            plan_mod._PLANS.clear()


@pytest.fixture
def unplanned(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Run with no integer comparison planned: `[` and `test` take the general path."""

    def general() -> None:
        monkeypatch.setattr(plan_mod, "_count_test_step", lambda *a: None)
        plan_mod._PLANS.clear()

    yield general
    plan_mod._PLANS.clear()


@pytest.mark.parametrize("src", SCRIPTS)
def test_planned_and_general_comparisons_agree(tmp_path: Path, unplanned: Any,
                                               src: str) -> None:
    planned = _run(tmp_path, src)
    unplanned()
    assert planned == _run(tmp_path, src)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=OPERANDS, b=OPERANDS, op=st.sampled_from(OPS), form=st.sampled_from(FORMS))
def test_any_operands_compare_as_the_builtin_compares_them(
        tmp_path: Path, a: str, b: str, op: str, form: str) -> None:
    """The same comparison in a loop body, planned and not."""
    src = f"a='{a}'; b='{b}'; for _ in 1; do {form.format(op=op)}; echo \"$? $_\"; done"
    assert _run(tmp_path, src) == _unplanned_run(tmp_path, src)


# numbers arithmetic writes (so its table of number texts holds them): negative ones,
# 64-bit edges and values that wrap, read back by the comparison
NUMBERS = st.one_of(
    st.integers(min_value=-(10**20), max_value=10**20),
    st.sampled_from([0, -1, 2**63 - 1, -(2**63), 2**63, 10**19, 10**18, 10**18 - 1]),
)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=NUMBERS, b=NUMBERS, op=st.sampled_from(OPS), form=st.sampled_from(FORMS))
def test_numbers_arithmetic_wrote_compare_as_the_builtin_compares_them(
        tmp_path: Path, a: int, b: int, op: str, form: str) -> None:
    """Operands stored by `$((…))` and by `x=TEXT` then read by arithmetic, planned and
    not: the same status, `$_` and message."""
    src = (f"a=$(( {a} )); b=$(( {b} )); c={abs(a)}; : $((c + 0)); "
           f"for _ in 1; do {form.format(op=op)}; echo \"$? $_\"; "
           f"[ $c {op} $b ]; echo \"$? $_\"; done")
    assert _run(tmp_path, src) == _unplanned_run(tmp_path, src)


def test_a_plain_count_comparison_is_planned(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop's condition reaches neither the tool nor its direct path."""
    from tysh.builtins.core import test as test_tools

    calls: list[Any] = []
    inner = test_tools.plain_truth

    def spy(*a: Any, **kw: Any) -> Any:
        calls.append(a)
        return inner(*a, **kw)

    monkeypatch.setattr(test_tools, "plain_truth", spy)
    k = Kernel(cwd=str(tmp_path))
    r = k.execute('i=0; while [ $i -lt 30 ]; do i=$((i+1)); done; test "$i" -eq 30; '
                  'echo "$? $_"')
    assert r.out == "0 30\n"
    assert len(calls) == 1  # the top-level `test` alone, which no loop planned
