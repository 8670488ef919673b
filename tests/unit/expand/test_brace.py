"""Brace expansion on unquoted text and across word parts."""

from __future__ import annotations

import pytest

from tysh.kernel.expand import brace
from tysh.kernel.syntax import ast


@pytest.mark.parametrize(
    "text,expected",
    [
        ("{a,b,c}", ["a", "b", "c"]),
        ("pre{1,2}post", ["pre1post", "pre2post"]),
        ("{1..5}", ["1", "2", "3", "4", "5"]),
        ("{5..1}", ["5", "4", "3", "2", "1"]),
        ("{a..e}", ["a", "b", "c", "d", "e"]),
        ("{1..10..2}", ["1", "3", "5", "7", "9"]),
        ("{10..1..3}", ["10", "7", "4", "1"]),
        ("{a..k..3}", ["a", "d", "g", "j"]),
        ("{a,b{1,2},c}", ["a", "b1", "b2", "c"]),
        ("{01..03}", ["01", "02", "03"]),
        ("{08..10}", ["08", "09", "10"]),
        ("{-2..2}", ["-2", "-1", "0", "1", "2"]),
        ("{-05..5..5}", ["-05", "000", "005"]),
        ("{1..3}{a,b}", ["1a", "1b", "2a", "2b", "3a", "3b"]),
        ("a{,b}", ["a", "ab"]),
        ("{1..3..0}", ["1", "2", "3"]),
    ],
)
def test_expands_like_bash(text: str, expected: list[str]) -> None:
    assert brace.expand_text(text) == expected


@pytest.mark.parametrize("text", ["{a}", "{}", "x{y", "a}b", "{1..}", "{a..1}", "plain"])
def test_lone_or_invalid_braces_stay_literal(text: str) -> None:
    assert brace.expand_text(text) == [text]


def test_unmatched_open_brace_does_not_block_later_ones() -> None:
    assert brace.expand_text("x{a{b,c}") == ["x{ab", "x{ac"]
    assert brace.expand_text("{a{b,c}}") == ["{ab}", "{ac}"]


def test_alternatives_may_hold_quoted_parts_and_expansions() -> None:
    x = ast.ParamExp("x")
    parts = (ast.Lit("{"), ast.DQ((x,)), ast.Lit(","), ast.Quoted("q"), ast.Lit("}z"))
    words = brace.expand_braces(parts)
    assert words == [(ast.DQ((x,)), ast.Lit("z")), (ast.Quoted("q"), ast.Lit("z"))]


def test_quoted_braces_are_not_live() -> None:
    parts = (ast.Quoted("{"), ast.Lit("x,y}"))
    assert brace.expand_braces(parts) == [parts]


def test_huge_sequence_is_an_error_not_a_memory_blowup() -> None:
    with pytest.raises(brace.BraceError):
        brace.expand_text("{1..100000000}")
