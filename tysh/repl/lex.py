"""Classify the REPL's input text into styled spans, using the shell's own lexer.

Highlighting and completion need the same facts about a partial line: which words are
command names, which are options, strings, variables and where a syntax error starts. They
come from `tysh.kernel.syntax.lexer.Scanner` (the scanner the parser uses, which also
expands the REPL's aliases), so the REPL never keeps a second idea of the syntax. Scanning stops at the first
error; the rest of the text becomes one span ("incomplete" for an unfinished construct
such as an open quote, "error" for a real mistake).
"""

from __future__ import annotations

import re

from tysh.kernel.base.record import Record, frozen

# Token types after which the next word names a command.
_OPENS = frozenset({
    "_NL", "_SEMI", "_AMP", "AND_IF", "OR_IF", "PIPE", "PIPE_AMP", "LPAREN", "LBRACE",
    "IF", "_THEN", "_ELSE", "ELIF", "_DO", "WHILE", "UNTIL", "BANG", "TIME", "CASE_TERM",
})
# Token types that leave command position as it was (`A=1 cmd`, `>f cmd`).
_TRANSPARENT = frozenset({"ASSIGN", "REDIR"})
_OPERATORS = frozenset({
    "_NL", "_SEMI", "_AMP", "AND_IF", "OR_IF", "PIPE", "PIPE_AMP", "LPAREN", "_RPAREN",
    "CASE_TERM", "FUNC_PARENS",
})

# Pieces of one word: quotes, parameter expansions, substitutions and plain runs.
_WORD_PIECES = re.compile(
    r"""(?P<sq>\$?'[^']*'?)"""
    r"""|(?P<dq>"(?:\\.|[^"\\])*"?)"""
    r"""|(?P<var>\$\{[^}]*\}?|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!-])"""
    r"""|(?P<sub>\$\(\(?|`)"""
    r"""|(?P<plain>\\.|[^'"$`\\]+|.)""",
    re.S,
)
_DQ_VARS = re.compile(r"\$\{[^}]*\}?|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!-]|\$\(")


@frozen
class Span(Record):
    """`text[start:end]` has style `kind` (command, keyword, option, string, variable,
    operator, redirect, assign, comment, word, incomplete, error)."""

    start: int
    end: int
    kind: str


@frozen
class Word(Record):
    """A word as the scanner saw it, and whether it stands where a command name goes."""

    start: int
    end: int
    text: str
    command: bool


@frozen
class Scan(Record):
    spans: tuple[Span, ...]
    words: tuple[Word, ...]
    error_at: int | None  # offset where scanning stopped on a real error
    incomplete_at: int | None  # offset of an unfinished construct


def scan(text: str) -> Scan:
    """Spans and words of `text`; never raises."""
    from tysh.kernel.base.errors import TyshSyntaxError
    from tysh.kernel.syntax.lexer import Scanner, Source
    from tysh.kernel.syntax.parser import parse_scanner

    spans: list[Span] = []
    words: list[Word] = []
    at_cmd = True
    in_case = 0
    last_end = 0
    error_at: int | None = None
    incomplete_at: int | None = None
    try:
        for tok in Scanner(Source(text, parse_scanner)).tokens():
            typ, _, start, end = tok
            if start > last_end:
                _gap(text, last_end, start, spans)
            last_end = max(last_end, end)
            if typ == "WORD":
                w = text[start:end]
                words.append(Word(start, end, w, at_cmd))
                if at_cmd:
                    spans.append(Span(start, end, "command"))
                    at_cmd = False
                else:
                    _word_spans(text, start, end, spans)
                continue
            if typ in _TRANSPARENT:
                spans.append(Span(start, end, "assign" if typ == "ASSIGN" else "redirect"))
                continue
            if typ == "DECL_ASSIGN":
                spans.append(Span(start, end, "assign"))
                continue
            if typ == "CASE":
                in_case += 1
            elif typ == "_ESAC":
                in_case = max(in_case - 1, 0)
            kind = "operator" if typ in _OPERATORS else (
                "option" if typ.startswith("COND_") else "keyword")
            spans.append(Span(start, end, kind))
            at_cmd = typ in _OPENS or (typ == "_RPAREN" and in_case > 0)
    except TyshSyntaxError as e:
        off = _offset(text, e.line, e.col)
        if e.incomplete:
            incomplete_at = off
        else:
            error_at = off
    except Exception:  # noqa: BLE001 — highlighting must never break the prompt
        error_at = last_end
    stop = error_at if error_at is not None else incomplete_at
    if stop is not None:
        stop = max(stop, last_end)
        if stop > last_end:
            _gap(text, last_end, stop, spans)
        if stop < len(text):
            spans.append(Span(stop, len(text), "error" if error_at is not None else "incomplete"))
    elif last_end < len(text):
        _gap(text, last_end, len(text), spans)
    return Scan(tuple(spans), tuple(words), error_at, incomplete_at)


def parse_error_offset(text: str) -> int | None:
    """Where the parser (not only the scanner) finds a real error, or None."""
    from tysh.kernel.base.errors import TyshSyntaxError
    from tysh.kernel.syntax.parser import parse

    try:
        parse(text)
    except TyshSyntaxError as e:
        return None if e.incomplete else _offset(text, e.line, e.col)
    except Exception:  # noqa: BLE001
        return None
    return None


def _offset(text: str, line: int, col: int) -> int:
    """Character offset of a 1-based (line, column)."""
    off = 0
    for _ in range(line - 1):
        nl = text.find("\n", off)
        if nl < 0:
            return len(text)
        off = nl + 1
    return min(off + max(col - 1, 0), len(text))


def _gap(text: str, start: int, end: int, spans: list[Span]) -> None:
    """Text the scanner skipped: blanks, and comments worth a style."""
    hash_at = text.find("#", start, end)
    if hash_at >= 0 and (hash_at == 0 or text[hash_at - 1] in " \t\n;"):
        spans.append(Span(hash_at, end, "comment"))


def _word_spans(text: str, start: int, end: int, spans: list[Span]) -> None:
    """Style the pieces of an argument word."""
    w = text[start:end]
    if w.startswith("-") and len(w) > 1:
        eq = w.find("=")
        if eq < 0:
            spans.append(Span(start, end, "option"))
            return
        spans.append(Span(start, start + eq + 1, "option"))
        start += eq + 1
    for m in _WORD_PIECES.finditer(text, start, end):
        kind = m.lastgroup
        s, e = m.span()
        if kind in ("sq", "dq"):
            spans.append(Span(s, e, "string"))
            if kind == "dq":
                for v in _DQ_VARS.finditer(text, s, e):
                    spans.append(Span(v.start(), v.end(), "variable"))
        elif kind in ("var", "sub"):
            spans.append(Span(s, e, "variable"))
        else:
            spans.append(Span(s, e, "word"))
