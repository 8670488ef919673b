"""POSIX BRE/ERE (GNU flavour) → Python re translation."""

from __future__ import annotations

import re

import pytest

from tysh.kernel.text.regex import compile_patterns, compile_text, translate, validate


def finds(pattern: str, text: str, ere: bool = False) -> bool:
    c = compile_patterns((pattern,), "ere" if ere else "bre")
    hay: str | bytes = text if c.text else text.encode()
    return c.regex.search(hay) is not None  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("pattern", "ere", "text", "hit"),
    [
        ("a+b", False, "a+b", True),
        ("a+b", False, "aab", False),
        ("a\\+b", False, "aab", True),
        ("a+b", True, "aab", True),
        ("colou\\?r", False, "color", True),
        ("colou?r", False, "color", False),
        ("cat\\|cow", False, "cow", True),
        ("x\\{2\\}", False, "xx", True),
        ("x{2}", False, "x{2}", True),
        ("x{2}", False, "xx", False),
        ("x{1,2", True, "x{1,2", True),
        ("a{,2}b", True, "b", True),
        ("\\(ab\\)\\1", False, "abab", True),
        ("(xy)\\1", True, "xyxy", True),
        ("*a", False, "*a", True),
        ("*a", True, "a", True),
        ("a^b", False, "a^b", True),
        ("a$b", False, "a$b", True),
        ("\\(^x\\)", False, "x", True),
        ("a\\|^b", False, "b", True),
        ("[]a]", False, "]", True),
        ("[^]a]", False, "]", False),
        ("[\\]", False, "\\", True),
        ("[a-]", False, "-", True),
        ("[[:digit:]]", False, "7", True),
        ("[[:alpha:]]", False, "é", True),
        ("[^[:alpha:]]", False, "é", False),
        ("[[:upper:]]", False, "a", False),
        ("[[:space:]]x", False, " x", True),
        ("\\<b", False, "a b", True),
        ("\\<b", False, "ab", False),
        ("e\\>", False, "one two", True),
        ("\\bt", False, "at", False),
        ("a\\sb", False, "a b", True),
        ("a\\Wb", False, "aXb", False),
        ("a**", True, "aaa", True),
        ("Stra.e", False, "Straße", True),
    ],
)
def test_dialect_semantics(pattern: str, ere: bool, text: str, hit: bool) -> None:
    assert finds(pattern, text, ere) is hit


@pytest.mark.parametrize(
    ("pattern", "kind", "message"),
    [
        ("\\(x", "bre", "Unmatched ( or \\("),
        ("x\\)", "bre", "Unmatched ) or \\)"),
        ("(x", "ere", "Unmatched ( or \\("),
        ("[x", "bre", "Unmatched [, [^, [:, [., or [="),
        ("a\\{1", "bre", "Unmatched \\{"),
        ("a\\{2,1\\}", "bre", "Invalid content of \\{\\}"),
        ("\\1", "bre", "Invalid back reference"),
        ("[z-a]", "bre", "Invalid range end"),
        ("[[:foo:]]", "bre", "Invalid character class name"),
        ("x\\", "bre", "Trailing backslash"),
    ],
)
def test_invalid_patterns_report_gnu_messages(pattern: str, kind: str, message: str) -> None:
    assert validate(pattern, kind) == message  # type: ignore[arg-type]


def test_valid_pattern_validates_to_none() -> None:
    assert validate("^a.*b$", "bre") is None
    assert validate("(a|b)+", "ere") is None


def test_line_mode_never_crosses_newlines() -> None:
    c = compile_patterns(("a.b",), "bre")
    assert c.regex.search("a\nb") is None  # type: ignore[arg-type]
    c = compile_patterns(("a[^x]b",), "bre")
    assert c.regex.search("a\nb") is None  # type: ignore[arg-type]
    c = compile_patterns(("a[[:space:]]b",), "bre")
    assert c.regex.search(b"a\nb") is None  # type: ignore[arg-type]


def test_space_mode_dot_matches_newline_and_dollar_is_end() -> None:
    rx = compile_text("a.b$", False, False, "space")
    assert rx.search("a\nb") is not None
    assert rx.search("a\nb\n") is None


def test_ascii_literal_patterns_compile_to_bytes() -> None:
    assert compile_patterns(("needle",), "bre").text is False
    assert compile_patterns(("[0-9]\\+",), "bre").text is False
    assert compile_patterns(("ne.dle",), "bre").text is True


def test_several_patterns_keep_their_own_back_references() -> None:
    c = compile_patterns(("\\(a\\)\\1", "\\(b\\)\\1"), "bre")
    assert c.regex.search(b"bb") is not None  # type: ignore[arg-type]
    assert c.regex.search(b"ab") is None  # type: ignore[arg-type]


def test_word_and_line_wrapping() -> None:
    w = compile_patterns(("foo",), "bre", word=True)
    assert w.regex.search(b"a foo.") is not None  # type: ignore[arg-type]
    assert w.regex.search(b"foo_bar") is None  # type: ignore[arg-type]
    x = compile_patterns(("abc",), "bre", line=True)
    assert x.regex.search(b" abc") is None  # type: ignore[arg-type]


def test_ignore_case_literal_uses_lowercase_prefilter() -> None:
    c = compile_patterns(("NeEdle",), "bre", ignore_case=True)
    assert c.lower and c.prefilter is not None
    assert c.prefilter.search(b"xx needle") is not None  # type: ignore[arg-type]


def test_translation_is_plain_python_re() -> None:
    t = translate("\\(a\\)\\{2,3\\}", extended=False)
    assert re.compile(t.source).fullmatch("aaa") is not None
    assert t.groups == 1
