"""Shell pattern matching: `case` patterns, `[[ == ]]`, `${x#p}`, `${x/p/r}` and glob segments.

A pattern is text where `* ? [...]` are live and `\\x` stands for a literal `x`; the
expander escapes quoted text with `escape()` so it matches literally. Patterns are
translated to Python regular expressions once and cached, since the same pattern is
usually matched many times in a loop, on the engine kernel.text.engine picks: Python's
`re` on texts short enough for the pattern's worst case (each `*` raises its degree:
`*a*a*a*…b` backtracks for longer than any time limit on a long text), RE2, linear in
the text, on longer ones.

Prefix, suffix and anchored-replace operations try each cut of the text in turn, as
bash does (quadratic at worst, never exponential), with the command's stop check
every so many tries. An extglob (`@(a|b)`, `!(x)`) can join the translation: the
matching and the cut loops only ask the compiled pattern for whole-string matches.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from tysh.kernel.base import stop

_POSIX_CLASSES = {
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "alnum": "a-zA-Z0-9",
    "upper": "A-Z",
    "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v",
    "blank": " \\t",
    "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
    "xdigit": "0-9A-Fa-f",
    "cntrl": "\\x00-\\x1f\\x7f",
    "print": "\\x20-\\x7e",
    "graph": "\\x21-\\x7e",
    "word": "\\w",
}

# Characters that carry meaning in a pattern; escape() puts a backslash before each.
_ESCAPE_TABLE = str.maketrans({c: "\\" + c for c in "\\*?[]"})
_MAGIC_CHARS = frozenset("*?[")


def escape(text: str) -> str:
    """Make `text` match only itself when used as a pattern."""
    return text.translate(_ESCAPE_TABLE)


def unescape(pattern: str) -> str:
    """The literal text a magic-free pattern stands for (`\\x` → `x`)."""
    if "\\" not in pattern:
        return pattern
    return re.sub(r"\\(.)", r"\1", pattern, flags=re.DOTALL)


def _bracket_end(pat: str, i: int) -> int:
    """Given `i` just after a `[`, the index just after its closing `]`, or -1 if unclosed."""
    n = len(pat)
    if i < n and pat[i] in "!^":
        i += 1
    if i < n and pat[i] == "]":
        i += 1
    while i < n:
        c = pat[i]
        if c == "]":
            return i + 1
        if c == "\\":
            i += 2
            continue
        if c == "[" and i + 1 < n and pat[i + 1] in ":=.":
            close = pat.find(pat[i + 1] + "]", i + 2)
            if close >= 0:
                i = close + 2
                continue
        i += 1
    return -1


def _class_char(c: str) -> str:
    return "\\" + c if c in "\\]^-[" else c


def _bracket(body: str) -> str:
    """Translate the inside of `[...]` to a regex character class."""
    negate = False
    if body and body[0] in "!^":
        negate = True
        body = body[1:]
    items: list[str] = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c == "[" and i + 1 < n and body[i + 1] == ":":
            close = body.find(":]", i + 2)
            if close >= 0:
                name = body[i + 2 : close]
                items.append(_POSIX_CLASSES.get(name, ""))
                i = close + 2
                continue
        if c == "\\" and i + 1 < n:
            c = body[i + 1]
            i += 1
        i += 1
        if i + 1 < n and body[i] == "-":
            hi = body[i + 1]
            j = i + 2
            if hi == "\\" and j < n:
                hi = body[j]
                j += 1
            if hi >= c:
                items.append(_class_char(c) + "-" + _class_char(hi))
            i = j
            continue
        items.append(_class_char(c))
    inner = "".join(items)
    if not inner:
        return "(?!)" if not negate else "."
    return "[" + ("^" if negate else "") + inner + "]"


@lru_cache(maxsize=1024)
def translate(pattern: str) -> str:
    """The regex source equivalent to a whole shell pattern (no anchors)."""
    out: list[str] = []
    lit: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        i += 1
        if c == "*":
            while i < n and pattern[i] == "*":
                i += 1
            special = ".*"
        elif c == "?":
            special = "."
        elif c == "\\":
            lit.append(pattern[i] if i < n else "\\")
            i += 1
            continue
        elif c == "[":
            end = _bracket_end(pattern, i)
            if end < 0:
                lit.append("[")
                continue
            special = _bracket(pattern[i : end - 1])
            i = end
        else:
            lit.append(c)
            continue
        if lit:
            out.append(re.escape("".join(lit)))
            lit.clear()
        out.append(special)
    if lit:
        out.append(re.escape("".join(lit)))
    return "".join(out)


@lru_cache(maxsize=1024)
def compile_pattern(pattern: str) -> Any:
    """The compiled regex for a pattern (re.Pattern's interface; see kernel.text.engine);
    use `.fullmatch` for whole-string matching."""
    from tysh.kernel.text import engine  # the engines load on the first pattern

    return engine.compile(translate(pattern), re.DOTALL)


CHECK_EVERY = 16  # cuts tried between two stop checks (each within the engine's budget)


def _cuts(rng: range) -> Any:
    """The cut positions of `rng`, with the stop check now and then."""
    for k, i in enumerate(rng):
        if k % CHECK_EVERY == CHECK_EVERY - 1:
            stop.check()
        yield i


@lru_cache(maxsize=1024)
def has_magic(pattern: str) -> bool:
    """True when the pattern contains a live `*`, `?` or a closed `[...]`."""
    if _MAGIC_CHARS.isdisjoint(pattern):
        return False
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c in "*?":
            return True
        if c == "[" and _bracket_end(pattern, i + 1) >= 0:
            return True
        i += 1
    return False


def match(pattern: str, text: str) -> bool:
    """Whole-string match of `text` against a shell pattern."""
    if not has_magic(pattern):
        return unescape(pattern) == text
    return compile_pattern(pattern).fullmatch(text) is not None


def remove_prefix(text: str, pattern: str, longest: bool) -> str:
    """`${x#p}` (shortest) and `${x##p}` (longest)."""
    if not has_magic(pattern):
        lit = unescape(pattern)
        return text[len(lit) :] if text.startswith(lit) else text
    fm = compile_pattern(pattern).fullmatch
    n = len(text)
    rng = range(n, -1, -1) if longest else range(n + 1)
    for i in _cuts(rng):
        if fm(text, 0, i):
            return text[i:]
    return text


def remove_suffix(text: str, pattern: str, longest: bool) -> str:
    """`${x%p}` (shortest) and `${x%%p}` (longest)."""
    if not has_magic(pattern):
        lit = unescape(pattern)
        return text[: len(text) - len(lit)] if lit and text.endswith(lit) else text
    fm = compile_pattern(pattern).fullmatch
    n = len(text)
    rng = range(n + 1) if longest else range(n, -1, -1)
    for i in _cuts(rng):
        if fm(text, i):
            return text[:i]
    return text


def _expand_replacement(repl: str | ReplaceTemplate, matched: str) -> str:
    if isinstance(repl, str):
        return repl
    return matched.join(repl.pieces)


class ReplaceTemplate:
    """A replacement with bash 5.2's `&` (the matched text) between its pieces."""

    __slots__ = ("pieces",)

    def __init__(self, pieces: list[str]) -> None:
        self.pieces = pieces


def replace(text: str, pattern: str, repl: str | ReplaceTemplate, mode: str) -> str:
    """`${x/p/r}` (mode "/"), `${x//p/r}` ("//"), `${x/#p/r}` ("/#"), `${x/%p/r}` ("/%").

    Each match is the longest at the leftmost position; empty matches are skipped
    except for the anchored forms, as in bash."""
    rx = compile_pattern(pattern)
    if mode == "/#":
        m = rx.match(text)
        if m is None:
            return text
        # Longest prefix: regex greediness already prefers it, but verify by scanning.
        for i in _cuts(range(len(text), -1, -1)):
            if rx.fullmatch(text, 0, i):
                return _expand_replacement(repl, text[:i]) + text[i:]
        return text
    if mode == "/%":
        for i in _cuts(range(len(text) + 1)):
            if rx.fullmatch(text, i):
                return text[:i] + _expand_replacement(repl, text[i:])
        return text
    if pattern == "":
        return text
    if not text:
        # bash substitutes an empty value that the pattern matches (`${x//*/X}` is X)
        return _expand_replacement(repl, "") if rx.fullmatch("") else ""
    out: list[str] = []
    pos = 0
    n = len(text)
    while pos <= n:
        m = rx.search(text, pos)
        if m is None:
            break
        start, end = m.span()
        if end == start:
            # Bash never substitutes an empty match of an unanchored pattern.
            if start >= n:
                break
            out.append(text[pos : start + 1])
            pos = start + 1
            continue
        out.append(text[pos:start])
        out.append(_expand_replacement(repl, text[start:end]))
        pos = end
        if mode == "/":
            break
    out.append(text[pos:])
    return "".join(out)


def convert_case(text: str, op: str, pattern: str | None) -> str:
    """`${x^^p}` `${x,,p}` `${x^p}` `${x,p}`: change case of characters matching `p`
    (every character when no pattern); `^`/`,` touch only the first character."""
    if not text:
        return text
    upper = op[0] == "^"
    if pattern is None or pattern == "" or pattern == "?":
        if len(op) == 2:
            return text.upper() if upper else text.lower()
        first = text[0].upper() if upper else text[0].lower()
        return first + text[1:]
    rx = compile_pattern(pattern)
    if len(op) == 1:
        c = text[0]
        if rx.fullmatch(c):
            c = c.upper() if upper else c.lower()
        return c + text[1:]
    return "".join((c.upper() if upper else c.lower()) if rx.fullmatch(c) else c for c in text)
