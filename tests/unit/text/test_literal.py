"""A plain pattern (kernel.text.literal) answers each question grep asks of a pattern as
the `re` pattern of the same string does on the same bytes: search with bounds,
finditer, the per-line test of a dense block and the count of lines that hold a match."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from tysh.kernel.text.literal import (
    FoldedPattern,
    LiteralPattern,
    compile_literal,
    literal_of,
)

# few distinct bytes, so that a needle occurs, overlaps itself and shares lines
NEEDLES = st.binary(min_size=1, max_size=4).map(lambda b: bytes(b"aAb "[c % 4] for c in b))
# (with the bytes count_lines may mark matches with, so that it must choose another)
HAYS = st.lists(st.sampled_from([b"a", b"A", b"b", b" ", b"\n", b"ab", b"aa", b"\xc3\xa9",
                                 b"\0", b"\1\2\3"]), max_size=60).map(b"".join)


def _spans(matches: object) -> list[tuple[int, int, bytes]]:
    return [(m.start(), m.end(), m.group()) for m in matches]  # type: ignore[attr-defined]


@settings(max_examples=300, deadline=None)
@given(NEEDLES, HAYS, st.integers(0, 70), st.integers(0, 70), st.booleans())
def test_a_plain_pattern_searches_as_re_does(needle: bytes, hay: bytes, pos: int,
                                             endpos: int, fold: bool) -> None:
    flags = re.MULTILINE | (re.IGNORECASE if fold else 0)
    want = re.compile(re.escape(needle), flags)
    got = FoldedPattern(needle) if fold else LiteralPattern(needle)
    w, g = want.search(hay, pos, endpos), got.search(hay, pos, endpos)
    assert (w is None) == (g is None)
    if w is not None and g is not None:
        assert (w.span(), w.group()) == (g.span(), g.group())
    assert _spans(want.finditer(hay, pos, endpos)) == _spans(got.finditer(hay, pos, endpos))
    assert _spans(want.finditer(hay)) == _spans(got.finditer(hay))


@settings(max_examples=300, deadline=None)
@given(NEEDLES, HAYS, st.booleans(), st.booleans())
def test_a_plain_pattern_tests_each_line_as_re_does(needle: bytes, hay: bytes, fold: bool,
                                                    invert: bool) -> None:
    piece = hay if hay.endswith(b"\n") else hay + b"\n"
    lines = piece.split(b"\n")
    lines.pop()
    want = re.compile(re.escape(needle), re.MULTILINE | (re.IGNORECASE if fold else 0)).search
    got = (FoldedPattern(needle) if fold else LiteralPattern(needle)).holds(lines, piece,
                                                                           invert)
    assert [bool(v) for v in got] == [(want(ln) is None) == invert for ln in lines]


@settings(max_examples=300, deadline=None)
@given(NEEDLES, HAYS, st.integers(0, 3000))
def test_a_plain_pattern_counts_matching_lines_as_re_findall_does(needle: bytes, hay: bytes,
                                                                  pad: int) -> None:
    # padding makes the matches sparse (found one by one) or leaves them dense (cut)
    for subject in (hay, b"x" * pad + b"\n" + hay, hay + b"\n" + b"y" * pad):
        want = re.compile(re.escape(needle) + b"[^\n]*", re.MULTILINE).findall(subject)
        assert LiteralPattern(needle).count_lines(subject) == len(want)


def test_sparse_matches_on_adjacent_lines_are_each_counted() -> None:
    for tail in (b"", b"\n"):
        subject = b"x" * 1000 + b"\nab\nab\nab ab\n\nabab" + tail
        assert LiteralPattern(b"ab").count_lines(subject) == 4


def test_only_a_plain_string_is_taken_for_one() -> None:
    assert literal_of(("needle",), "bre") == "needle"
    assert literal_of(("a+b(c)|{d}?",), "bre") == "a+b(c)|{d}?"  # BRE's literals
    assert literal_of(("a.b",), "fixed") == "a.b"
    for pats, kind in [(("a.b",), "bre"), (("a+b",), "ere"), (("x",), "perl"),
                       (("",), "bre"), (("é",), "fixed"), (("a", "b"), "fixed"),
                       (("a\\b",), "bre"), (("[a]",), "bre"), (("^a",), "bre")]:
        assert literal_of(pats, kind) is None, (pats, kind)  # type: ignore[arg-type]
    assert literal_of(("a",), "bre", word=True) is None
    assert literal_of(("a",), "bre", line=True) is None


def test_a_plain_string_compiles_as_compile_patterns_describes_it() -> None:
    from tysh.kernel.text.regex import compile_patterns

    for icase in (False, True):
        mine = compile_literal(("Needle",), "bre", ignore_case=icase)
        theirs = compile_patterns(("Needle",), "bre", ignore_case=icase)
        assert mine is not None
        assert (mine.text, mine.min_width, mine.lower, mine.wrapped, mine.warnings) == (
            theirs.text, theirs.min_width, theirs.lower, theirs.wrapped, theirs.warnings)
        assert (mine.prefilter is None) == (theirs.prefilter is None)
