"""Shell pattern matching: `case` patterns, `[[ == ]]`, `${x#p}`, `${x/p/r}` and glob segments.

A pattern is text where `* ? [...]` are live and `\\x` stands for a literal `x`; with
extglob (on unless the caller says otherwise) `?(a|b) *(a|b) +(a|b) @(a|b) !(a|b)` are
live too. The expander escapes quoted text with `escape()` so it matches literally.

Patterns are translated to Python regular expressions once and cached, since the same
pattern is usually matched many times in a loop, and run on the engine
kernel.text.engine picks, which can neither freeze the process nor take unbounded time:
Python's `re` on texts short enough for the pattern's worst case, RE2 (linear) on longer
ones, the sliced regex module with stop checks for the rest. `!(…)` has no regex
equivalent (its meaning is the complement of a language), so a pattern holding one runs
on `_SetMatcher`: the set of end positions of each part computed as a bit mask over the
text, polynomial in the text's length, with the stop check every so many steps and a
bounded memo.

A pattern whose only live character is `*` (`*.txt`, `a*`, `*/*`), matched with case,
runs on `_StarMatcher`: string searches for its literal pieces, with the regex's
answers. Neither `re` nor the engines load for it.

Prefix, suffix and anchored-replace operations try each cut of the text in turn, as
bash does (quadratic at worst, never exponential), with the command's stop check
every so many tries.
"""

from __future__ import annotations

from tysh.kernel.base import stop
from tysh.kernel.base.hints import Any
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.lazyre import DOTALL, IGNORECASE
from tysh.kernel.base.memo import bounded_memo
from tysh.kernel.base.values import byte_view

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Iterator
else:  # for a pattern the regex engines run (see compile_pattern)
    re = LazyModule(globals(), "re", "re")

_POSIX_CLASSES = {
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "alnum": "a-zA-Z0-9",
    "upper": "A-Z",
    "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v",
    "blank": " \\t",
    "punct": "!\"\\#\\$%\\&'\\(\\)\\*\\+,\\-\\./:;<=>\\?@\\[\\\\\\]\\^_`\\{\\|\\}\\~",
    "xdigit": "0-9A-Fa-f",
    "cntrl": "\\x00-\\x1f\\x7f",
    "print": "\\x20-\\x7e",
    "graph": "\\x21-\\x7e",
    "word": "\\w",
}

# Characters that carry meaning in a pattern (inside brackets and extended groups too);
# escape() puts a backslash before each.
_ESCAPE_TABLE = str.maketrans({c: "\\" + c for c in "\\*?[]()|!^-"})
_MAGIC_CHARS = frozenset("*?[+@!")
_EXT_OPS = frozenset("?*+@!")
MAX_GROUP_DEPTH = 64  # extended groups nested deeper than this are read as literal text


def escape(text: str) -> str:
    """Make `text` match only itself when used as a pattern."""
    return text.translate(_ESCAPE_TABLE)


def unescape(pattern: str) -> str:
    """The literal text a magic-free pattern stands for (`\\x` → `x`)."""
    if "\\" not in pattern:
        return pattern
    out: list[str] = []
    i = 0
    n = len(pattern)
    while True:
        j = pattern.find("\\", i, n - 1)  # (a backslash that ends the pattern stays)
        if j < 0:
            out.append(pattern[i:])
            return "".join(out)
        out.append(pattern[i:j])
        out.append(pattern[j + 1])
        i = j + 2


class _Finder:
    """`text.find(sub, start)` for starts that mostly grow, in linear time overall: a
    search is reused while it still answers (a text of many `[:` with no `:]` would
    otherwise cost a search to its end for each)."""

    __slots__ = ("text", "last")

    def __init__(self, text: str) -> None:
        self.text = text
        self.last: dict[str, tuple[int, int]] = {}  # sub -> (searched from, found at)

    def find(self, sub: str, start: int) -> int:
        got = self.last.get(sub)
        if got is not None and got[0] <= start and (got[1] < 0 or got[1] >= start):
            return got[1]
        at = self.text.find(sub, start)
        self.last[sub] = (start, at)
        return at


class _Scanner:
    """Where the bracket expressions and the parenthesised groups of one pattern end,
    found in time linear in the pattern: a pattern of many unclosed `[` or `@(` (from a
    variable, say) would otherwise cost a scan to its end for each."""

    __slots__ = ("p", "memo", "finder", "groups")

    def __init__(self, p: str) -> None:
        self.p = p
        self.memo: dict[int, int] = {}  # a position inside a bracket scan -> its result
        self.finder = _Finder(p)
        self.groups: dict[int, tuple[int, list[tuple[int, int]]]] | None = None

    def bracket_end(self, i: int) -> int:
        """Given `i` just after a `[`, the index just after its closing `]`, or -1."""
        p = self.p
        n = len(p)
        if i < n and p[i] in "!^":
            i += 1
        if i < n and p[i] == "]":
            i += 1
        memo = self.memo
        seen: list[int] = []
        end = -1
        while i < n:
            got = memo.get(i)
            if got is not None:  # the scan from here was done: same answer
                end = got
                break
            seen.append(i)
            c = p[i]
            if c == "]":
                end = i + 1
                break
            if c == "\\":
                i += 2
                continue
            if c == "[" and i + 1 < n and p[i + 1] in ":=.":
                close = self.finder.find(p[i + 1] + "]", i + 2)
                if close >= 0:
                    i = close + 2
                    continue
            i += 1
        for k in seen:
            memo[k] = end
        return end

    def group_end(self, i: int) -> tuple[int, list[tuple[int, int]]]:
        """Given the index of a `(`, the index just after its `)` and the spans of its
        `|`-separated alternatives; (-1, []) when it is not closed. Parentheses nest,
        bracket expressions and escaped characters do not count."""
        if self.groups is None:
            self.groups = self._all_groups()
        return self.groups.get(i, (-1, []))

    def _all_groups(self) -> dict[int, tuple[int, list[tuple[int, int]]]]:
        p = self.p
        n = len(p)
        out: dict[int, tuple[int, list[tuple[int, int]]]] = {}
        stack: list[tuple[int, list[tuple[int, int]], list[int]]] = []
        i = 0
        while i < n:
            c = p[i]
            if c == "\\":
                i += 2
                continue
            if c == "[":
                end = self.bracket_end(i + 1)
                if end >= 0:
                    i = end
                    continue
            elif c == "(":
                stack.append((i, [], [i + 1]))
            elif c == "|" and stack:
                _, spans, start = stack[-1]
                spans.append((start[0], i))
                start[0] = i + 1
            elif c == ")" and stack:
                at, spans, start = stack.pop()
                spans.append((start[0], i))
                out[at] = (i + 1, spans)
            i += 1
        return out


def _class_char(c: str) -> str:
    return "\\" + c if c in "\\]^-[" else c


def _bracket(body: str) -> str:
    """Translate the inside of `[...]` to a regex character class."""
    negate = False
    if body and body[0] in "!^":
        negate = True
        body = body[1:]
    items: list[str] = []
    finder = _Finder(body)
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c == "[" and i + 1 < n and body[i + 1] == ":":
            close = finder.find(":]", i + 2)
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


# -- the parse tree -----------------------------------------------------------------
# A sequence is a tuple of nodes: a str (literal text), _ANY (`?`), _STAR (`*`), a
# _Class (`[...]`, as regex class source) or an _Ext (an extended group).

_ANY = "?"
_STAR = "*"
Seq = tuple[Any, ...]


class _Lit(str):
    """Literal text (a str subclass, so `?` and `*` as text differ from _ANY/_STAR)."""

    __slots__ = ()


class _Class:
    __slots__ = ("src",)

    def __init__(self, src: str) -> None:
        self.src = src


class _Ext:
    """`op(alt|alt…)` with op one of `? * + @ !`."""

    __slots__ = ("op", "alts")

    def __init__(self, op: str, alts: tuple[Seq, ...]) -> None:
        self.op = op
        self.alts = alts


def _parse(p: str, ext: bool) -> Seq:
    return _parse_span(p, ext, _Scanner(p), 0, len(p), 0)


def _parse_span(p: str, ext: bool, sc: _Scanner, i: int, n: int, depth: int) -> Seq:
    """The sequence `p[i:n]` stands for; `sc` scans the whole of `p` (an alternative of a
    group is parsed in place, so each level does not scan its text again)."""
    out: list[Any] = []
    lit: list[str] = []
    while i < n:
        c = p[i]
        if ext and c in _EXT_OPS and i + 1 < n and p[i + 1] == "(" and depth < MAX_GROUP_DEPTH:
            end, spans = sc.group_end(i + 1)
            if 0 <= end <= n:
                if lit:
                    out.append(_Lit("".join(lit)))
                    lit.clear()
                alts = tuple(_parse_span(p, ext, sc, a, b, depth + 1) for a, b in spans)
                out.append(_Ext(c, alts))
                i = end
                continue
        i += 1
        node: Any
        if c == "*":
            while i < n and p[i] == "*" and not (ext and i + 1 < n and p[i + 1] == "("):
                i += 1
            if out and out[-1] is _STAR and not lit:
                continue
            node = _STAR
        elif c == "?":
            node = _ANY
        elif c == "\\":
            lit.append(p[i] if i < n else "\\")
            i += 1
            continue
        elif c == "[":
            end = sc.bracket_end(i)
            if end < 0 or end > n:
                lit.append("[")
                continue
            node = _Class(_bracket(p[i:end - 1]))
            i = end
        else:
            lit.append(c)
            continue
        if lit:
            out.append(_Lit("".join(lit)))
            lit.clear()
        out.append(node)
    if lit:
        out.append(_Lit("".join(lit)))
    return tuple(out)


def _has_negation(seq: Seq) -> bool:
    return any(type(x) is _Ext and (x.op == "!" or any(map(_has_negation, x.alts)))
               for x in seq)


def _has_choice(seq: Seq) -> bool:
    """Whether the pattern can match in ways of different lengths besides `*`: an
    alternation or repetition, where a regex's first match need not be the longest."""
    return any(type(x) is _Ext for x in seq)


def _regex(seq: Seq) -> str:
    out: list[str] = []
    for x in seq:
        if x is _STAR:
            out.append(".*")
        elif x is _ANY:
            out.append(".")
        elif type(x) is _Lit:
            out.append(re.escape(x))
        elif type(x) is _Class:
            out.append(x.src)
        else:
            body = "(?:" + "|".join(_regex(a) for a in x.alts) + ")"
            out.append(body + {"@": "", "?": "?", "*": "*", "+": "+"}[x.op])
    return "".join(out)


def split_pattern(pattern: str, sep: str) -> list[str]:
    """`pattern` split at each `sep` that is live: not escaped and not inside a bracket
    expression or an extended group (path segments at `/`, GLOBIGNORE's list at `:`)."""
    out: list[str] = []
    sc = _Scanner(pattern)
    depth = 0
    start = 0
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            end = sc.bracket_end(i + 1)
            if end >= 0:
                i = end
                continue
        elif c == "(":
            depth += 1
        elif c == ")" and depth:
            depth -= 1
        elif c == sep and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
        i += 1
    out.append(pattern[start:])
    return out


@bounded_memo(1024)
def _tree(pattern: str, ext: bool) -> Seq:
    return _parse(pattern, ext)


@bounded_memo(1024)
def translate(pattern: str, extglob: bool = False) -> str:
    """The regex source equivalent to a whole shell pattern (no anchors). With
    `extglob`, `?( ) *( ) +( ) @( )` translate too; a pattern holding `!( )` has no
    regex form (ValueError): compile it with compile_pattern."""
    seq = _tree(pattern, extglob)
    if extglob and _has_negation(seq):
        raise ValueError("!(…) has no regular-expression form")
    return _regex(seq)


@bounded_memo(1024)
def compile_pattern(pattern: str, extglob: bool = True, nocase: bool = False) -> Any:
    """The compiled matcher for a pattern (re.Pattern's `fullmatch`/`match`/`search`;
    see kernel.text.engine), `nocase` ignoring case; use `.fullmatch` for whole-string
    matching."""
    seq = _tree(pattern, extglob)
    if not nocase and all(x is _STAR or type(x) is _Lit for x in seq):
        return _StarMatcher(seq)
    if extglob and _has_negation(seq):
        return _SetMatcher(seq, nocase)
    from tysh.kernel.text import engine  # the engines load on the first pattern

    return engine.compile(_regex(seq), DOTALL | (IGNORECASE if nocase else 0))


def _bounds(text: str, pos: int, endpos: int | None) -> tuple[int, int]:
    """`pos` and `endpos` held within the text, as a compiled regex holds them (an end
    before the start matches nothing here; `re` still finds an empty pattern there)."""
    n = len(text)
    pos = 0 if pos < 0 else min(pos, n)
    return pos, (n if endpos is None else max(0, min(endpos, n)))


class _StarMatcher:
    """A pattern of literal pieces between stars (`P0*P1*…*Pk`), matched as its regex
    `P0.*P1.*….*Pk` would be, by string searches: a match from a given start is the
    longest (each `.*` is greedy), and a search's start is the leftmost that matches.
    Placing each middle piece at its first occurrence leaves the most room after it,
    so a match exists exactly when that placement succeeds."""

    __slots__ = ("first", "middle", "last", "star")

    def __init__(self, seq: Seq) -> None:
        pieces: list[str] = [""]
        for x in seq:
            if x is _STAR:
                pieces.append("")
            else:
                pieces[-1] += str(x)
        self.star = len(pieces) > 1
        self.first = pieces[0]
        self.last = pieces[-1] if self.star else ""
        self.middle = tuple(pieces[1:-1])

    def _after_middle(self, text: str, i: int, end: int) -> int:
        """Where the text after `first` and the middle pieces starts, each piece at its
        first occurrence from `i` (before `end`); -1 when one does not occur."""
        for piece in self.middle:
            j = text.find(piece, i, end)
            if j < 0:
                return -1
            i = j + len(piece)
        return i

    def fullmatch(self, text: str, pos: int = 0, endpos: int | None = None) -> _Span | None:
        pos, end = _bounds(text, pos, endpos)
        if end < pos:
            return None
        first = self.first
        if not self.star:
            return _Span(text, pos, end) if (
                end - pos == len(first) and text.startswith(first, pos)) else None
        last = self.last
        tail = end - len(last)
        i = pos + len(first)
        if i > tail or not text.startswith(first, pos) or not text.startswith(last, tail):
            return None
        return _Span(text, pos, end) if 0 <= self._after_middle(text, i, tail) else None

    def match(self, text: str, pos: int = 0, endpos: int | None = None) -> _Span | None:
        pos, end = _bounds(text, pos, endpos)
        if end < pos:
            return None
        first = self.first
        i = pos + len(first)
        if i > end or not text.startswith(first, pos):
            return None
        if not self.star:
            return _Span(text, pos, i)
        i = self._after_middle(text, i, end)
        if i < 0:
            return None
        last = self.last
        if not last:
            return _Span(text, pos, end)
        j = text.rfind(last, i, end)
        return None if j < 0 else _Span(text, pos, j + len(last))

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> _Span | None:
        pos, end = _bounds(text, pos, endpos)
        if end < pos:
            return None
        # (a later start of `first` leaves less room: the leftmost is the only candidate)
        start = text.find(self.first, pos, end)
        return None if start < 0 else self.match(text, start, end)


# -- `!( )`: end positions as bit masks ----------------------------------------------

MEMO_BITS = 1 << 26  # the memo of one text is dropped when its masks pass this many bits
STEPS_PER_CHECK = 1024  # positions visited between two stop checks


class _Span:
    """The match object of _SetMatcher (span/start/end/group)."""

    __slots__ = ("string", "_start", "_end")

    def __init__(self, string: str, start: int, end: int) -> None:
        self.string = string
        self._start = start
        self._end = end

    def span(self) -> tuple[int, int]:
        return self._start, self._end

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end

    def group(self, g: int = 0) -> str:
        return self.string[self._start:self._end]


def _bits(mask: int) -> Iterator[int]:
    """The positions set in `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class _Run:
    """One text against one tree: where each literal and class occurs, and the memo of
    group end masks by (group, start)."""

    def __init__(self, m: _SetMatcher, text: str) -> None:
        self.text = text.lower() if m.nocase else text
        self.n = len(text)
        self.full = (1 << (self.n + 1)) - 1
        self.m = m
        self.occ: dict[Any, int] = {}
        self.memo: dict[tuple[int, int], int] = {}
        self.memo_bits = 0
        self.steps = 0

    def _occ(self, x: Any) -> int:
        """The mask of the positions where literal or class `x` starts a match."""
        key = x if type(x) is _Lit else id(x)
        got = self.occ.get(key)
        if got is None:
            got = 0
            t = self.text
            if type(x) is _Lit:
                lit = x.lower() if self.m.nocase else str(x)
                i = t.find(lit)
                while i >= 0:
                    got |= 1 << i
                    i = t.find(lit, i + 1)
            else:
                for mt in self.m.classes[id(x)].finditer(t):
                    got |= 1 << mt.start()
            self.occ[key] = got
        return got

    def seq(self, seq: Seq, cur: int) -> int:
        """The end positions of `seq` matched from any start position in `cur`."""
        for x in seq:
            if not cur:
                return 0
            if x is _STAR:
                cur = self.full & ~((cur & -cur) - 1)
            elif x is _ANY:
                cur = (cur << 1) & self.full
            elif type(x) is _Lit:
                cur = (cur & self._occ(x)) << len(x)
            elif type(x) is _Class:
                cur = (cur & self._occ(x)) << 1
            else:
                nxt = 0
                for p in _bits(cur):
                    self._step()
                    nxt |= self.group(x, p)
                cur = nxt
        return cur

    def _step(self) -> None:
        """Count one position visited; the stop check every STEPS_PER_CHECK of them."""
        self.steps += 1
        if self.steps >= STEPS_PER_CHECK:
            self.steps = 0
            stop.check()

    def _alts(self, g: _Ext, p: int) -> int:
        key = (id(g), -1 - p)
        got = self.memo.get(key)
        if got is None:
            got = 0
            start = 1 << p
            for a in g.alts:
                got |= self.seq(a, start)
            self._keep(key, got)
        return got

    def _keep(self, key: tuple[int, int], mask: int) -> None:
        if self.memo_bits > MEMO_BITS:
            self.memo.clear()
            self.memo_bits = 0
        self.memo[key] = mask
        self.memo_bits += mask.bit_length() + 64

    def group(self, g: _Ext, p: int) -> int:
        """The end positions of group `g` matched from position `p`."""
        key = (id(g), p)
        got = self.memo.get(key)
        if got is not None:
            return got
        op = g.op
        if op == "@":
            got = self._alts(g, p)
        elif op == "?":
            got = self._alts(g, p) | (1 << p)
        elif op == "!":
            got = self.full & ~((1 << p) - 1) & ~self._alts(g, p)
        else:  # `*` and `+`: the closure of the alternatives from p
            reach = 1 << p if op == "*" else 0
            todo = self._alts(g, p)
            while True:
                new = todo & ~reach
                if not new:
                    break
                reach |= new
                todo = 0
                for q in _bits(new):
                    self._step()
                    todo |= self._alts(g, q)
            got = reach
        self._keep(key, got)
        return got

    def ends(self, start: int) -> int:
        return self.seq(self.m.tree, 1 << start)


class _SetMatcher:
    """A pattern with `!( )`, matched by computing the set of end positions of each part
    (see _Run); re.Pattern's fullmatch/match/search (leftmost-longest)."""

    def __init__(self, tree: Seq, nocase: bool) -> None:
        self.tree = tree
        self.nocase = nocase
        self.classes: dict[int, Any] = {}
        self._collect(tree)
        self._last: _Run | None = None

    def _collect(self, seq: Seq) -> None:
        flags = DOTALL | (IGNORECASE if self.nocase else 0)
        for x in seq:
            if type(x) is _Class:
                self.classes[id(x)] = re.compile(x.src, flags)  # one character: linear
            elif type(x) is _Ext:
                for a in x.alts:
                    self._collect(a)

    def run(self, text: str) -> _Run:
        r = self._last
        if r is None or r.n != len(text) or (r.text != (text.lower() if self.nocase else text)):
            r = self._last = _Run(self, text)
        return r

    def fullmatch(self, text: str, pos: int = 0, endpos: int | None = None) -> _Span | None:
        if endpos is not None and endpos < len(text):
            text = text[:endpos]
        if self.run(text).ends(pos) >> len(text) & 1:
            return _Span(text, pos, len(text))
        return None

    def match(self, text: str, pos: int = 0, endpos: int | None = None) -> _Span | None:
        if endpos is not None and endpos < len(text):
            text = text[:endpos]
        e = self.run(text).ends(pos)
        return _Span(text, pos, e.bit_length() - 1) if e else None

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> _Span | None:
        if endpos is not None and endpos < len(text):
            text = text[:endpos]
        r = self.run(text)
        for s in _cuts(range(pos, len(text) + 1)):
            e = r.ends(s)
            if e:
                return _Span(text, s, e.bit_length() - 1)
        return None


CHECK_EVERY = 16  # cuts tried between two stop checks (each within the engine's budget)


def _cuts(rng: range) -> Iterator[int]:
    """The cut positions of `rng`, with the stop check now and then."""
    for k, i in enumerate(rng):
        if k % CHECK_EVERY == CHECK_EVERY - 1:
            stop.check()
        yield i


@bounded_memo(1024)
def has_magic(pattern: str, extglob: bool = True) -> bool:
    """True when the pattern contains a live `*`, `?`, a closed `[...]` or (with
    `extglob`) a closed extended group."""
    if _MAGIC_CHARS.isdisjoint(pattern):
        return False
    sc = _Scanner(pattern)
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c in "*?":
            return True
        if c == "[" and sc.bracket_end(i + 1) >= 0:
            return True
        if (c in "+@!" and extglob and pattern[i + 1:i + 2] == "("
                and sc.group_end(i + 1)[0] >= 0):
            return True
        i += 1
    return False


def match(pattern: str, text: str, *, extglob: bool = True, nocase: bool = False,
          octets: bool = False) -> bool:
    """Whole-string match of `text` against a shell pattern (`nocase`: ignoring case,
    as under `shopt -s nocasematch`; `octets`: `?` and `[...]` match one byte, as in
    the C locale)."""
    if octets and not (text.isascii() and pattern.isascii()):
        pattern, text = byte_view(pattern), byte_view(text)
    if not has_magic(pattern, extglob):
        lit = unescape(pattern)
        return lit.lower() == text.lower() if nocase else lit == text
    return compile_pattern(pattern, extglob, nocase).fullmatch(text) is not None


def _prefix_cut(rx: Any, text: str, longest: bool) -> int:
    """The end of the shortest or longest prefix of `text` the pattern matches, or -1."""
    if type(rx) is _SetMatcher:
        e = rx.run(text).ends(0)
        if not e:
            return -1
        return e.bit_length() - 1 if longest else (e & -e).bit_length() - 1
    fm = rx.fullmatch
    n = len(text)
    for i in _cuts(range(n, -1, -1) if longest else range(n + 1)):
        if fm(text, 0, i):
            return i
    return -1


def remove_prefix(text: str, pattern: str, longest: bool) -> str:
    """`${x#p}` (shortest) and `${x##p}` (longest)."""
    if not has_magic(pattern):
        lit = unescape(pattern)
        return text[len(lit) :] if text.startswith(lit) else text
    i = _prefix_cut(compile_pattern(pattern), text, longest)
    return text if i < 0 else text[i:]


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


@bounded_memo(256)
def _longest_matcher(pattern: str, nocase: bool) -> _SetMatcher:
    return _SetMatcher(_tree(pattern, True), nocase)


def replace(text: str, pattern: str, repl: str | ReplaceTemplate, mode: str,
            nocase: bool = False) -> str:
    """`${x/p/r}` (mode "/"), `${x//p/r}` ("//"), `${x/#p/r}` ("/#"), `${x/%p/r}` ("/%");
    `nocase` ignoring case (bash's nocasematch reaches these, not `${x#p}`).

    Each match is the longest at the leftmost position; empty matches are skipped
    except for the anchored forms, as in bash."""
    rx = compile_pattern(pattern, True, nocase)
    if mode == "/#":
        i = _prefix_cut(rx, text, True)
        return text if i < 0 else _expand_replacement(repl, text[:i]) + text[i:]
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
    # A regex's first match at a place need not be the longest when the pattern has
    # alternatives (`@(a|ab)` on `ab`) and bash takes the longest: the end comes from
    # the end-set matcher then, the start (the leftmost) from the regex.
    longest = (_longest_matcher(pattern, nocase).run(text)
               if type(rx) is not _SetMatcher and _has_choice(_tree(pattern, True)) else None)
    out: list[str] = []
    pos = 0
    n = len(text)
    while pos <= n:
        m = rx.search(text, pos)
        if m is None:
            break
        start, end = m.span()
        if longest is not None:
            end = longest.ends(start).bit_length() - 1
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
