"""Expansion of words as the parser builds them (quoting, escapes, ${…} forms)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from tysh.kernel.base.argv import Flag, Operand
from tysh.kernel.expand.words import expand_args

sys.path.insert(0, str(Path(__file__).parent))
from _expand_host import FakeHost  # noqa: E402

parser = pytest.importorskip("tysh.kernel.syntax.parser")


def args_of(src: str, h: FakeHost) -> list[Any]:
    script = parser.parse(src)
    words = script.statements[0].body.first.commands[0].words
    out = []
    for a in expand_args(words[1:], h):
        out.append(a.value if isinstance(a, Operand) else a.text if isinstance(a, Flag) else "--")
    return out


@pytest.fixture
def h(tmp_path: Path) -> FakeHost:
    for n in ("a.txt", "b.txt"):
        (tmp_path / n).write_text("")
    return FakeHost(
        {
            "x": "a b",
            "e": "",
            "p": "a/b/c.tar.gz",
            "s": "*a*b",
            "pat": "*",
            "arr": ["one", "two words", "three"],
            "HOME": "/home/t",
            "n": "3",
        },
        positional=["a b", "", "c"],
        cwd=str(tmp_path),
    )


@pytest.mark.parametrize(
    "src,expected",
    [
        ('echo a\\ b \\$x \\\\ \\"q\\"', ["a b", "$x", "\\", '"q"']),
        ("echo '$x' \"$x\" $x", ["$x", "a b", "a b"]),
        ('echo \'one\'"two"three"$x"\'$x\'"$((1+1))"', ["onetwothreea b$x2"]),
        (
            'echo "${p#*/}" "${p##*/}" "${p%.*}" "${p%%.*}"',
            ["b/c.tar.gz", "c.tar.gz", "a/b/c.tar", "a/b/c"],
        ),
        ('echo "${s#"$pat"}|${s#$pat}|${s##$pat}|"', ["a*b|*a*b||"]),
        ('echo "$@"', ["a b", "", "c"]),
        ("echo $@", ["a b", "c"]),
        (
            'echo "${arr[@]}" ${#arr[@]} ${arr[-1]} ${arr[n-2]}',
            ["one", "two words", "three", "3", "three", "two words"],
        ),
        ("echo {a,b}{1..2} \\{x,y} {a}", ["a1", "a2", "b1", "b2", "{x,y}", "{a}"]),
        ('echo ~ ~/docs "~" a~b', ["/home/t", "/home/t/docs", "~", "a~b"]),
        ('echo *.txt "*.txt" \\*.txt', ["a.txt", "b.txt", "*.txt", "*.txt"]),
        ("echo $e '' \"\" $((n*2))", ["", "", "6"]),
        ("echo ${e:-d} ${u-x} ${x:+alt} ${#x}", ["d", "x", "alt", "3"]),
        ("echo ${x^^} ${x/a/Z} ${x: -1}", ["A B", "Z b", "b"]),
        ("echo $'a\\tb'", ["a\tb"]),
    ],
)
def test_parsed_words_expand_like_bash_without_splitting(
    src: str, expected: list[str], h: FakeHost
) -> None:
    assert args_of(src, h) == expected
