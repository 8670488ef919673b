"""Three regex engines behind one compiled-pattern interface, chosen per pattern.

The tools speak Python `re` syntax (kernel.text.regex translates POSIX to it). Python's
`re` backtracks and holds the interpreter lock: `(a|a)*b` or `\\d+x` on a long line
freezes every thread of the process, beyond any time limit. So `compile` parses the
pattern once with re's own parser and decides:

1. `re` itself, when the pattern is *backtrack-safe*: no repetition other than an exact
   count of a branch-free body, at most one alternation, and lookarounds and
   back-references only over such parts. Every match attempt is then bounded by the
   pattern's size, so a search is O(pattern x text) and Python's per-call speed (the
   fastest of the three on short lines) is kept for the common literal patterns.
2. RE2 (PyPI google-re2), linear in the text whatever the pattern, releasing the
   interpreter lock while it runs, for everything it can express: the pattern is
   re-emitted from re's parse tree with every construct spelled out (character
   classes as code-point ranges computed from Python's own Unicode tables, `.` with or
   without newline, case folding), so it matches exactly what `re` would.
3. The `regex` module (PyPI regex), a backtracker that also releases the lock, with
   its `timeout=` for what RE2 cannot do (back-references, lookaround, counts above
   1000). It runs in slices that grow geometrically (so the work lost to a restart is
   at most what was done before it); between slices the command's stop check runs
   (kernel.base.stop), so a time limit or `cancel()` ends a runaway match.

Every engine returns a pattern with `pattern`/`flags` (the Python source and flags),
`groups`, `groupindex`, and `search`/`match`/`fullmatch`/`finditer`/`findall`/`sub`/
`subn`/`split` with `re`'s signatures; matches have `group`/`groups`/`span`/`start`/
`end`/`expand`. One difference is documented: after an empty match, RE2's iteration
resumes one character later, where `re` would first try a non-empty match at the same
place (only lazy `-P` patterns such as `a*?` can tell).
"""

from __future__ import annotations

import array
import functools
import re
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from re import _constants as C  # type: ignore[attr-defined,unused-ignore]
from re import _parser  # type: ignore[attr-defined,unused-ignore]
from typing import Any, Literal

from tysh.kernel.base import stop

EngineName = Literal["re", "re2", "regex"]

MAXREPEAT = C.MAXREPEAT
RE2_MAX_REPEAT = 1000  # RE2 refuses larger counts
RE2_MAX_MEM = 64 << 20  # per compiled pattern; past it RE2 reports an error (-> regex)
FIRST_SLICE = 0.05  # seconds of the regex module's first try before a stop check


class Unsupported(Exception):
    """The emitter cannot express a construct for the target engine."""


# -- code-point sets ------------------------------------------------------------------

Ranges = list[tuple[int, int]]
UNICODE_MAX = 0x10FFFF
_ASCII_SETS: dict[Any, Ranges] = {
    C.CATEGORY_DIGIT: [(0x30, 0x39)],
    C.CATEGORY_SPACE: [(0x09, 0x0D), (0x20, 0x20)],
    C.CATEGORY_WORD: [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)],
}
_NEGATED = {
    C.CATEGORY_NOT_DIGIT: C.CATEGORY_DIGIT,
    C.CATEGORY_NOT_SPACE: C.CATEGORY_SPACE,
    C.CATEGORY_NOT_WORD: C.CATEGORY_WORD,
}
_UNI_SOURCE = {C.CATEGORY_DIGIT: r"\d+", C.CATEGORY_SPACE: r"\s+", C.CATEGORY_WORD: r"\w+"}
_uni_lock = threading.Lock()


@functools.cache
def _all_code_points() -> str:
    return array.array("I", range(UNICODE_MAX + 1)).tobytes().decode("utf-32-le", "surrogatepass")


def _unicode_set(cat: Any) -> Ranges:
    """What Python's `re` means by \\d, \\s or \\w on str, as ranges (computed once from
    the running Python's own tables, so no Unicode-version skew)."""
    with _uni_lock:
        return _unicode_set_cached(cat)


@functools.cache
def _unicode_set_cached(cat: Any) -> Ranges:
    return [(m.start(), m.end() - 1) for m in re.finditer(_UNI_SOURCE[cat], _all_code_points())]


def _normalize(r: Ranges) -> Ranges:
    out: Ranges = []
    for lo, hi in sorted(r):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


def _complement(r: Ranges, top: int) -> Ranges:
    out: Ranges = []
    nxt = 0
    for lo, hi in _normalize(r):
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= top:
        out.append((nxt, top))
    return out


# Python's `re` folds these four into one case class (its own special table), where
# RE2 and the regex module keep the dotted and dotless i apart.
_TURKISH_I = (0x49, 0x69, 0x130, 0x131)


def _contains(r: Ranges, c: int) -> bool:
    return any(lo <= c <= hi for lo, hi in r)


# -- the emitter ------------------------------------------------------------------------


class _Emitter:
    """Re-spell a parsed `re` pattern for RE2 or the regex module, construct by
    construct, with the meaning `re` gives it."""

    def __init__(self, target: Literal["re2", "regex"], is_bytes: bool, flags: int,
                 names: dict[int, str]) -> None:
        self.target = target
        self.is_bytes = is_bytes
        self.top = 0xFF if is_bytes else UNICODE_MAX
        self.names = names
        self.flags = flags

    # characters and sets
    def char(self, c: int) -> str:
        if self.target == "re2":
            return f"\\x{{{c:x}}}"
        if c <= 0xFF:
            return f"\\x{c:02x}"
        return f"\\u{c:04x}" if c <= 0xFFFF else f"\\U{c:08x}"

    def ascii_mode(self, flags: int) -> bool:
        return self.is_bytes or bool(flags & re.ASCII)

    def category(self, cat: Any, flags: int) -> Ranges:
        neg = cat in _NEGATED
        base = _NEGATED[cat] if neg else cat
        r = _ASCII_SETS[base] if self.ascii_mode(flags) else _unicode_set(base)
        return _complement(r, self.top) if neg else r

    def fold_ascii(self, r: Ranges) -> Ranges:
        """Add the other case of every ASCII letter in `r` (re's bytes/ASCII folding)."""
        extra: Ranges = []
        for lo, hi in r:
            for a, b, d in ((0x41, 0x5A, 32), (0x61, 0x7A, -32)):
                x, y = max(lo, a), min(hi, b)
                if x <= y:
                    extra.append((x + d, y + d))
        return _normalize(r + extra)

    def set_source(self, r: Ranges, negate: bool, flags: int) -> str:
        icase = bool(flags & re.IGNORECASE)
        if icase and self.ascii_mode(flags):
            r = self.fold_ascii(r)
            icase = False
        elif icase and any(_contains(r, c) for c in _TURKISH_I):
            r = _normalize(r + [(c, c) for c in _TURKISH_I])
        r = _normalize(r)
        if not r:
            body = f"{self.char(0)}-{self.char(self.top)}"
            negate = not negate
        else:
            body = "".join(self.char(lo) if lo == hi else f"{self.char(lo)}-{self.char(hi)}"
                           for lo, hi in r)
        s = f"[{'^' if negate else ''}{body}]"
        return f"(?i:{s})" if icase else s

    def in_set(self, items: list[tuple[Any, Any]], flags: int) -> str:
        negate = False
        r: Ranges = []
        for op, av in items:
            if op is C.NEGATE:
                negate = True
            elif op is C.LITERAL:
                r.append((av, av))
            elif op is C.RANGE:
                r.append((av[0], av[1]))
            elif op is C.CATEGORY:
                r.extend(self.category(av, flags))
            else:
                raise Unsupported(str(op))
        if negate and flags & re.IGNORECASE and not self.ascii_mode(flags) and not self.is_bytes:
            # re folds before it negates, as RE2 and regex do: keep the negation theirs
            return self.set_source(r, True, flags)
        return self.set_source(r, negate, flags)

    def word_class(self, flags: int, negate: bool = False) -> str:
        return self.set_source(self.category(C.CATEGORY_WORD, flags & ~re.IGNORECASE), negate,
                               0)

    # the tree
    def seq(self, items: Any, flags: int) -> str:
        return "".join(self.node(op, av, flags) for op, av in items)

    def node(self, op: Any, av: Any, flags: int) -> str:
        if op is C.LITERAL:
            if flags & re.IGNORECASE:
                return self.set_source([(av, av)], False, flags)
            return self.char(av)
        if op is C.NOT_LITERAL:
            return self.set_source([(av, av)], True, flags)
        if op is C.ANY:
            if flags & re.DOTALL:
                return self.set_source([(0, self.top)], False, 0)
            return self.set_source([(10, 10)], True, 0)
        if op is C.IN:
            return self.in_set(av, flags)
        if op is C.CATEGORY:
            return self.set_source(self.category(av, flags), False, 0)
        if op is C.BRANCH:
            return "(?:" + "|".join(self.seq(b, flags) for b in av[1]) + ")"
        if op is C.SUBPATTERN:
            gid, add, dele, p = av
            inner = self.seq(p, (flags | add) & ~dele)
            if gid is None:
                return "(?:" + inner + ")"
            name = self.names.get(gid)
            return f"(?P<{name}>{inner})" if name else f"({inner})"
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            lo, hi, p = av
            if self.target == "re2" and (lo > RE2_MAX_REPEAT or
                                         (hi is not MAXREPEAT and hi > RE2_MAX_REPEAT)):
                raise Unsupported("count")
            if op is C.POSSESSIVE_REPEAT and self.target == "re2":
                raise Unsupported("possessive")
            body = "(?:" + self.seq(p, flags) + ")"
            if hi is MAXREPEAT:
                q = "*" if lo == 0 else "+" if lo == 1 else f"{{{lo},}}"
            elif lo == hi:
                q = f"{{{lo}}}"
            else:
                q = "?" if (lo, hi) == (0, 1) else f"{{{lo},{hi}}}"
            suffix = "?" if op is C.MIN_REPEAT else "+" if op is C.POSSESSIVE_REPEAT else ""
            return body + q + suffix
        if op is C.AT:
            return self.at(av, flags)
        if op in (C.ASSERT, C.ASSERT_NOT):
            direction, p = av
            if op is C.ASSERT_NOT and not p:
                return self.set_source([], False, 0)  # `(?!)`: never matches
            if self.target == "re2":
                raise Unsupported("lookaround")
            kind = ("=" if op is C.ASSERT else "!")
            return f"(?{'<' if direction < 0 else ''}{kind}{self.seq(p, flags)})"
        if op is C.ATOMIC_GROUP and self.target == "regex":
            return "(?>" + self.seq(av, flags) + ")"
        if op is C.GROUPREF and self.target == "regex":
            return f"(?:\\g<{av}>)"
        raise Unsupported(str(op))

    def at(self, av: Any, flags: int) -> str:
        multi = bool(flags & re.MULTILINE)
        if av is C.AT_BEGINNING_STRING or (av is C.AT_BEGINNING and not multi):
            return "\\A"
        if av is C.AT_BEGINNING:
            return "(?m:^)"
        if av is C.AT_END_STRING:
            return "\\z" if self.target == "re2" else "\\Z"
        if av is C.AT_END:
            if multi:
                return "(?m:$)"
            if self.target == "re2":
                raise Unsupported("$ before a final newline")
            return "(?=\\n?\\Z)"
        if av in (C.AT_BOUNDARY, C.AT_NON_BOUNDARY):
            if self.target == "re2":
                # RE2's \\b looks at bytes: right on Latin-1 bytes, not inside UTF-8
                if self.is_bytes:
                    return "\\b" if av is C.AT_BOUNDARY else "\\B"
                raise Unsupported("word boundary in text")
            w = self.word_class(flags)
            if av is C.AT_BOUNDARY:
                return f"(?:(?<={w})(?!{w})|(?<!{w})(?={w}))"
            # re: \\B never matches in an empty text
            return f"(?:(?<={w})(?={w})|(?<!{w})(?!{w})(?!\\A\\Z))"
        raise Unsupported(str(av))


def _capture_in_nullable_loop(items: Any, in_loop: bool = False) -> bool:
    """True when a capture group sits in a repetition whose body can match empty: RE2
    then reports the last non-empty pass where `re` reports the empty one."""
    for op, av in items:
        if op is C.SUBPATTERN:
            if (av[0] is not None and in_loop) or _capture_in_nullable_loop(av[3], in_loop):
                return True
        elif op is C.BRANCH:
            if any(_capture_in_nullable_loop(b, in_loop) for b in av[1]):
                return True
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            lo, hi, p = av
            nullable = _parser.SubPattern(p.state, list(p)).getwidth()[0] == 0 if hasattr(
                p, "state") else True
            loop = in_loop or (nullable and (hi is MAXREPEAT or hi > 1))
            if _capture_in_nullable_loop(p, loop):
                return True
        elif op in (C.ASSERT, C.ASSERT_NOT):
            if _capture_in_nullable_loop(av[1], in_loop):
                return True
    return False


def _backtrack_safe(items: Any, state: list[int], in_repeat: bool = False) -> bool:
    """True when `re` needs no more than pattern-size steps per match attempt: no
    repetition other than an exact count of a branch-free body, one alternation at
    most. `state[0]` counts alternations."""
    for op, av in items:
        if op in (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN, C.AT, C.CATEGORY, C.GROUPREF):
            continue
        if op is C.SUBPATTERN:
            if not _backtrack_safe(av[3], state, in_repeat):
                return False
        elif op is C.BRANCH:
            state[0] += 1
            if state[0] > 1 or in_repeat:
                return False
            if not all(_backtrack_safe(b, state, in_repeat) for b in av[1]):
                return False
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT):
            lo, hi, p = av
            if lo != hi or not _backtrack_safe(p, state, True):
                return False
        elif op in (C.ASSERT, C.ASSERT_NOT):
            if not _backtrack_safe(av[1], state, in_repeat):
                return False
        else:
            return False
    return True


# -- RE2 ----------------------------------------------------------------------------------

_re2_mod: Any = None


def _re2() -> Any:
    global _re2_mod
    if _re2_mod is None:
        from re2 import _re2 as mod  # type: ignore[import-untyped,unused-ignore]
        _re2_mod = mod  # the binding itself: re2's wrapper re-encodes a str on every call
    return _re2_mod


_SPAN_NONE = (-1, -1)


class _Subject:
    """A str subject as UTF-8 (lone surrogates kept as code points, as `re` sees them)
    with byte<->character offset conversion; ASCII text needs none."""

    __slots__ = ("data", "ascii", "_cpos", "_bpos")

    def __init__(self, text: str) -> None:
        self.ascii = text.isascii()
        self.data = text.encode("ascii" if self.ascii else "utf-8",
                                "strict" if self.ascii else "surrogatepass")
        self._cpos = 0
        self._bpos = 0

    def to_bytes(self, c: int) -> int:
        if self.ascii:
            return c
        if c < self._cpos:
            self._cpos = self._bpos = 0
        b = self._bpos + _re2().CharLenToBytes(self.data, self._bpos, c - self._cpos)
        self._cpos, self._bpos = c, b
        return int(b)

    def to_chars(self, b: int) -> int:
        if self.ascii:
            return b
        if b < self._bpos:
            self._cpos = self._bpos = 0
        c = self._cpos + _re2().BytesToCharLen(self.data, self._bpos, b)
        self._cpos, self._bpos = c, b
        return int(c)


class Re2Match:
    """A match of an Re2Pattern, with the `re.Match` methods the tools use."""

    __slots__ = ("re", "string", "pos", "endpos", "_spans")

    def __init__(self, pattern: Re2Pattern, string: Any, pos: int, endpos: int,
                 spans: list[tuple[int, int]]) -> None:
        self.re = pattern
        self.string = string
        self.pos = pos
        self.endpos = endpos
        self._spans = spans

    def _index(self, g: int | str) -> int:
        if isinstance(g, str):
            try:
                return self.re.groupindex[g]
            except KeyError:
                raise IndexError("no such group") from None
        if not 0 <= g < len(self._spans):
            raise IndexError("no such group")
        return g

    def span(self, g: int | str = 0) -> tuple[int, int]:
        return self._spans[self._index(g)]

    def start(self, g: int | str = 0) -> int:
        return self._spans[self._index(g)][0]

    def end(self, g: int | str = 0) -> int:
        return self._spans[self._index(g)][1]

    def group(self, *gs: int | str) -> Any:
        if len(gs) > 1:
            return tuple(self[g] for g in gs)
        return self[gs[0] if gs else 0]

    def __getitem__(self, g: int | str) -> Any:
        s, e = self._spans[self._index(g)]
        return None if s < 0 else self.string[s:e]

    def groups(self, default: Any = None) -> tuple[Any, ...]:
        return tuple(default if (v := self[i]) is None else v for i in range(1, len(self._spans)))

    def groupdict(self, default: Any = None) -> dict[str, Any]:
        return {k: (default if (v := self[i]) is None else v)
                for k, i in self.re.groupindex.items()}

    @property
    def lastindex(self) -> int | None:
        best, end = None, -1
        for i in range(1, len(self._spans)):
            e = self._spans[i][1]
            if e > end:
                best, end = i, e
        return best

    def expand(self, template: Any) -> Any:
        return _expand(_template(self.re, template), self)

    def __repr__(self) -> str:
        return f"<Re2Match span={self.span()!r} match={self.group()!r}>"


_OCT = "01234567"


def _template(p: Any, template: Any) -> list[Any]:
    return _parse_template(template, p.groups, tuple(sorted(p.groupindex.items())))


@functools.lru_cache(maxsize=256)
def _parse_template(template: Any, groups: int,
                    groupindex: tuple[tuple[str, int], ...]) -> list[Any]:
    """A `re` replacement template as a list of literal pieces (str/bytes) and group
    numbers (int), with re's escapes and errors."""
    is_bytes = isinstance(template, bytes)
    s = template.decode("latin-1") if is_bytes else template
    names = dict(groupindex)
    pieces: list[Any] = []
    lit: list[str] = []
    i, n = 0, len(s)

    def ref(g: int) -> None:
        if g > groups:
            raise re.error(f"invalid group reference {g}", s, i)
        if lit:
            pieces.append("".join(lit))
            lit.clear()
        pieces.append(g)

    while i < n:
        c = s[i]
        i += 1
        if c != "\\":
            lit.append(c)
            continue
        if i >= n:
            raise re.error("bad escape (end of pattern)", s, i - 1)
        c = s[i]
        i += 1
        if c == "g":
            if i >= n or s[i] != "<":
                raise re.error("missing <", s, i)
            end = s.find(">", i)
            if end < 0:
                raise re.error("missing >, unterminated name", s, i)
            name = s[i + 1 : end]
            i = end + 1
            if name.isdigit():
                ref(int(name))
            elif name in names:
                ref(names[name])
            else:
                raise IndexError(f"unknown group name '{name}'")
        elif c in "0123456789":
            # re's rule: three octal digits (or `\\0` and up to two more) are a
            # character, otherwise one or two digits are a group
            j = i - 1
            if c == "0" or (j + 2 < n and s[j + 1] in _OCT and s[j + 2] in _OCT and c in _OCT):
                k = j + 1
                while k < n and k < j + 3 and s[k] in _OCT:
                    k += 1
                v = int(s[j:k], 8)
                if v > 0o377:
                    raise re.error(f"octal escape value \\{s[j:k]} outside of range 0-0o377",
                                   s, j - 1)
                lit.append(chr(v))
                i = k
            else:
                k = j + 1
                if k < n and s[k].isdigit():
                    k += 1
                ref(int(s[j:k]))
                i = k
        elif c in "abfnrtv":
            lit.append({"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
                        "v": "\v"}[c])
        elif c == "\\":
            lit.append("\\")
        elif c.isascii() and c.isalpha():
            raise re.error(f"bad escape \\{c}", s, i - 2)
        else:
            lit.append("\\" + c)
    if lit:
        pieces.append("".join(lit))
    if is_bytes:
        return [p.encode("latin-1") if isinstance(p, str) else p for p in pieces]
    return pieces


def _expand(pieces: list[Any], m: Any) -> Any:
    empty = m.string[:0]
    if len(pieces) == 1 and not isinstance(pieces[0], int):
        return pieces[0]
    return empty.join(p if not isinstance(p, int) else (m[p] or empty) for p in pieces)


class Re2Pattern:
    """A pattern run by RE2, with `re.Pattern`'s interface."""

    engine: EngineName = "re2"

    def __init__(self, source: Any, flags: int, compiled: re.Pattern[Any], emitted: str,
                 prog: Any) -> None:
        self.pattern = source
        self.flags = flags
        self.groups = compiled.groups
        self.groupindex = dict(compiled.groupindex)
        self.emitted = emitted
        self._prog = prog
        self._compiled = compiled
        self._longest: Any = None
        self._advance: Any = None
        self._is_bytes = isinstance(source, bytes)
        mod = _re2()
        self._unanchored = mod.RE2.Anchor.UNANCHORED
        self._start = mod.RE2.Anchor.ANCHOR_START
        self._both = mod.RE2.Anchor.ANCHOR_BOTH

    def __repr__(self) -> str:
        return f"Re2Pattern({self.pattern!r})"

    # the one primitive: a match of `anchor` kind in string[pos:endpos]
    def _spans(self, anchor: Any, string: Any, pos: int, endpos: int,
               subj: _Subject | None) -> list[tuple[int, int]] | None:
        return self._spans_of(self._prog, anchor, string, pos, endpos, subj)

    @staticmethod
    def _spans_of(prog: Any, anchor: Any, string: Any, pos: int, endpos: int,
                  subj: _Subject | None) -> list[tuple[int, int]] | None:
        if subj is None:
            data: Any = string
            bpos, bend = pos, endpos
        else:
            data = subj.data
            bpos = subj.to_bytes(pos)
            bend = len(data) if endpos >= len(string) else subj.to_bytes(endpos)
        if bend < len(data):
            # re treats endpos as the end of the text (`$` matches there); RE2 does not
            data = memoryview(data)[:bend]
        spans = prog.Match(anchor, data, bpos, bend)
        if spans[0][0] < 0:
            return None
        if subj is None or subj.ascii:
            return spans  # type: ignore[no-any-return]
        # convert in ascending order: the cursor then only moves forward
        chars = {b: subj.to_chars(b) for b in sorted({x for sp in spans for x in sp if x >= 0})}
        return [_SPAN_NONE if s < 0 else (chars[s], chars[e]) for s, e in spans]

    def _empty(self, anchor: Any, string: Any) -> Re2Match | None:
        m = (self._compiled.search if anchor is self._unanchored else
             self._compiled.match if anchor is self._start else self._compiled.fullmatch)(
                 string, 0, 0)
        if m is None:
            return None
        return Re2Match(self, string, 0, 0, [m.span(i) for i in range(self.groups + 1)])

    def _subject(self, string: Any) -> _Subject | None:
        if self._is_bytes:
            if isinstance(string, str):
                raise TypeError("cannot use a bytes pattern on a string-like object")
            return None
        if not isinstance(string, str):
            raise TypeError("cannot use a string pattern on a bytes-like object")
        return _Subject(string)

    def _one(self, anchor: Any, string: Any, pos: int, endpos: int | None) -> Re2Match | None:
        n = len(string)
        end = n if endpos is None else max(0, min(endpos, n))
        pos = max(0, min(pos, n))
        if pos > end:
            return None
        if end == 0:  # nothing to scan: re itself, whose \\B fails on an empty text
            return self._empty(anchor, string)
        spans = self._spans(anchor, string, pos, end, self._subject(string))
        return None if spans is None else Re2Match(self, string, pos, end, spans)

    def search(self, string: Any, pos: int = 0, endpos: int | None = None) -> Re2Match | None:
        return self._one(self._unanchored, string, pos, endpos)

    def match(self, string: Any, pos: int = 0, endpos: int | None = None) -> Re2Match | None:
        return self._one(self._start, string, pos, endpos)

    def fullmatch(self, string: Any, pos: int = 0, endpos: int | None = None) -> Re2Match | None:
        return self._one(self._both, string, pos, endpos)

    def finditer(self, string: Any, pos: int = 0, endpos: int | None = None) -> Iterator[Re2Match]:
        n = len(string)
        end = n if endpos is None else max(0, min(endpos, n))
        pos = max(0, min(pos, n))
        subj = self._subject(string)
        if end == 0:
            m = self._empty(self._unanchored, string)
            if m is not None:
                yield m
            return
        while pos <= end:
            spans = self._spans(self._unanchored, string, pos, end, subj)
            if spans is None:
                return
            yield Re2Match(self, string, pos, end, spans)
            s, e = spans[0]
            if e != s:
                pos = e  # an empty match right where a non-empty one ended is allowed
                continue
            if e >= end:
                return
            # re's rule: after an empty match, a non-empty one may start at the same place
            m = self._nonempty_at(string, e, end, subj)
            if m is None:
                pos = e + 1
                continue
            yield m
            pos = m.end()

    def _nonempty_at(self, string: Any, at: int, end: int,
                     subj: _Subject | None) -> Any:
        """The match `re` would find at `at` once an empty one is ruled out there, or
        None. RE2's longest match says whether one exists; only then does the regex
        module pick the one re's backtracking order prefers."""
        if self._longest is None:
            self._longest = _re2_compile(self.emitted, self._is_bytes, longest=True)
        spans = self._spans_of(self._longest, self._start, string, at, end, subj)
        if spans is None or spans[0][1] == at:
            return None
        if self._advance is None:
            import regex  # type: ignore[import-untyped,unused-ignore]

            src = _emit(_parser.parse(self.pattern, self.flags), self._compiled, "regex",
                        self._is_bytes) + "(?!\\G)"
            self._advance = regex.compile(src.encode("latin-1") if self._is_bytes else src,
                                          regex.VERSION0)
        prog = self._advance
        m = _sliced(lambda t: prog.match(string, at, end, timeout=t))
        if m is None:
            return None
        return Re2Match(self, string, at, end, [m.span(i) for i in range(self.groups + 1)])

    def findall(self, string: Any, pos: int = 0, endpos: int | None = None) -> list[Any]:
        out: list[Any] = []
        for m in self.finditer(string, pos, endpos):
            if self.groups == 0:
                out.append(m.group())
            elif self.groups == 1:
                out.append(m.groups(string[:0])[0])
            else:
                out.append(m.groups(string[:0]))
        return out

    def subn(self, repl: Any, string: Any, count: int = 0) -> tuple[Any, int]:
        if callable(repl):
            fn: Callable[[Any], Any] = repl
        else:
            pieces = _template(self, repl)
            if len(pieces) == 1 and not isinstance(pieces[0], int):
                lit = pieces[0]
                fn = lambda m: lit  # noqa: E731
            elif not pieces:
                empty = string[:0]
                fn = lambda m: empty  # noqa: E731
            else:
                fn = functools.partial(_expand, pieces)
        out: list[Any] = []
        last = 0
        n = 0
        for m in self.finditer(string):
            s, e = m.span()
            out.append(string[last:s])
            out.append(fn(m))
            last = e
            n += 1
            if count and n >= count:
                break
        if not n:
            return string, 0
        out.append(string[last:])
        return string[:0].join(out), n

    def sub(self, repl: Any, string: Any, count: int = 0) -> Any:
        return self.subn(repl, string, count)[0]

    def split(self, string: Any, maxsplit: int = 0) -> list[Any]:
        out: list[Any] = []
        last = 0
        n = 0
        for m in self.finditer(string):
            s, e = m.span()
            out.append(string[last:s])
            out.extend(m[i] for i in range(1, self.groups + 1))
            last = e
            n += 1
            if maxsplit and n >= maxsplit:
                break
        out.append(string[last:])
        return out


# -- the regex module -------------------------------------------------------------------


def _sliced(call: Callable[[float], Any]) -> Any:
    """Run `call(timeout)` in growing slices, with the command's stop check between
    them: a runaway backtrack ends at the time limit or at `cancel()`."""
    budget = FIRST_SLICE
    spent = 0.0
    while True:
        t0 = time.monotonic()
        try:
            return call(budget)
        except TimeoutError:
            spent += time.monotonic() - t0
            stop.check()
            budget = max(budget, spent)


class RegexPattern:
    """A pattern run by the regex module, in stop-checked slices."""

    engine: EngineName = "regex"

    def __init__(self, source: Any, flags: int, compiled: re.Pattern[Any], emitted: Any,
                 prog: Any) -> None:
        self.pattern = source
        self.flags = flags
        self.groups = compiled.groups
        self.groupindex = dict(compiled.groupindex)
        self.emitted = emitted
        self._prog = prog

    def __repr__(self) -> str:
        return f"RegexPattern({self.pattern!r})"

    def _end(self, string: Any, endpos: int | None) -> int:
        return len(string) if endpos is None else endpos

    def search(self, string: Any, pos: int = 0, endpos: int | None = None) -> Any:
        e = self._end(string, endpos)
        return _sliced(lambda t: self._prog.search(string, pos, e, timeout=t))

    def match(self, string: Any, pos: int = 0, endpos: int | None = None) -> Any:
        e = self._end(string, endpos)
        return _sliced(lambda t: self._prog.match(string, pos, e, timeout=t))

    def fullmatch(self, string: Any, pos: int = 0, endpos: int | None = None) -> Any:
        e = self._end(string, endpos)
        return _sliced(lambda t: self._prog.fullmatch(string, pos, e, timeout=t))

    def finditer(self, string: Any, pos: int = 0, endpos: int | None = None) -> Iterator[Any]:
        e = self._end(string, endpos)
        return iter(_sliced(lambda t: list(self._prog.finditer(string, pos, e, timeout=t))))

    def findall(self, string: Any, pos: int = 0, endpos: int | None = None) -> list[Any]:
        e = self._end(string, endpos)
        return _sliced(lambda t: self._prog.findall(string, pos, e, timeout=t))  # type: ignore[no-any-return]

    def subn(self, repl: Any, string: Any, count: int = 0) -> tuple[Any, int]:
        if not callable(repl):
            pieces = _template(self, repl)
            repl = functools.partial(_expand, pieces)
        return _sliced(lambda t: self._prog.subn(repl, string, count, timeout=t))  # type: ignore[no-any-return]

    def sub(self, repl: Any, string: Any, count: int = 0) -> Any:
        return self.subn(repl, string, count)[0]

    def split(self, string: Any, maxsplit: int = 0) -> list[Any]:
        return _sliced(lambda t: self._prog.split(string, maxsplit, timeout=t))  # type: ignore[no-any-return]


# -- choosing ---------------------------------------------------------------------------

Pattern = Any  # re.Pattern, Re2Pattern or RegexPattern: the same methods


def engine_of(p: Any) -> EngineName:
    """Which engine runs a compiled pattern."""
    name: EngineName = getattr(p, "engine", "re")
    return name


def _emit(tree: Any, compiled: re.Pattern[Any], target: Literal["re2", "regex"],
          is_bytes: bool) -> str:
    names = {i: n for n, i in compiled.groupindex.items()}
    flags = tree.state.flags
    return _Emitter(target, is_bytes, flags, names).seq(tree, flags)


def _re2_compile(emitted: str, is_bytes: bool, longest: bool = False) -> Any:
    mod = _re2()
    opts = mod.RE2.Options()
    opts.log_errors = False
    opts.longest_match = longest
    opts.max_mem = RE2_MAX_MEM
    if is_bytes:
        opts.encoding = mod.RE2.Options.Encoding.LATIN1
        data = emitted.encode("latin-1")
    else:
        data = emitted.encode("utf-8")
    prog = mod.RE2(data, opts)
    return prog if prog.ok() else None


def compile(source: str | bytes, flags: int = 0, *,  # noqa: A001 - re's name
            engine: EngineName | None = None) -> Pattern:
    """Compile a Python-syntax pattern on the engine that can neither freeze the process
    nor change its meaning (see the module doc). Raises re.error for a bad pattern, and
    OverflowError/RecursionError as `re.compile` does. `engine` forces one (tests)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = re.compile(source, flags)
        if engine == "re":
            return compiled
        tree = _parser.parse(source, flags)
    if engine is None and _backtrack_safe(tree, [0]):
        return compiled
    is_bytes = isinstance(source, bytes)
    if engine == "re2" or engine is None and not _capture_in_nullable_loop(tree):
        try:
            emitted = _emit(tree, compiled, "re2", is_bytes)
        except Unsupported:
            emitted = None
        if emitted is not None:
            prog = _re2_compile(emitted, is_bytes)
            if prog is not None:
                return Re2Pattern(source, flags, compiled, emitted, prog)
        if engine == "re2":
            raise Unsupported("RE2 cannot run this pattern")
    import regex  # type: ignore[import-untyped,unused-ignore]

    try:
        emitted = _emit(tree, compiled, "regex", is_bytes)
        prog = regex.compile(emitted.encode("latin-1") if is_bytes else emitted,
                             regex.VERSION0)
    except (Unsupported, regex.error):  # not expected: re's tree has only what regex knows
        return compiled
    return RegexPattern(source, flags, compiled, emitted, prog)
