"""A one-hole arithmetic template (`$(( $1 + 1 ))`) run by `evaluate_one_hole` gives
what evaluating its joined text gives: the same number, or the same error message."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tysh.kernel.base.errors import ExpansionError
from tysh.kernel.expand import arith

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _expand_host import FakeHost  # noqa: E402

_BEFORE = ["", " ", "1 + ", "x * ", "10 - ", "2 ** ", "7 / ", "7 % ", "-", "(", "3 < ",
           "1 ? ", "y = ", "9223372036854775807 + "]
_AFTER = ["", " ", " + 1", " * x", " - 3", " / 2", " % 3", " ** 2", ")", " == 4",
          " ? 5 : 6", " << 70"]
_TEXTS = st.one_of(
    st.integers(min_value=0, max_value=1 << 70).map(str),
    st.integers(min_value=-(1 << 64), max_value=-1).map(str),
    st.sampled_from(["0", "00", "010", "0x1f", "1+1", "x", "y", "1/0", "", " 3", "3 ",
                     "1x", "2#101", "-0", "9223372036854775808"]),
)


def _outcome(run: object) -> tuple[str, object]:
    try:
        return "value", run()  # type: ignore[operator]
    except ExpansionError as e:
        return "error", (e.message, e.status)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(_BEFORE), st.sampled_from(_AFTER), _TEXTS)
def test_one_hole_template_equals_its_joined_text(before: str, after: str, text: str) -> None:
    fn = arith.compile_template([before, after])
    if fn is None:  # the caller evaluates the joined text: nothing to compare
        return
    pieces = (before, after)
    joined = before + text + after
    host_a = FakeHost({"x": "4", "y": "5"})
    host_b = FakeHost({"x": "4", "y": "5"})

    def templated() -> int:
        got = arith.evaluate_one_hole(fn, text, pieces, host_a)
        return arith.evaluate(joined, host_a) if got is None else got

    assert _outcome(templated) == _outcome(lambda: arith.evaluate(joined, host_b))
    assert host_a.vars == host_b.vars


_OPERATORS = ["+", "-", "*", "/", "%", "**", "<<", ">>", "&", "|", "^", "<", "<=", ">",
              ">=", "==", "!=", "&&", "||", "=", "+="]
_OPERANDS = ["0", "1", "3", "64", "010", "0x10", "9223372036854775807", "x", "y", "u"]


@pytest.mark.parametrize("op", _OPERATORS)
@settings(max_examples=80, deadline=None)
@given(other=st.sampled_from(_OPERANDS), hole_left=st.booleans(),
       blank=st.sampled_from(["", " ", "  "]), read=st.sampled_from(["pos", "var"]),
       text=st.one_of(st.none(), _TEXTS),
       y=st.sampled_from(["4", "-1", "0", "2*3", "1/0", "y"]))
def test_one_hole_closure_equals_the_template(op: str, other: str, hole_left: bool,
                                              blank: str, read: str, text: str | None,
                                              y: str) -> None:
    """`one_hole_fn`'s closure, reading `$1` or `$h` itself, gives what
    `evaluate_one_hole` (or the joined text, for a value that is no plain number) gives
    for the same value: the number, or the error message, and the same variables."""
    before, after = (blank, f"{blank}{op} {other}") if hole_left else (f"{other} {op}", "")
    fn = arith.compile_template([before, after])
    if fn is None:
        return
    pieces = (before, after)
    host_a = FakeHost({"x": "4", "y": y, "h": text}, positional=[] if text is None else [text])
    host_b = FakeHost({"x": "4", "y": y, "h": text})
    handed: list[object] = []

    def slow(host: object, v: object) -> int:
        handed.append(v)
        t = "" if v is None else str(v)
        got = arith.evaluate_one_hole(fn, t, pieces, host_a)
        return arith.evaluate(before + t + after, host_a) if got is None else got

    closure = arith.one_hole_fn(pieces, read, 0 if read == "pos" else "h", slow)
    if closure is None:
        return

    def general() -> int:
        t = text or ""
        got = arith.evaluate_one_hole(fn, t, pieces, host_b)
        return arith.evaluate(before + t + after, host_b) if got is None else got

    assert _outcome(lambda: closure(host_a)) == _outcome(general)
    assert host_a.vars == host_b.vars
    plain = text is not None and arith.hole_number(text) is not None
    assert handed == ([] if plain else [text])
