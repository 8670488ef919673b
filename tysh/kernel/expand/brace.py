"""Brace expansion (`{a,b}`, `{1..5}`, `{a..e}`, `{1..10..2}`, `{01..10}`), the first step.

Only braces and commas in unquoted source text (`Lit` parts) are live, but an
alternative may contain quoted text and expansions (`{"$x","$y"}z`), so expansion works
on a word's parts: Lit text is cut into brace tokens and literal runs, every other part
is carried along opaque. A `{…}` with neither a top-level comma nor a valid sequence
stays literal, as in bash.
"""

from __future__ import annotations

from tysh.kernel.base.errors import TyshError
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.syntax import ast

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

MAX_WORDS = 100_000

_SPLIT = LazyRegex(r"([{},])")
_NUM_SEQ = LazyRegex(r"([+-]?\d+)\.\.([+-]?\d+)(?:\.\.([+-]?\d+))?")
_CHR_SEQ = LazyRegex(r"([A-Za-z])\.\.([A-Za-z])(?:\.\.([+-]?\d+))?")


class BraceError(TyshError):
    """Brace expansion that would produce an unreasonable number of words."""


class _Tok:
    """A live `{`, `,` or `}` from unquoted text."""

    __slots__ = ("ch",)

    def __init__(self, ch: str) -> None:
        self.ch = ch


_OPEN, _COMMA, _CLOSE = _Tok("{"), _Tok(","), _Tok("}")
_TOKS = {"{": _OPEN, ",": _COMMA, "}": _CLOSE}

Item = _Tok | ast.WordPart


def has_braces(parts: Sequence[ast.WordPart]) -> bool:
    """Cheap test: could brace expansion change this word?"""
    opened = False
    for p in parts:
        if type(p) is ast.Lit:
            t = p.text
            if not opened and "{" in t:
                opened = True
                t = t[t.index("{") + 1 :]
            if opened and "}" in t:
                return True
    return False


def _tokenize(parts: Sequence[ast.WordPart]) -> list[Item]:
    items: list[Item] = []
    for p in parts:
        if type(p) is ast.Lit:
            for piece in _SPLIT.split(p.text):
                if not piece:
                    continue
                tok = _TOKS.get(piece)
                items.append(tok if tok is not None else ast.Lit(piece))
        else:
            items.append(p)
    return items


def _untokenize(items: Sequence[Item]) -> tuple[ast.WordPart, ...]:
    out: list[ast.WordPart] = []
    buf: list[str] = []
    for it in items:
        if isinstance(it, _Tok):
            buf.append(it.ch)
        elif type(it) is ast.Lit:
            buf.append(it.text)
        else:
            if buf:
                out.append(ast.Lit("".join(buf)))
                buf.clear()
            out.append(it)
    if buf:
        out.append(ast.Lit("".join(buf)))
    return tuple(out)


def _sequence(items: Sequence[Item]) -> list[str] | None:
    """The words of `{x..y[..s]}` when the brace body is such a sequence, else None."""
    if len(items) != 1 or type(items[0]) is not ast.Lit:
        return None
    body = items[0].text
    m = _NUM_SEQ.fullmatch(body)
    if m is not None:
        a_s, b_s, s_s = m.groups()
        a, b = int(a_s), int(b_s)
        step = abs(int(s_s)) if s_s else 1
        step = step or 1
        count = abs(b - a) // step + 1
        if count > MAX_WORDS:
            raise BraceError(f"brace expansion {{{body}}} gives too many words", 1)
        nums = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)

        def padded(s: str) -> bool:
            s = s.lstrip("+-")
            return len(s) > 1 and s[0] == "0"

        if padded(a_s) or padded(b_s):
            width = max(len(a_s.lstrip("+")), len(b_s.lstrip("+")))
            return [
                ("-" + str(-n).zfill(width - 1)) if n < 0 else str(n).zfill(width) for n in nums
            ]
        return [str(n) for n in nums]
    m = _CHR_SEQ.fullmatch(body)
    if m is not None:
        a_c, b_c, s_s = m.groups()
        step = abs(int(s_s)) if s_s else 1
        step = step or 1
        a, b = ord(a_c), ord(b_c)
        rng = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [chr(c) for c in rng]
    return None


def _expand(items: list[Item]) -> list[list[Item]]:
    n = len(items)
    i = 0
    while i < n:
        if items[i] is not _OPEN:
            i += 1
            continue
        depth = 0
        commas: list[int] = []
        close = -1
        for j in range(i + 1, n):
            it = items[j]
            if it is _OPEN:
                depth += 1
            elif it is _CLOSE:
                if depth == 0:
                    close = j
                    break
                depth -= 1
            elif it is _COMMA and depth == 0:
                commas.append(j)
        if close < 0:
            i += 1  # an unmatched `{` stays literal
            continue
        prefix = items[:i]
        suffix_words = _expand(items[close + 1 :])
        if commas:
            bounds = [i, *commas, close]
            alts: list[list[Item]] = []
            for k in range(len(bounds) - 1):
                alts.extend(_expand(items[bounds[k] + 1 : bounds[k + 1]]))
        else:
            seq = _sequence(items[i + 1 : close])
            if seq is None:
                i += 1
                continue
            alts = [[ast.Lit(s)] for s in seq]
        if len(alts) * len(suffix_words) > MAX_WORDS:
            raise BraceError("brace expansion gives too many words", 1)
        return [prefix + a + s for a in alts for s in suffix_words]
    return [items]


def expand_braces(parts: Sequence[ast.WordPart]) -> list[tuple[ast.WordPart, ...]]:
    """The words a word's parts expand to (the parts themselves when nothing expands)."""
    if not has_braces(parts):
        return [tuple(parts)]
    try:
        words = _expand(_tokenize(parts))
    except RecursionError:
        raise BraceError("brace expansion nested too deeply", 1) from None
    return [_untokenize(w) for w in words]


def expand_text(text: str) -> list[str]:
    """Brace-expand plain unquoted text (handy for tests and tools)."""
    out: list[str] = []
    for w in expand_braces((ast.Lit(text),)):
        out.append("".join(p.text for p in w if isinstance(p, ast.Lit)))
    return out
