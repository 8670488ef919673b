"""Shell pattern matching: case patterns, [[ == ]], ${x#p} and friends."""

from __future__ import annotations

import pytest

from tysh.kernel.expand import pattern
from tysh.kernel.expand.pattern import ReplaceTemplate


@pytest.mark.parametrize(
    "pat,text,ok",
    [
        ("*.txt", "a.txt", True),
        ("*.txt", "a.txt.bak", False),
        ("a?c", "abc", True),
        ("a?c", "ac", False),
        ("[abc]x", "bx", True),
        ("[!abc]x", "bx", False),
        ("[^abc]x", "dx", True),
        ("[a-z]*", "hello", True),
        ("[a-z]*", "Hello", False),
        ("[[:alpha:]][[:digit:]]", "a1", True),
        ("[[:upper:]]*", "abc", False),
        ("[[:space:]]", " ", True),
        ("[]]", "]", True),
        ("[!]]", "a", True),
        ("\\*", "*", True),
        ("\\*", "a", False),
        ("[", "[", True),
        ("a[", "a[", True),
        ("*", "", True),
        ("*", "line1\nline2", True),
        ("h?llo.*", "hello.txt", True),
        ("a.c", "abc", False),
        ("(x)", "(x)", True),
    ],
)
def test_match_whole_string(pat: str, text: str, ok: bool) -> None:
    assert pattern.match(pat, text) is ok


def test_escape_makes_pattern_literal() -> None:
    tricky = "a*b?[c]\\d"
    assert pattern.match(pattern.escape(tricky), tricky)
    assert not pattern.match(pattern.escape("*"), "x")


def test_has_magic_ignores_unclosed_bracket_and_escapes() -> None:
    assert pattern.has_magic("*.c")
    assert pattern.has_magic("[ab]")
    assert not pattern.has_magic("[")
    assert not pattern.has_magic("]")
    assert not pattern.has_magic("\\*")
    assert not pattern.has_magic("plain")


def test_compile_pattern_is_cached() -> None:
    assert pattern.compile_pattern("*.py") is pattern.compile_pattern("*.py")


@pytest.mark.parametrize(
    "text,pat,longest,expected",
    [
        ("a/b/c.tar.gz", "*/", False, "b/c.tar.gz"),
        ("a/b/c.tar.gz", "*/", True, "c.tar.gz"),
        ("a/b/c.tar.gz", "a", False, "/b/c.tar.gz"),
        ("a/b/c.tar.gz", "x", False, "a/b/c.tar.gz"),
        ("*a*b", "\\*", False, "a*b"),
        ("*a*b", "*", False, "*a*b"),
        ("*a*b", "*", True, ""),
    ],
)
def test_remove_prefix_shortest_and_longest(
    text: str, pat: str, longest: bool, expected: str
) -> None:
    assert pattern.remove_prefix(text, pat, longest) == expected


@pytest.mark.parametrize(
    "text,pat,longest,expected",
    [
        ("a/b/c.tar.gz", ".*", False, "a/b/c.tar"),
        ("a/b/c.tar.gz", ".*", True, "a/b/c"),
        ("a/b/c.tar.gz", "/*", False, "a/b"),
        ("a/b/c.tar.gz", "z", False, "a/b/c.tar.g"),
        ("abc", "", False, "abc"),
    ],
)
def test_remove_suffix_shortest_and_longest(
    text: str, pat: str, longest: bool, expected: str
) -> None:
    assert pattern.remove_suffix(text, pat, longest) == expected


@pytest.mark.parametrize(
    "text,pat,repl,mode,expected",
    [
        ("a-b-c-d", "-", "+", "/", "a+b-c-d"),
        ("a-b-c-d", "-", "+", "//", "a+b+c+d"),
        ("a-b-c-d", "-", "", "//", "abcd"),
        ("a-b-c-d", "x", "y", "/", "a-b-c-d"),
        ("abcabc", "abc", "X", "/#", "Xabc"),
        ("abcabc", "abc", "Y", "/%", "abcY"),
        ("abcabc", "bc", "Z", "/#", "abcabc"),
        ("abcabc", "ab", "W", "/%", "abcabc"),
        ("file123.txt", "[0-9]", "#", "//", "file###.txt"),
        ("file123.txt", "[a-z]*.", "X.", "/", "X.txt"),
        ("file123.txt", "[!a-z]", "", "//", "filetxt"),
        ("aaa", "a*", "X", "/", "X"),
        ("abc", "*", "X", "//", "X"),
    ],
)
def test_replace_longest_leftmost(text: str, pat: str, repl: str, mode: str, expected: str) -> None:
    assert pattern.replace(text, pat, repl, mode) == expected


def test_replace_template_puts_match_at_ampersand() -> None:
    assert pattern.replace("abcb", "b", ReplaceTemplate(["[", "]"]), "/") == "a[b]cb"
    assert pattern.replace("abcb", "b", ReplaceTemplate(["<", ">"]), "//") == "a<b>c<b>"


@pytest.mark.parametrize(
    "text,op,pat,expected",
    [
        ("hello World", "^^", None, "HELLO WORLD"),
        ("hello World", ",,", None, "hello world"),
        ("hello World", "^", None, "Hello World"),
        ("Hello", ",", None, "hello"),
        ("élan", "^", None, "Élan"),
        ("banana", "^^", "[an]", "bANANA"),
        ("", "^^", None, ""),
    ],
)
def test_convert_case(text: str, op: str, pat: str | None, expected: str) -> None:
    assert pattern.convert_case(text, op, pat) == expected
