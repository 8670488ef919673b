"""Syntax highlighting of the REPL input: `repl_lex` spans as prompt_toolkit fragments."""

from __future__ import annotations

from collections.abc import Callable
from itertools import groupby

from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.lexers import Lexer
from prompt_toolkit.styles import Style

from tysh.repl.lex import parse_error_offset, scan

STYLE = Style.from_dict({
    "command": "bold #5fafff",
    "unknown": "bold #ff5f5f",
    "keyword": "bold #d787ff",
    "option": "#87d7af",
    "string": "#d7af5f",
    "variable": "#5fd7d7",
    "operator": "#af87ff",
    "redirect": "#af87ff",
    "assign": "#87afd7",
    "comment": "italic #808080",
    "word": "",
    "incomplete": "",
    "error": "bg:#5f0000 #ffffff",
    "bottom-toolbar": "noreverse #a8a8a8 bg:#262626",
    "prompt.status": "bold #ff5f5f",
    "prompt.cwd": "bold #87afff",
})


def styles_of(text: str, known: Callable[[str], bool] | None = None) -> list[str]:
    """One style class per character of `text` (inner spans win over outer ones).
    `known(name)` marks command names that resolve; others show as unknown."""
    res = scan(text)
    styles = [""] * len(text)
    for sp in res.spans:
        kind = sp.kind
        if kind == "command" and known is not None and not known(text[sp.start:sp.end]):
            kind = "unknown"
        styles[sp.start:sp.end] = ["class:" + kind] * (sp.end - sp.start)
    if res.error_at is None and res.incomplete_at is None and text.strip():
        off = parse_error_offset(text)
        if off is not None and off < len(text):
            end = text.find(" ", off)
            end = len(text) if end < 0 else end
            styles[off:end] = ["class:error"] * (end - off)
    return styles


def fragments(text: str, known: Callable[[str], bool] | None = None) -> list[StyleAndTextTuples]:
    """Styled fragments of each line of `text`."""
    styles = styles_of(text, known)
    lines: list[StyleAndTextTuples] = [[]]
    pos = 0
    for style, group in groupby(styles):
        n = sum(1 for _ in group)
        chunk = text[pos:pos + n]
        pos += n
        parts = chunk.split("\n")
        for i, part in enumerate(parts):
            if i:
                lines.append([])
            if part:
                lines[-1].append((style, part))
    return lines


class ShellLexer(Lexer):
    """prompt_toolkit lexer over the whole buffer (multi-line input is one command)."""

    def __init__(self, known: Callable[[str], bool] | None = None) -> None:
        self.known = known

    def lex_document(self, document: Document) -> Callable[[int], StyleAndTextTuples]:
        text = document.text
        if not text:
            return lambda _i: []
        lines = fragments(text, self.known)

        def get_line(i: int) -> StyleAndTextTuples:
            return lines[i] if 0 <= i < len(lines) else []

        return get_line
