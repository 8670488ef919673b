"""The text tools load, on their common forms, none of the costly standard-library modules
their options do not use: a pattern, a random order or a decimal step loads `re`,
`hashlib` or `decimal` when it is asked for, not because the tool's module was
imported. Each script runs in a fresh interpreter over a warm regex cache (see
module_probe). The rarer options that do load a module still work, and each shortcut
taken to avoid a module (re.escape without re, tr -s without a template, seq's integer
operands) is held equal to what it replaces."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from module_probe import modules_loaded

import tysh.builtins.text.seq as seq_mod
import tysh.builtins.text.tr as tr_mod
from tysh import Kernel
from tysh.builtins.text.sort_keys import skip_fields_re
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.text.literal import escape

COSTLY = frozenset({
    "re", "hashlib", "datetime", "calendar", "locale", "json", "decimal", "random",
    "threading", "subprocess", "typing", "inspect", "ast", "enum", "functools",
    "collections", "collections.abc", "types", "copyreg",
})
# what compiling a regular expression brings: re and the modules re imports, and
# collections.abc, which the regex engine's array module loads
REGEX = ("re", "enum", "functools", "collections", "collections.abc", "types", "copyreg")
# decimal's C module builds its DecimalTuple with collections.namedtuple
DECIMAL = ("decimal", "collections", "collections.abc")

FRUIT = "pear\napple\nfig\napple\nkiwi\n"
CSV = "b,2,x\na,10,y\nc,1,z\n"


def _files(d: Path) -> None:
    (d / "f").write_text(FRUIT)
    (d / "csv").write_text(CSV)
    (d / "s").write_text("".join(sorted(FRUIT.splitlines(keepends=True))))
    (d / "tpl").write_text("home=$HOME ${USER}\n")


def _costly_loaded(script: str, d: Path) -> set[str]:
    got = modules_loaded(script, d)
    if "ctypes" in got:
        # the confined filesystem opens a path below its root with openat2 through
        # ctypes, which imports types: the kernel's file access, not the tool's options
        got.discard("types")
    return got & COSTLY


COMMON_FORMS = [
    "cat f", "cat -n f", "cat -A f", "tac f", "rev f",
    "sort f", "sort -n csv", "sort -rn csv", "sort -u f", "sort -t, -k2,2n csv",
    "sort -k2 csv", "uniq s", "uniq -c s", "uniq -d s",
    "head -n 2 f", "head -c 5 f", "tail -n 2 f", "tail -n +2 f",
    "cut -c1 f", "cut -d, -f1,3 csv", "paste -sd, f",
    "tr a-z A-Z < f", "tr -d p < f", "tr -s p < f", "tr '[:lower:]' '[:upper:]' < f",
    "wc -l f", "wc f", "nl f", "seq 3", "seq 2 2 10", "seq -w 8 10", "seq -s, 5",
    "sed -n 1p f", "sed 2d f", "sed -n '2,3p' f", "sed 3q f",
    "awk '{print $1}' f", "awk -F, '{print $2}' csv", "awk 'NR==2' f",
    "awk '{n += length($0)} END {print n}' f", "awk '{printf \"%s-%d\\n\", $1, NR}' f",
    "grep a f", "grep -c a f", "grep -v a f", "grep -in A f",
    "join s s", "column -t csv", "fold -w 3 f", "fmt f", "od -c f", "xxd f", "strings f",
    "echo -e 'a\\tb'", "printf '%5.2f|%s\\n' 3.14159 x", "envsubst < tpl",
    "sort f | uniq -c | sort -rn | head -n 3",
    "cat f | sort | uniq -c | sort -rn | head -n 3",
    "cut -c1 f | tr a-z A-Z",
]


@pytest.mark.parametrize("script", COMMON_FORMS)
def test_a_common_form_loads_none_of_the_costly_modules(tmp_path: Path, script: str) -> None:
    _files(tmp_path)
    assert _costly_loaded(script, tmp_path) == set()


# (script, the modules its options need, its output)
NEEDING_FORMS = [
    ("sort -R s | sort", ("hashlib",), "apple\napple\nfig\nkiwi\npear\n"),
    ("seq 1 0.5 2", DECIMAL, "1.0\n1.5\n2.0\n"),
    ("seq -0 -0.5 -1", DECIMAL, "-0.0\n-0.5\n-1.0\n"),
    ("sed s/p/P/ f", REGEX, "Pear\naPple\nfig\naPple\nkiwi\n"),
    ("grep -E 'ki|fi' f", REGEX, "fig\nkiwi\n"),
    ("awk '/^a/' f", REGEX, "apple\napple\n"),
    ("nl -b pa f", REGEX, "     1\tpear\n     2\tapple\n       fig\n     3\tapple\n       kiwi\n"),
    ("tac -r -s '[eg]' f", REGEX, "\nkiwi\n\napple\nfigar\napplepe"),
    ("awk 'BEGIN {print rand()}'", ("random",), "0.134364\n"),
]


@pytest.mark.parametrize(("script", "needs", "out"), NEEDING_FORMS)
def test_an_option_that_needs_a_module_loads_it_and_works(
        tmp_path: Path, script: str, needs: tuple[str, ...], out: str) -> None:
    _files(tmp_path)
    r = Kernel(cwd=str(tmp_path)).execute(script)
    assert (r.code, r.out, r.err) == (0, out, "")
    got = _costly_loaded(script, tmp_path)
    assert needs[0] in got
    assert got <= set(needs), sorted(got - set(needs))


def test_awk_rand_starts_as_after_srand_1() -> None:
    # the generator is made at the first rand(): its sequence is srand(1)'s, as gawk's
    k = Kernel()
    first = k.execute("awk 'BEGIN {print rand(), rand()}'")
    seeded = k.execute("awk 'BEGIN {srand(1); print rand(), rand()}'")
    assert first.code == 0 and first.out == seeded.out


@given(st.binary(max_size=40))
def test_escape_is_re_escape_on_bytes(data: bytes) -> None:
    assert escape(data) == re.escape(data)


def test_escape_is_re_escape_for_every_byte() -> None:
    for b in range(256):
        assert escape(bytes([b])) == re.escape(bytes([b]))


@pytest.mark.parametrize("rest", [False, True])
def test_a_field_skipping_pattern_is_the_one_re_compiles(rest: bool) -> None:
    for tab in [None, *(bytes([b]) for b in range(256))]:
        for n in (0, 1, 3):
            got = skip_fields_re(n, tab, rest)
            if tab is None:
                want = re.compile(rb"(?:[ \t]*[^ \t]*){%d}" % n)
            else:
                t = re.escape(tab)
                want = re.compile(rb"(?:[^%s]*%s){%d}[^%s]*" % (t, t, n, t) if rest
                                  else rb"(?:[^%s]*%s){%d}" % (t, t, n))
            assert got == want, (tab, n)


@given(st.lists(st.integers(0, 255), min_size=1, max_size=6),
       st.binary(max_size=60))
def test_tr_squeeze_by_split_equals_the_template_substitution(
        members: list[int], data: bytes) -> None:
    rx = tr_mod._squeeze_re(members)
    assert rx is not None
    assert b"".join(rx.split(data)) == re.compile(rx.pattern).sub(rb"\1", data)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.from_regex(r"\A[+-]?0{0,2}[0-9]{1,3}\Z"), min_size=1, max_size=3),
       st.sampled_from(["", "-w ", "-s, ", "-f %.1f "]))
def test_seq_integer_operands_print_as_their_decimals_do(
        operands: list[str], options: str) -> None:
    script = f"seq {options}-- {' '.join(operands)}"
    fast = Kernel().execute(script)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(seq_mod, "_INT_RE", LazyRegex(r"(?!)"))  # every operand a Decimal
        general = Kernel().execute(script)
    assert (fast.code, fast.out, fast.err) == (general.code, general.out, general.err)
