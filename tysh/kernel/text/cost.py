"""What a pattern can cost Python's backtracking `re`, bounded from its parse tree.

`re` holds the interpreter lock for the whole of one call, and its worst case depends
on the pattern's shape. This module reads re's own parse tree once and answers:

- *risky*: some repetition can match the same text in more than one way per pass (a
  loop over an alternation or a loop, `(a|aa)*`, `(a*)*`, `(x+y)+`) — the number of
  paths grows exponentially with the text, so no length is safe. The test is
  deliberately coarse: every loop whose body is not *deterministic* (at most one way
  to match at a position: single characters, classes, fixed sequences, alternations
  whose branches start with distinct literals) counts as risky.
- otherwise the work of one match attempt is at most ``coef * n**degree`` steps on a
  subject of n characters, where the degree counts the nested choices of loop counts
  (`a*a*b` is degree 2: two stop points to try; a back-reference adds one, for its
  compare). A search tries up to n attempts, so a whole call is bounded by
  ``n * (ATTEMPT + coef * n**degree)`` steps.

Steps are converted to time with STEP_NS, measured on worst-case subjects
(bench/regex_budget.py prints the measurements); `limits()` turns a time budget into
the longest subject `re` may be given. The model is an upper bound, not a prediction:
most texts cost far less.
"""

from __future__ import annotations

import math
from re import _constants as C  # type: ignore[attr-defined,unused-ignore]

from tysh.kernel.base.record import Record, frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAXREPEAT = C.MAXREPEAT
SMALL_COUNT = 64  # a repeat bound up to this is a constant; above it, up to n passes
CHAR_STEP = 0.25  # one character of a loop of single characters (REPEAT_ONE), in steps
SLOW_STEP = 1.0  # the same, lazy, under IGNORECASE, or of a category (\\w, \\d, \\s)
FOLD_SET_STEP = 4.0  # a set under IGNORECASE (re folds each character against it)
CHOICE_STEP = 2.0  # entering a bounded loop (re's bookkeeping for its stop points)
LOOP_STEP = 8.0  # one pass of a general loop, in steps (re's REPEAT/MAX_UNTIL bookkeeping)
ATTEMPT = 24.0  # the fixed cost of starting one match attempt, in steps
STEP_NS = 1.5  # nanoseconds per step at worst (bench/regex_budget.py measures it)
CAP = 1e18  # a bound past this is as good as exponential

Poly = tuple[float, int]  # (coefficient, degree): at most coef * n**degree
ONE: Poly = (1.0, 0)
ZERO: Poly = (0.0, 0)


def _pow(n: int, degree: int) -> float:
    """n**degree as a float, infinite past the float range."""
    try:
        return float(n) ** degree
    except OverflowError:
        return math.inf


def _add(a: Poly, b: Poly) -> Poly:
    return (a[0] + b[0], max(a[1], b[1]))


def _mul(a: Poly, b: Poly) -> Poly:
    return (a[0] * b[0], a[1] + b[1])


class _Risky(Exception):
    """The pattern can backtrack exponentially."""


@frozen
class Cost(Record):
    """What `re` can cost on a pattern (see the module doc)."""

    risky: bool
    coef: float = 0.0  # one attempt of search/match: at most coef * n**degree steps
    degree: int = 0
    tail_coef: float = 0.0  # a tail that cannot fail (`[^\\n]*` at the end): run once
    tail_degree: int = 0
    full_coef: float = 0.0  # one attempt of fullmatch (which must also reach the end)
    full_degree: int = 0
    literal: bool = False  # a plain literal: re's own substring search, linear
    line_bounded: bool = False  # no part can match a newline: an attempt stays in a line
    window_safe: bool = False  # line_bounded, and no anchor that sees a window's edge
    nullable: bool = True  # it can match the empty string

    def search_ns(self, n: int) -> float:
        """Worst-case time of a search (or finditer, sub…) over n characters: n attempts,
        and a tail that cannot fail run once per match (matches do not overlap)."""
        return (n * (ATTEMPT + self.coef * _pow(n, self.degree))
                + self.tail_coef * _pow(n, max(self.tail_degree, 1))) * STEP_NS

    def match_ns(self, n: int) -> float:
        """Worst-case time of one anchored attempt (match) on n characters."""
        return (ATTEMPT + self.coef * _pow(n, self.degree)
                + self.tail_coef * _pow(n, self.tail_degree)) * STEP_NS

    def fullmatch_ns(self, n: int) -> float:
        """Worst-case time of a fullmatch on n characters."""
        return (ATTEMPT + self.full_coef * _pow(n, self.full_degree)) * STEP_NS

    def limits(self, budget_ns: float) -> tuple[int, int, int]:
        """The longest subjects a search, a match and a fullmatch may have within
        `budget_ns`."""
        return (_longest(self.search_ns, budget_ns), _longest(self.match_ns, budget_ns),
                _longest(self.fullmatch_ns, budget_ns))


UNLIMITED = 1 << 62


def _longest(f: Any, budget: float) -> int:
    if f(UNLIMITED) <= budget:
        return UNLIMITED
    lo, hi = 0, 1
    while f(hi) <= budget:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if f(mid) <= budget:
            lo = mid
        else:
            hi = mid
    return lo


def assess(tree: Any) -> Cost:
    """The cost of a pattern from `re._parser.parse(source, flags)`."""
    flags = tree.state.flags
    items = list(tree)
    # the first way the items before a tail that cannot fail (`x*` at the very end)
    # succeed ends the attempt: the tail runs once, not once per way, and its work is
    # what it consumes, so over all matches of a finditer at most the text once
    cut = len(items)
    while cut and _free_tail(*items[cut - 1]):
        cut -= 1
    try:
        _, full = _seq(items, flags)
        _, head = _seq(items[:cut], flags)
        _, tail = _seq(items[cut:], flags)
    except _Risky:
        return Cost(risky=True)
    if not math.isfinite(full[0]) or full[0] > CAP:
        return Cost(risky=True)
    lines = _line_bounded(tree, flags)
    literal = not flags & _IGNORECASE and bool(tree) and all(op is C.LITERAL for op, _ in tree)
    return Cost(risky=False, coef=head[0], degree=head[1], tail_coef=tail[0],
                tail_degree=tail[1], full_coef=full[0],
                full_degree=full[1], literal=literal, line_bounded=lines,
                window_safe=lines and not _edge_anchor(tree, flags),
                nullable=tree.getwidth()[0] == 0)


_IGNORECASE = C.SRE_FLAG_IGNORECASE
_MULTILINE = C.SRE_FLAG_MULTILINE
_DOTALL = C.SRE_FLAG_DOTALL
_UNITS = (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN, C.CATEGORY)


def _flags(flags: int, av: Any) -> int:
    return int((flags | av[1]) & ~av[2])


def _seq(items: Any, flags: int) -> tuple[Poly, Poly]:
    """(combos, work) of a sequence: the ways it can succeed, and the steps to try them
    all. Each item is tried once per way the items before it succeeded."""
    combos, work = ONE, ZERO
    items = list(items)
    for i, (op, av) in enumerate(items):
        c, w = _node(op, av, flags)
        if op is C.LITERAL and i and not flags & _IGNORECASE and _greedy_unit(*items[i - 1]):
            # re gives a loop's characters back in its tight loop until this one is next
            w = (CHAR_STEP, 0)
        if c != ONE and _stops_once(op, av, items[i + 1 :], flags):
            # a loop of characters the next item cannot start with: of all the places
            # it could stop, only the last can be followed; the others cost one failed
            # look each
            nxt = items[i + 1]
            look = CHAR_STEP if nxt[0] is C.LITERAL and not flags & _IGNORECASE else 1.0
            c, w = ONE, _add(w, (look, 1))
        work = _add(work, _mul(combos, w))
        combos = _mul(combos, c)
        if combos[0] > CAP or work[0] > CAP:
            raise _Risky
    return combos, work


def _char_step(op: Any, body: Any, flags: int) -> float:
    """One character taken or given back by a greedy loop of single characters: re runs
    it in a tight loop, slower when it folds case, looks a category up, or is lazy (each
    character then tries what follows)."""
    while body[0][0] is C.SUBPATTERN:
        flags = _flags(flags, body[0][1])
        body = body[0][1][3]
    bop, bav = body[0]
    if flags & _IGNORECASE and bop is C.IN:
        return FOLD_SET_STEP
    if op is C.MIN_REPEAT or flags & _IGNORECASE or (
            bop is C.IN and any(o is C.CATEGORY for o, _ in bav)):
        return SLOW_STEP
    return CHAR_STEP


def _free_tail(op: Any, av: Any) -> bool:
    """An item that succeeds on its first try at the cost of the text it consumes: a
    greedy loop of single characters (it may stop anywhere, so it never looks past what
    it takes) or a lazy loop that may take nothing. A loop over anything longer can
    scan far ahead and still fail (`(?:a*b)?` reads the whole text at every position
    to match nothing)."""
    if op in (C.MAX_REPEAT, C.POSSESSIVE_REPEAT):
        return bool(av[0] == 0) and _is_unit(av[2])
    if op is C.MIN_REPEAT:
        return bool(av[0] == 0)
    if op is C.SUBPATTERN:
        return all(_free_tail(o, a) for o, a in av[3])
    return False


def _width(body: Any) -> int:
    """The fewest characters a loop's body (a parsed SubPattern) can match."""
    lo: int = body.getwidth()[0]
    return lo


def _is_unit(items: Any) -> bool:
    """A single-character body, which re repeats in one tight loop (REPEAT_ONE)."""
    if len(items) != 1:
        return False
    op, av = items[0]
    if op is C.SUBPATTERN:
        return av[0] is None and _is_unit(av[3])
    return op in _UNITS


def _greedy_unit(op: Any, av: Any) -> bool:
    return op is C.MAX_REPEAT and _is_unit(av[2])


def _first_literal(items: Any, flags: int) -> int | None:
    """The literal a sequence starts with, when it is compared case-sensitively."""
    while items and not flags & _IGNORECASE:
        op, av = items[0]
        if op is C.LITERAL:
            return int(av)
        if op is C.SUBPATTERN:
            flags = _flags(flags, av)
            items = av[3]
            continue
        return None
    return None


def _node(op: Any, av: Any, flags: int) -> tuple[Poly, Poly]:
    if op in _UNITS or op is C.AT:
        return ONE, ONE
    if op is C.SUBPATTERN:
        return _seq(av[3], _flags(flags, av))
    if op is C.BRANCH:
        parts = [_seq(b, flags) for b in av[1]]
        work: Poly = (float(len(parts)), 0)
        combos = ZERO
        for c, w in parts:
            work = _add(work, w)
            combos = _add(combos, c)
        firsts = [_first_literal(b, flags) for b in av[1]]
        if (not flags & _IGNORECASE and all(c == ONE for c, _ in parts)
                and None not in firsts and len(set(firsts)) == len(firsts)):
            combos = ONE  # branches start with distinct literals: one can match at most
        return combos, work
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        return _repeat(op, av, flags)
    if op in (C.ASSERT, C.ASSERT_NOT):
        _, w = _seq(av[1], flags)
        return ONE, w  # a lookaround is not backtracked into; its own search is its cost
    if op is C.ATOMIC_GROUP:
        _, w = _seq(av, flags)
        return ONE, w
    if op is C.GROUPREF:
        return ONE, (1.0, 1)  # one comparison of up to n characters
    if op is C.GROUPREF_EXISTS:
        _, yes, no = av
        cy, wy = _seq(yes, flags)
        cn, wn = _seq(no, flags) if no else (ONE, ZERO)
        return _add(cy, cn), _add(_add(wy, wn), ONE)
    raise _Risky  # an opcode this model does not know: assume the worst


def _repeat(op: Any, av: Any, flags: int) -> tuple[Poly, Poly]:
    lo, hi, body = av
    bc, bw = _seq(body, flags)
    unit = _is_unit(body)
    step: Poly = (_char_step(op, body, flags), 0) if unit else _add(bw, (LOOP_STEP, 0))
    unbounded = hi is MAXREPEAT or hi > SMALL_COUNT
    if unbounded:
        # up to n passes: each must be forced, or the ways multiply pass by pass
        if bc != ONE or _width(body) == 0:
            raise _Risky
        passes: Poly = (1.0, 1) if hi is MAXREPEAT or hi > lo else (float(hi), 0)
        choices: Poly = ONE if hi == lo else (
            (1.0, 1) if hi is MAXREPEAT or hi - lo > SMALL_COUNT else (float(hi - lo + 1), 0))
        work = _mul(passes, step)
    elif bc == ONE:
        # a bounded count of a forced body: hi passes at most, hi-lo+1 places to stop
        choices = (float(hi - lo + 1), 0)
        work = _add(_mul((float(hi), 0), step), (CHOICE_STEP, 0))
    else:
        # a bounded count: unrolled, each optional pass a choice of its own
        combos, work = ONE, ZERO
        for i in range(hi):
            pc = bc if i < lo else _add(bc, ONE)
            work = _add(work, _mul(combos, step))
            combos = _mul(combos, pc)
            if combos[0] > CAP or work[0] > CAP:
                raise _Risky
        choices = combos
    if op is C.POSSESSIVE_REPEAT:
        choices = ONE
    return choices, work


# -- first characters -----------------------------------------------------------------

Ranges = list[tuple[int, int]]
_TOP = 0x10FFFF
_ALL: Ranges = [(0, _TOP)]
# categories as supersets of their members (any non-ASCII character may belong) and,
# for the negations, the complements of ASCII subsets
_CAT_SUPER: dict[Any, Ranges] = {
    C.CATEGORY_DIGIT: [(0x30, 0x39), (0x80, _TOP)],
    C.CATEGORY_WORD: [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A), (0x80, _TOP)],
    C.CATEGORY_SPACE: [(0x09, 0x0D), (0x1C, 0x20), (0x80, _TOP)],
}
_CAT_NEG = {C.CATEGORY_NOT_DIGIT: [(0x30, 0x39)],
            C.CATEGORY_NOT_WORD: [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)],
            C.CATEGORY_NOT_SPACE: [(0x09, 0x0D), (0x20, 0x20)]}


def _complement(r: Ranges) -> Ranges:
    out: Ranges = []
    nxt = 0
    for lo, hi in sorted(r):
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = max(nxt, hi + 1)
    if nxt <= _TOP:
        out.append((nxt, _TOP))
    return out


def _category(cat: Any) -> Ranges:
    if cat in _CAT_SUPER:
        return _CAT_SUPER[cat]
    if cat in _CAT_NEG:
        return _complement(_CAT_NEG[cat])
    return _ALL


def _unit_set(op: Any, av: Any, flags: int) -> Ranges | None:
    """A superset of the characters one unit matches (None: unknown)."""
    if flags & _IGNORECASE:
        return None
    if op is C.LITERAL:
        return [(av, av)]
    if op is C.NOT_LITERAL:
        return _complement([(av, av)])
    if op is C.ANY:
        return _ALL
    if op is C.CATEGORY:
        return _category(av)
    if op is C.IN:
        r: Ranges = []
        negate = False
        for o, a in av:
            if o is C.NEGATE:
                negate = True
            elif o is C.LITERAL:
                r.append((a, a))
            elif o is C.RANGE:
                r.append((a[0], a[1]))
            elif o is C.CATEGORY:
                if negate:
                    return None  # a negated category inside a negated set: keep it simple
                r.extend(_category(a))
            else:
                return None
        return _complement(r) if negate else r
    return None


def _first_set(items: Any, flags: int) -> Ranges | None:
    """A superset of the characters a match of the sequence can start with (None:
    unknown, or it may match empty). An end-of-line anchor starts with a newline."""
    if not items:
        return None
    op, av = items[0]
    if op in _UNITS:
        return _unit_set(op, av, flags)
    if op is C.AT:
        if av is C.AT_END_STRING:
            return []
        if av is C.AT_END:
            return [(_NL, _NL)]
        return None
    if op is C.SUBPATTERN:
        sub: Ranges | None = _first_set(av[3], _flags(flags, av))
        return sub
    if op is C.BRANCH:
        out: Ranges = []
        for b in av[1]:
            f = _first_set(b, flags)
            if f is None:
                return None
            out.extend(f)
        return out
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT) and av[0] >= 1:
        return _first_set(av[2], flags)
    return None


def _disjoint(a: Ranges, b: Ranges) -> bool:
    return not any(lo1 <= hi2 and lo2 <= hi1 for lo1, hi1 in a for lo2, hi2 in b)


def _stops_once(op: Any, av: Any, rest: Any, flags: int) -> bool:
    """A loop of single characters followed by something that cannot start with any of
    them: it can only go on from where the loop stops consuming."""
    if op not in (C.MAX_REPEAT, C.MIN_REPEAT) or not _is_unit(av[2]):
        return False
    body, inner = av[2], flags
    while body[0][0] is C.SUBPATTERN:
        inner = _flags(inner, body[0][1])
        body = body[0][1][3]
    s = _unit_set(body[0][0], body[0][1], inner)
    f = _first_set(rest, flags)
    return s is not None and f is not None and _disjoint(s, f)


# -- newlines ------------------------------------------------------------------------

_NL = 10
_HAS_NL = {C.CATEGORY_SPACE, C.CATEGORY_NOT_DIGIT, C.CATEGORY_NOT_WORD,
           C.CATEGORY_LINEBREAK}
_NO_NL = {C.CATEGORY_NOT_SPACE, C.CATEGORY_DIGIT, C.CATEGORY_WORD,
          C.CATEGORY_NOT_LINEBREAK}


def _set_has_nl(items: Any) -> bool:
    negate = False
    inside = False
    for op, av in items:
        if op is C.NEGATE:
            negate = True
        elif op is C.LITERAL:
            inside |= av == _NL
        elif op is C.RANGE:
            inside |= av[0] <= _NL <= av[1]
        elif op is C.CATEGORY:
            if av in _HAS_NL:
                inside = True
            elif av not in _NO_NL:
                return True  # unknown: assume it can
        else:
            return True
    return inside != negate


def _line_bounded(items: Any, flags: int) -> bool:
    """No part of the pattern (lookarounds included) can match a newline."""
    for op, av in items:
        if op is C.LITERAL:
            if av == _NL:
                return False
        elif op is C.NOT_LITERAL:
            if av != _NL:
                return False
        elif op is C.ANY:
            if flags & _DOTALL:
                return False
        elif op is C.IN:
            if _set_has_nl(av):
                return False
        elif op is C.CATEGORY:
            if av not in _NO_NL:
                return False
        elif op is C.SUBPATTERN:
            if not _line_bounded(av[3], _flags(flags, av)):
                return False
        elif op is C.BRANCH:
            if not all(_line_bounded(b, flags) for b in av[1]):
                return False
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            if not _line_bounded(av[2], flags):
                return False
        elif op in (C.ASSERT, C.ASSERT_NOT):
            if not _line_bounded(av[1], flags):
                return False
        elif op is C.ATOMIC_GROUP:
            if not _line_bounded(av, flags):
                return False
        elif op is C.GROUPREF_EXISTS:
            if not _line_bounded(av[1], flags) or (av[2] and not _line_bounded(av[2], flags)):
                return False
        elif op not in (C.AT, C.GROUPREF):
            return False
    return True


_STRING_EDGES = (C.AT_BEGINNING_STRING, C.AT_END_STRING)
_LINE_OR_STRING = (C.AT_BEGINNING, C.AT_END)


def _edge_anchor(items: Any, flags: int) -> bool:
    """An anchor that tells a window's edge from the text's (`\\A`, `\\Z`, `^`/`$`
    without MULTILINE)."""
    for op, av in items:
        if op is C.AT:
            if av in _STRING_EDGES or (av in _LINE_OR_STRING and not flags & _MULTILINE):
                return True
        elif op is C.SUBPATTERN:
            if _edge_anchor(av[3], _flags(flags, av)):
                return True
        elif op is C.BRANCH:
            if any(_edge_anchor(b, flags) for b in av[1]):
                return True
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            if _edge_anchor(av[2], flags):
                return True
        elif op in (C.ASSERT, C.ASSERT_NOT):
            if _edge_anchor(av[1], flags):
                return True
        elif op is C.ATOMIC_GROUP:
            if _edge_anchor(av, flags):
                return True
        elif op is C.GROUPREF_EXISTS:
            if _edge_anchor(av[1], flags) or (av[2] and _edge_anchor(av[2], flags)):
                return True
    return False
