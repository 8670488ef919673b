"""Shell pattern matching: case patterns, [[ == ]], ${x#p} and friends."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


# -- extended patterns -------------------------------------------------------------------


@pytest.mark.parametrize(
    "pat,text,ok",
    [
        ("--@(help|verbose)", "--verbose", True),
        ("--@(help|verbose)", "--oops", False),
        ("--?(help|verbose)", "--", True),
        ("--+(help|verbose)", "--helpverbose", True),
        ("--+(help|verbose)", "--", False),
        ("*(ab)", "", True),
        ("*(ab)", "ababa", False),
        ("*(foo*)", "foofoo_foo__", True),
        ("@(a|b@(c|d))", "bd", True),
        ("@()", "", True),
        ("@(|x)", "", True),
        ("@(a|b)", "|", False),
        ("!(x)", "", True),
        ("!(x)", "x", False),
        ("!(x)", "xx", True),
        ("--!(help|verbose)", "--help", False),
        ("--!(help|verbose)", "--helpx", True),
        ("a!(@(ab|b*))", "ab", False),
        ("a!(@(ab|b*))", "az", True),
        ("!(b)?@(b|c)", "bb", True),
        ("!(a)*", "a", True),
        ("@([)|]|x)", ")", True),
        ("x@(a", "x@(a", True),
        ("@(__?__)", "__μ__", True),
    ],
)
def test_extended_patterns_match_as_bash_does(pat: str, text: str, ok: bool) -> None:
    assert pattern.match(pat, text) is ok


def test_extended_groups_are_literal_without_extglob_and_when_escaped() -> None:
    assert pattern.match("@(a|b)", "@(a|b)", extglob=False)
    assert not pattern.match("@(a|b)", "a", extglob=False)
    assert pattern.match(pattern.escape("@(a|b)"), "@(a|b)")
    assert not pattern.has_magic(pattern.escape("!(x)"))
    assert pattern.has_magic("!(x)") and not pattern.has_magic("!(x)", False)


def test_quoted_class_characters_are_literal_in_brackets() -> None:
    assert pattern.match("[C" + pattern.escape("-") + "D]", "-")
    assert pattern.match("[" + pattern.escape("!") + "a]", "!")


def test_nocase_matches_literal_text_classes_and_groups() -> None:
    assert pattern.match("abc", "ABC", nocase=True) and not pattern.match("abc", "ABC")
    assert pattern.match("[a]*", "Ax", nocase=True)
    assert pattern.match("!(X)", "x", nocase=True) is False


def test_replace_takes_the_longest_alternative_at_the_leftmost_place() -> None:
    assert pattern.replace("ab", "@(a|ab)", "X", "//") == "X"
    assert pattern.replace("xabyab", "+(a|ab)", "X", "//") == "xXyX"
    assert pattern.replace("foo.py", "@(?.py)", "Z", "//") == "foZ"
    assert pattern.replace("a-b-c", "!(-)", "X", "/") == "X"


def test_strip_with_extended_patterns() -> None:
    assert pattern.remove_suffix("foo()", "*(foo|bar)\\(\\)", False) == "foo"
    assert pattern.remove_suffix("foo()", "*(foo|bar)\\(\\)", True) == ""
    assert pattern.remove_prefix("foo.py", "!(.*)", False) == "foo.py"
    assert pattern.remove_prefix("foo.py", "!(*.py)", True) == "y"
    assert pattern.remove_prefix("foo.py", "!(*.py)", False) == "foo.py"


def test_split_pattern_keeps_brackets_and_groups_whole() -> None:
    assert pattern.split_pattern("[[:alnum:]]*:a\\:b:@(x:y)", ":") == [
        "[[:alnum:]]*", "a\\:b", "@(x:y)"]
    assert pattern.split_pattern("a/@(b/c)/d", "/") == ["a", "@(b/c)", "d"]


@pytest.mark.parametrize(
    "pat",
    ["*(!(x))*(!(y))q", "+(+(!(b)))q", "!(*(a|aa)b)!(a)c", "*(a|aa)*(a|aa)b"],
)
def test_adversarial_extended_patterns_end_at_the_stop_check(pat: str) -> None:
    """Nested repetition and negation over a long text: the end-set matcher is
    polynomial and checks the stop check as it goes, so a time limit ends it."""
    import time

    from tysh.kernel.base import stop

    deadline = time.monotonic() + 0.5

    class Stop(Exception):
        pass

    def check() -> None:
        if time.monotonic() > deadline:
            raise Stop

    t0 = time.monotonic()
    with stop.checking(check):
        try:
            pattern.match(pat, "a" * 20000)
        except Stop:
            pass
    assert time.monotonic() - t0 < 3.0


@pytest.mark.parametrize(
    "pat",
    ["[" * 20000, "@(" * 20000, "[[:" * 20000 + "]", "[" + "[:" * 20000 + "]",
     "[\\]" * 20000, "*(" * 4000 + "a" + ")" * 4000],
)
def test_reading_a_long_pattern_takes_linear_time(pat: str) -> None:
    """Unclosed brackets, classes and groups: each is looked for once, not once per
    opening character (which took over a minute for 20,000 `[`)."""
    import time

    t0 = time.monotonic()
    pattern.has_magic(pat)
    pattern.split_pattern(pat, "/")
    pattern.translate(pat, True)
    assert time.monotonic() - t0 < 10.0  # under a second unloaded; the old reading took 75 s


_STAR_PIECES = st.text(alphabet="ab\n*", max_size=8)


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "ab", "\n", "*", "**", "\\*", "."]), max_size=6),
       _STAR_PIECES.map(lambda t: t.replace("*", "")),
       st.integers(0, 9), st.integers(0, 9))
def test_a_star_only_pattern_answers_as_its_regex_does(
        pieces: list[str], text: str, pos: int, more: int) -> None:
    # a pattern whose only live character is `*` runs on string searches, not on the
    # regex engines: fullmatch, match and search (with start and end positions) give
    # the spans `re` gives for the pattern's regex
    import re

    pat = "".join(pieces)
    endpos = pos + more  # (past the text's end too; never before the start)
    rx = pattern.compile_pattern(pat)
    assert type(rx).__name__ == "_StarMatcher"
    ref = re.compile(pattern.translate(pat), re.DOTALL)
    for name in ("fullmatch", "match", "search"):
        got = getattr(rx, name)(text, pos, endpos)
        want = getattr(ref, name)(text, pos, endpos)
        assert (None if got is None else got.span()) == (
            None if want is None else want.span()), (name, pat, text, pos, endpos)
    assert (rx.fullmatch(text) is None) == (ref.fullmatch(text) is None)


@pytest.mark.parametrize("script", [
    "case a.txt in *.txt) echo y;; esac",
    "x=dir/sub/file.tar.gz; echo ${x##*/} ${x%%.*} ${x%.*} ${x#*/}",
    "[[ abc == a*c ]] && echo y",
    "x=a-b-c; echo ${x//-/ } ${x/#a/A} ${x/%c/C}",
])
def test_star_only_patterns_load_no_regex_engine(script: str, tmp_path: Path) -> None:
    from module_probe import modules_loaded

    got = modules_loaded(script, tmp_path)
    assert not got & {"re", "tysh.kernel.text.engine"}, sorted(got)
