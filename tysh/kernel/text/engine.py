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

import _thread
import array
import functools
import re
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from re import _constants as C  # type: ignore[attr-defined,unused-ignore]
from re import _parser  # type: ignore[attr-defined,unused-ignore]

from tysh.kernel.base import stop
from tysh.kernel.base.hints import Any
from tysh.kernel.text import cost

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    EngineName = Literal["re", "bounded", "re2", "regex"]

MAXREPEAT = C.MAXREPEAT
RE2_MAX_REPEAT = 1000  # RE2 refuses larger counts
RE2_MAX_MEM = 64 << 20  # per compiled pattern; past it RE2 reports an error (-> regex)
FIRST_SLICE = 0.05  # seconds of the regex module's first try before a stop check
BUDGET_NS = 25e6  # the worst case one call of `re` may have (kernel.text.cost's model)
MIN_LIMIT = 64  # a pattern re may run on shorter subjects only is left to the others
MIN_WINDOW = 256  # a block is cut into windows of whole lines at least this long
CHUNK_LIMITS = 4  # lines of this many limits' worth of text between two stop checks


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
# the lock threading.Lock makes, without loading threading for one lock
_uni_lock = _thread.allocate_lock()


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
        if op is C.GROUPREF_EXISTS and self.target == "regex":
            gid, yes, no = av
            other = "|" + self.seq(no, flags) if no else ""
            return f"(?({gid}){self.seq(yes, flags)}{other})"
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

    def __init__(self, ascii: bool, data: bytes) -> None:
        self.ascii = ascii
        self.data = data
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
        self._last: tuple[Any, bool, bytes] = (None, True, b"")
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
        # a tool searches one block many times over: encode it once
        last = self._last
        if last[0] is not string:
            ascii = string.isascii()
            data = string.encode("ascii" if ascii else "utf-8",
                                 "strict" if ascii else "surrogatepass")
            last = self._last = (string, ascii, data)
        return _Subject(last[1], last[2])

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
        m = _sliced(prog.match, string, at, end)
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


def _sliced(call: Callable[..., Any], *args: Any) -> Any:
    """`call(*args, timeout=…, concurrent=…)` of the regex module in growing slices,
    with the command's stop check between them: a runaway backtrack ends at the time
    limit or at `cancel()`. The first slice is short and keeps the interpreter lock (the
    module is fastest so); a call that needs more runs the later, longer slices with
    the lock released, so no slice freezes the other threads."""
    budget = FIRST_SLICE
    spent = 0.0
    concurrent = False
    while True:
        t0 = time.monotonic()
        try:
            return call(*args, timeout=budget, concurrent=concurrent)
        except TimeoutError:
            spent += time.monotonic() - t0
            stop.check()
            budget = max(budget, spent)
            concurrent = True


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
        return _sliced(self._prog.search, string, pos, e)

    def match(self, string: Any, pos: int = 0, endpos: int | None = None) -> Any:
        e = self._end(string, endpos)
        return _sliced(self._prog.match, string, pos, e)

    def fullmatch(self, string: Any, pos: int = 0, endpos: int | None = None) -> Any:
        e = self._end(string, endpos)
        return _sliced(self._prog.fullmatch, string, pos, e)

    def finditer(self, string: Any, pos: int = 0, endpos: int | None = None) -> Iterator[Any]:
        e = self._end(string, endpos)
        return iter(_sliced(self._finditer_list, string, pos, e))

    def _finditer_list(self, string: Any, pos: int, endpos: int, **kw: Any) -> list[Any]:
        return list(self._prog.finditer(string, pos, endpos, **kw))

    def findall(self, string: Any, pos: int = 0, endpos: int | None = None) -> list[Any]:
        e = self._end(string, endpos)
        return _sliced(self._prog.findall, string, pos, e)  # type: ignore[no-any-return]

    def subn(self, repl: Any, string: Any, count: int = 0) -> tuple[Any, int]:
        if not callable(repl):
            pieces = _template(self, repl)
            repl = functools.partial(_expand, pieces)
        return _sliced(self._prog.subn, repl, string, count)  # type: ignore[no-any-return]

    def sub(self, repl: Any, string: Any, count: int = 0) -> Any:
        return self.subn(repl, string, count)[0]

    def split(self, string: Any, maxsplit: int = 0) -> list[Any]:
        return _sliced(self._prog.split, string, maxsplit)  # type: ignore[no-any-return]


# -- re within its bounds ------------------------------------------------------------

_END = sys.maxsize


class BoundedPattern:
    """`re` on subjects short enough for its worst case to fit BUDGET_NS (the limits
    come from kernel.text.cost), RE2 or the regex module on longer ones: the check is
    one length comparison per call. A pattern that cannot match a newline runs on `re`
    over a long block too, window by window of whole lines (a match cannot span two),
    and only a line longer than the limit goes to the other engine."""

    engine: EngineName = "bounded"
    __slots__ = ("pattern", "flags", "groups", "groupindex", "cost", "limit", "match_limit",
                 "full_limit", "_re", "_tree", "_fb", "_nl", "_windowed", "search", "match",
                 "fullmatch", "_search", "_match", "_fullmatch", "_finditer", "_findall",
                 "_sub", "_subn", "_split", "_spent")

    def __init__(self, compiled: re.Pattern[Any], tree: Any, c: cost.Cost,
                 limits: tuple[int, int, int], min_window: int = MIN_WINDOW) -> None:
        self.pattern = compiled.pattern
        self.flags = compiled.flags
        self.groups = compiled.groups
        self.groupindex = dict(compiled.groupindex)
        self.cost = c
        self.limit, self.match_limit, self.full_limit = limits
        self._re = compiled
        self._tree = tree
        self._fb: Any = None
        self._nl: Any = b"\n" if isinstance(compiled.pattern, bytes) else "\n"
        self._windowed = c.window_safe and not c.nullable and self.limit >= min_window
        self._search = compiled.search
        self._match = compiled.match
        self._fullmatch = compiled.fullmatch
        self._finditer = compiled.finditer
        self._findall = compiled.findall
        self._sub = compiled.sub
        self._subn = compiled.subn
        self._split = compiled.split
        # characters searched on `re` since the last stop check: each call fits the
        # budget alone, and a check once they pass the limit keeps the sum of many
        # calls (a line at a time) within one budget of the time limit too
        self._spent = 0
        # a pattern re may run on any length needs no check at all
        self.search = compiled.search if self.limit >= cost.UNLIMITED else self._bounded_search
        self.match = compiled.match if self.match_limit >= cost.UNLIMITED else \
            self._bounded_match
        self.fullmatch = compiled.fullmatch if self.full_limit >= cost.UNLIMITED else \
            self._bounded_fullmatch

    def __repr__(self) -> str:
        return f"BoundedPattern({self.pattern!r}, limit={self.limit})"

    def fallback(self) -> Pattern:
        """The engine for subjects past the limit (compiled on first need)."""
        fb = self._fb
        if fb is None:
            fb = self._fb = _fallback(self.pattern, self.flags, self._re, self._tree)
        return fb

    @staticmethod
    def _range(string: Any, pos: int, endpos: int | None) -> tuple[int, int]:
        n = len(string)
        end = n if endpos is None or endpos > n else max(endpos, 0)
        return min(max(pos, 0), n), end

    def _windows(self, string: Any, pos: int, end: int) -> Iterator[tuple[int, int, bool]]:
        """[w, e) ranges of whole lines covering [pos, end), each at most `limit` long
        or a single longer line (False: not for re)."""
        nl, size, w = self._nl, self.limit, pos
        while w < end:
            if end - w <= size:
                yield w, end, True
                return
            cut = string.rfind(nl, w, w + size)
            if cut >= 0:
                yield w, cut + 1, True
                w = cut + 1
            else:
                nxt = string.find(nl, w + size, end)
                e = end if nxt < 0 else nxt + 1
                yield w, e, False
                w = e
            stop.check()  # each window costs at most the budget: many may not

    # -- the re.Pattern interface --------------------------------------------------------
    def _bounded_search(self, string: Any, pos: int = 0, endpos: int = _END) -> Any:
        # endpos - pos is never less than the span re looks at
        n = len(string)
        if n <= self.limit or endpos - pos <= self.limit:
            spent = self._spent + min(n, endpos - pos)
            if spent > self.limit:
                spent = 0
                stop.check()
            self._spent = spent
            return self._search(string, pos, endpos)
        pos, end = self._range(string, pos, endpos)
        if not self._windowed:
            return self.fallback().search(string, pos, end)
        # the windows inline: a tool searching a block match by match mostly finds its
        # match in the first
        nl, size, search = self._nl, self.limit, self._search
        while pos < end:
            if end - pos <= size:
                return search(string, pos, end)
            cut = string.rfind(nl, pos, pos + size)
            if cut >= 0:
                m = search(string, pos, cut + 1)
                pos = cut + 1
            else:
                nxt = string.find(nl, pos + size, end)
                e = end if nxt < 0 else nxt + 1
                m = self.fallback().search(string, pos, e)
                pos = e
            if m is not None:
                return m
            stop.check()  # each window costs at most the budget: many may not
        return None

    def _bounded_match(self, string: Any, pos: int = 0, endpos: int = _END) -> Any:
        n = len(string)
        if n <= self.match_limit or endpos - pos <= self.match_limit:
            spent = self._spent + min(n, endpos - pos)
            if spent > self.match_limit:
                spent = 0
                stop.check()
            self._spent = spent
            return self._match(string, pos, endpos)
        pos, end = self._range(string, pos, endpos)
        return self.fallback().match(string, pos, end)

    def _bounded_fullmatch(self, string: Any, pos: int = 0, endpos: int = _END) -> Any:
        n = len(string)
        if n <= self.full_limit or endpos - pos <= self.full_limit:
            spent = self._spent + min(n, endpos - pos)
            if spent > self.full_limit:
                spent = 0
                stop.check()
            self._spent = spent
            return self._fullmatch(string, pos, endpos)
        pos, end = self._range(string, pos, endpos)
        return self.fallback().fullmatch(string, pos, end)

    def finditer(self, string: Any, pos: int = 0, endpos: int = _END) -> Iterator[Any]:
        if len(string) <= self.limit or endpos - pos <= self.limit:
            return self._finditer(string, pos, endpos)
        pos, end = self._range(string, pos, endpos)
        if not self._windowed:
            return self.fallback().finditer(string, pos, end)  # type: ignore[no-any-return]
        return self._finditer_windows(string, pos, end)

    def _finditer_windows(self, string: Any, pos: int, end: int) -> Iterator[Any]:
        for w, e, short in self._windows(string, pos, end):
            yield from (self._finditer if short else self.fallback().finditer)(string, w, e)

    def findall(self, string: Any, pos: int = 0, endpos: int = _END) -> list[Any]:
        if len(string) <= self.limit or endpos - pos <= self.limit:
            return self._findall(string, pos, endpos)
        pos, end = self._range(string, pos, endpos)
        if not self._windowed:
            return self.fallback().findall(string, pos, end)  # type: ignore[no-any-return]
        out: list[Any] = []
        nl, size, findall = self._nl, self.limit, self._findall
        while pos < end:
            if end - pos <= size:
                out += findall(string, pos, end)
                break
            cut = string.rfind(nl, pos, pos + size)
            if cut >= 0:
                out += findall(string, pos, cut + 1)
                pos = cut + 1
            else:
                nxt = string.find(nl, pos + size, end)
                e = end if nxt < 0 else nxt + 1
                out += self.fallback().findall(string, pos, e)
                pos = e
            stop.check()
        return out

    def subn(self, repl: Any, string: Any, count: int = 0) -> tuple[Any, int]:
        if len(string) <= self.limit:
            return self._subn(repl, string, count)
        if not self._windowed:
            return self.fallback().subn(repl, string, count)  # type: ignore[no-any-return]
        # each window on its own copy: the text before it is a newline, which nothing
        # in the pattern can match, so a window's start looks like the text's start
        out: list[Any] = []
        total = 0
        for w, e, short in self._windows(string, 0, len(string)):
            piece = string[w:e]
            left = count - total if count else 0
            got, k = (self._subn if short else self.fallback().subn)(repl, piece, left)
            out.append(got)
            total += k
            if count and total >= count:
                out.append(string[e:])
                break
        return string[:0].join(out), total

    def sub(self, repl: Any, string: Any, count: int = 0) -> Any:
        if len(string) <= self.limit:
            return self._sub(repl, string, count)
        return self.subn(repl, string, count)[0]

    def split(self, string: Any, maxsplit: int = 0) -> list[Any]:
        if len(string) <= self.limit:
            return self._split(string, maxsplit)
        return self.fallback().split(string, maxsplit)  # type: ignore[no-any-return]


# -- choosing ---------------------------------------------------------------------------

Pattern = Any  # re.Pattern, Re2Pattern or RegexPattern: the same methods


def engine_of(p: Any) -> EngineName:
    """Which engine runs a compiled pattern."""
    name: EngineName = getattr(p, "engine", "re")
    return name


def windows(p: Pattern, text: Any, pos: int = 0,
            end: int | None = None) -> Iterator[tuple[int, int, Pattern]]:
    """Ranges [w, e) covering text[pos:end] in order, each with the pattern to search it
    with, for a tool that searches a block match by match: a pattern that cannot match
    a newline gets windows of whole lines on `re` itself (no per-call check), and each
    line longer than its limit a range of its own on the other engine. Any other
    pattern gets one range. A search of each range in turn finds what one search of
    the whole would, as long as `p` cannot match the empty string."""
    end = len(text) if end is None else end
    if not isinstance(p, BoundedPattern):
        yield pos, end, p
        return
    if end - pos <= p.limit:
        yield pos, end, p._re
        return
    if not p._windowed:
        yield pos, end, p.fallback()
        return
    nl, size, raw = p._nl, p.limit, p._re
    while True:
        if end - pos <= size:
            yield pos, end, raw
            return
        cut = text.rfind(nl, pos, pos + size)
        if cut >= 0:
            yield pos, cut + 1, raw
            pos = cut + 1
        else:
            nxt = text.find(nl, pos + size, end)
            e = end if nxt < 0 else nxt + 1
            yield pos, e, p.fallback()
            if e >= end:
                return
            pos = e
        stop.check()


def line_chunks(p: Pattern, text: Any) -> Iterator[tuple[Any, Pattern]]:
    """`text` (whole lines) in consecutive pieces of whole lines, each with the pattern
    to run on its lines one by one (as `for_lines` picks it), the command's stop check
    running between pieces. Each line costs `re` at most BUDGET_NS, and a short line
    proportionally less than a long one, so a piece of CHUNK_LIMITS times the pattern's
    limit in characters costs at most that many budgets: a tool filtering a large block
    line by line stops on time. A pattern with no limit gets the text in one piece."""
    if not isinstance(p, BoundedPattern):
        yield text, p
        return
    size = min(p.limit, p.match_limit, p.full_limit)
    n = len(text)
    if n <= size:
        yield text, p._re
        return
    span = size * CHUNK_LIMITS
    nl, pos = p._nl, 0
    while pos < n:
        end = n
        if n - pos > span:
            cut = text.rfind(nl, pos, pos + span)
            if cut < 0:
                cut = text.find(nl, pos + span)
            if cut >= 0:
                end = cut + 1
        piece = text[pos:end] if pos or end < n else text
        yield piece, for_lines(p, piece)
        pos = end
        if pos < n:
            stop.check()


def for_lines(p: Pattern, text: Any) -> Pattern:
    """The pattern to run on each line of `text` on its own: `re` itself when no line
    is longer than the pattern's limits (found with one look per window), else `p`,
    which checks each call."""
    if not isinstance(p, BoundedPattern):
        return p
    size = min(p.limit, p.match_limit, p.full_limit)
    n = len(text)
    if n <= size:
        return p._re
    nl, pos = p._nl, 0
    while n - pos > size:
        cut = text.rfind(nl, pos, pos + size + 1)
        if cut < 0:
            return p
        pos = cut + 1
    return p._re


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


def _fallback(source: Any, flags: int, compiled: re.Pattern[Any], tree: Any,
              engine: EngineName | None = None) -> Pattern:
    """RE2 when it can run the pattern with re's meaning, else the regex module."""
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


def compile(source: str | bytes, flags: int = 0, *,  # noqa: A001 - re's name
            engine: EngineName | None = None) -> Pattern:
    """Compile a Python-syntax pattern on the engine that can neither freeze the process
    nor change its meaning (see the module doc). Raises re.error for a bad pattern, and
    OverflowError/RecursionError as `re.compile` does. `engine` forces one (tests).
    Cached, as re.compile is: a tool compiles its pattern once per run."""
    return _compile_cached(source, flags, engine)


@functools.lru_cache(maxsize=512)
def _compile_cached(source: str | bytes, flags: int, engine: EngineName | None) -> Pattern:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = re.compile(source, flags)
        if engine == "re":
            return compiled
        tree = _parser.parse(source, flags)
    if engine in (None, "bounded"):
        c = cost.assess(tree)
        if not c.risky:
            if c.literal and engine is None:
                return compiled
            limits = c.limits(BUDGET_NS)
            if max(limits) >= MIN_LIMIT or engine == "bounded":
                return BoundedPattern(compiled, tree, c, limits)
        elif engine == "bounded":
            raise Unsupported("re can backtrack exponentially on this pattern")
        engine = None
    return _fallback(source, flags, compiled, tree, engine)
