"""The token loop reads words with quotes or `$name` in them, and redirections to a plain
word, through its own regexes; each such word must split into exactly the parts the
general word scanner gives it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.syntax import lexer
from tysh.kernel.syntax.parser import parse_scanner, parse_uncached

WORDS = ["'a'", "''", "'a''b'", "a'b'c", '"$x"', '"a $x b"', '"${x}y"', '""', "$x", "${x}",
         "a$x", "$x'y'", '"a"\'b\'', "'$x'", '"it\'s"', "$aé", '"$x$y"', "'a'\"\"''",
         "$?", '"$?"', "rc$?", '"after $?"', '"$@"', '"$*"', "$#", '"$#"', "$1", "$10", "$1x",
         '"$2$3"', "$$", "$!", "$-", '"a=$?"', "${x}$?", "$*", "$@"]


def _general(word: str) -> tuple[lexer.ast.Word, int]:
    scanner = lexer.Scanner(lexer.Source(word, parse_scanner))
    return scanner.scan_word(0, lexer.M_WORD)


@pytest.mark.parametrize("word", WORDS)
def test_a_quick_word_splits_into_the_parts_scan_word_gives(word: str) -> None:
    m = lexer._QUICK_WORD.match(word)
    assert m is not None and m.end() == len(word)
    general, end = _general(word)
    assert end == len(word)
    assert lexer._quick_parts(word, 0, len(word)) == general.parts


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab $'\"{}_=x1\\`<>()|;&\n?#@*!-0", max_size=12))
def test_any_text_the_quick_word_regex_takes_scans_the_same(text: str) -> None:
    m = lexer._QUICK_WORD.match(text)
    if m is None:
        return
    try:
        general, end = _general(text)
    except lexer.TyshSyntaxError:
        pytest.fail(f"the quick regex took {text!r}, which the scanner refuses")
    assert end == m.end()
    assert lexer._quick_parts(text, 0, m.end()) == general.parts


@pytest.mark.parametrize("src", ["echo a >f", "echo 2>&1", "cat < in", "x 2>/dev/null",
                                 "a >>log b", "b <&0", "c 5 6>x", "{ a; } >f", "echo {a,b}",
                                 "x='a b' \"$y\" >o; echo \"${z}\"'q' | c 1<i"])
def test_the_inline_paths_parse_as_the_general_path_does(
        src: str, monkeypatch: pytest.MonkeyPatch) -> None:
    quick = parse_uncached(src)
    monkeypatch.setattr(lexer, "_QUICK_REDIR", LazyRegex(r"(?!)"))
    monkeypatch.setattr(lexer, "_QUICK_WORD", LazyRegex(r"(?!)"))
    assert parse_uncached(src) == quick
    assert repr(parse_uncached(src)) == repr(quick)
