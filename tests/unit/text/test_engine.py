"""kernel.text.engine: which engine runs a pattern, and that every engine matches what
Python's `re` matches (a seeded differential over generated patterns and subjects;
TYSH_ENGINE_FUZZ=N runs N patterns instead of the CI default)."""

from __future__ import annotations

import os
import random
import re
import threading
import time

import pytest

from tysh.kernel.base import stop
from tysh.kernel.base.limits import TimedOut
from tysh.kernel.text import engine


@pytest.mark.parametrize(("source", "expected"), [
    ("needle", "re"),                       # a literal: re's substring search, any length
    ("^#|foo", "bounded"),                  # re up to a length, RE2 past it
    ("a{3}b", "bounded"),
    ("(?<!\\w)(?:foo)(?!\\w)", "bounded"),   # grep -w: lookarounds over safe parts
    ("\\d+x", "bounded"),                   # quadratic for re: bounded by length
    ("(?:ab|cd)*x", "bounded"),             # branches with distinct first letters
    ("(a|a)*b", "re2"),                     # exponential for re, linear for RE2
    ("(aa|a)*b", "re2"),
    ("(a|ab)*c", "re2"),                    # branches that overlap inside a loop
    ("(x+x)+y", "re2"),                     # a loop inside a loop
    ("(x+y)+z", "bounded"),                 # ... unless it must stop before the next
    ("(?:aa|a){30}x", "re2"),               # an exact count of an ambiguous body
    ("a?" * 30 + "a" * 30, "re2"),          # 2**30 paths without any loop
    ("(a*)*\\1b", "regex"),                 # a back-reference: only a backtracker
    ("(a*)*b", "regex"),                    # a group in a loop that can match empty
    ("(?:(?i:a)|A)*b", "re2"),              # distinct literals that fold to one letter
    ("(?:x|(a))(?(1)a*|b)*c", "regex"),     # a conditional: the regex module has it
])
def test_the_engine_is_chosen_by_what_the_pattern_can_cost(source: str, expected: str) -> None:
    assert engine.engine_of(engine.compile(source)) == expected


@pytest.mark.parametrize(("source", "fallback"), [
    ("\\d+x", "re2"),
    ("\\bfoo.*", "regex"),                  # a Unicode word boundary on text
    ("a{1001,}", "regex"),                  # RE2 refuses counts above 1000
    ("(a+)\\1", "regex"),
])
def test_a_bounded_pattern_runs_past_its_limit_on_an_engine_that_cannot_freeze(
        source: str, fallback: str) -> None:
    p = engine.compile(source)
    assert engine.engine_of(p) == "bounded"
    assert engine.engine_of(p.fallback()) == fallback


def test_a_word_boundary_on_bytes_runs_on_re2() -> None:
    assert engine.engine_of(engine.compile(rb"\bfoo.*").fallback()) == "re2"


# -- the bounds: worst-case subjects just under and just over each limit -------------

# (pattern, flags, call, worst-case subject of length n): one per shape of cost
_WORST = [
    ("(?:aa|a){8}x", 0, "search", lambda n: "a" * n),           # many paths, no loop
    ("\\w+x", 0, "search", lambda n: "a" * n),                  # one loop
    ("(?i)a*b", 0, "search", lambda n: "a" * n),
    ("\\ *$", re.M, "search", lambda n: " " * (n - 1) + "x"),
    ("(a)*c", 0, "search", lambda n: "a" * n),                  # a general loop
    ("a*?b", 0, "search", lambda n: "a" * n),                   # lazy
    ("(?=a*b)", 0, "search", lambda n: "a" * n),                # a loop in a lookahead
    ("a*a*c", 0, "search", lambda n: "a" * n),                  # two loops
    ("\\w+\\w+x", 0, "search", lambda n: "a" * n),
    ("(a*)\\1x", 0, "search", lambda n: "a" * n),               # a back-reference
    ("(?s:.*)a(?s:.*)a(?s:.*)b", 0, "fullmatch", lambda n: "a" * n),  # a shell glob
    ("\\d+x", 0, "match", lambda n: "1" * n),
]
# seconds of this thread's CPU: the budget is 25 ms on a quick machine; a slow one running
# the suite on both cores measured up to 0.15 s for the longest linear subjects (11 MB),
# while a pattern that escaped its bound would take seconds
_CPU_LIMIT = 0.25


@pytest.mark.parametrize(("source", "flags", "call", "subject"), _WORST,
                         ids=[w[0] for w in _WORST])
def test_a_worst_case_just_under_and_just_over_the_limit_returns_within_budget(
        source: str, flags: int, call: str, subject: object) -> None:
    p = engine.compile(source, flags)
    assert engine.engine_of(p) == "bounded"
    limit = {"search": p.limit, "match": p.match_limit, "fullmatch": p.full_limit}[call]
    ref = re.compile(source, flags)
    for n in (limit, limit + 1):
        s = subject(n)  # type: ignore[operator]
        # the cost is the least of three runs: a busy machine slows one run's caches
        # and clock, not the work the engine does
        took = _CPU_LIMIT
        for _ in range(3):
            t0 = time.thread_time()
            got = getattr(p, call)(s)
            took = min(took, time.thread_time() - t0)
            if took < _CPU_LIMIT / 2:
                break
        assert took < _CPU_LIMIT, (n, took)
        want = getattr(ref, call)(s) if n <= limit else getattr(ref, call)(s[:200])
        if n <= limit:
            assert (got and got.span()) == (want and want.span())


def test_a_block_of_short_lines_runs_on_re_window_by_window_and_a_long_line_elsewhere() -> None:
    p = engine.compile("a[^\\n]*c", re.M)
    assert p._windowed
    long_line = "a" * (4 * p.limit)
    block = "".join(["ab\n"] * 3000 + [long_line + "\n"] + ["xac\n", "abc\n"] * 2000)
    ref = re.compile(p.pattern, re.M)
    t0 = time.thread_time()
    got = [m.span() for m in p.finditer(block)]
    assert time.thread_time() - t0 < 2 * _CPU_LIMIT
    assert got == [m.span() for m in ref.finditer(block)]
    assert p.findall(block) == ref.findall(block)
    assert p.sub("<\\g<0>>", block) == ref.sub("<\\g<0>>", block)
    assert p.subn("-", block, 1500) == ref.subn("-", block, 1500)
    assert p.search(block, 10, len(block) - 5).span() == ref.search(block, 10, len(block) - 5).span()
    assert [r[2] is p._re for r in engine.windows(p, block)].count(False) == 1


def test_a_line_tool_gets_re_itself_when_no_line_is_too_long() -> None:
    p = engine.compile("a*a*b")
    assert engine.for_lines(p, "aaa\nab\n" * 1000) is p._re
    assert engine.for_lines(p, "ab\n" + "a" * (p.limit + 1) + "\nab") is p
    assert engine.for_lines(engine.compile("(a|aa)*b"), "ab") is not p._re


def test_line_chunks_cover_the_text_in_pieces_of_whole_lines_with_a_stop_check_between() -> None:
    p = engine.compile("a*a*b")
    text = ("a" * (p.limit - 1) + "\n") * 200 + "a" * (3 * p.limit) + "\nab"
    pieces = list(engine.line_chunks(p, text))
    assert "".join(t for t, _ in pieces) == text
    assert all(t.endswith("\n") for t, _ in pieces[:-1]) and len(pieces) > 20
    assert all(len(t) <= engine.CHUNK_LIMITS * p.limit for t, r in pieces if r is p._re)
    calls = []

    def check() -> None:
        calls.append(1)
        if len(calls) == 3:
            raise TimedOut(1.0)

    with stop.checking(check), pytest.raises(TimedOut):
        for _ in engine.line_chunks(p, text):
            pass
    assert [r for _, r in engine.line_chunks(engine.compile("needle"), text)] == [
        engine.compile("needle")]


def test_a_tail_that_can_scan_ahead_and_fail_is_costed_at_every_position() -> None:
    # `(?:a*b)?` reads the rest of the text at each position to match nothing there: a
    # finditer over n characters is quadratic, not linear
    p = engine.compile("(?:a*b)?")
    assert engine.engine_of(p) == "bounded" and p.limit < 20_000
    t0 = time.thread_time()
    assert len(list(p.finditer("a" * p.limit))) == p.limit + 1
    assert p.sub("", "a" * (p.limit + 1)) == "a" * (p.limit + 1)
    assert time.thread_time() - t0 < 2 * _CPU_LIMIT


def test_a_loop_of_one_case_followed_by_a_folded_letter_is_not_taken_to_stop_once() -> None:
    tree = engine._parser.parse("(?i)(?-i:a)*A")
    items = list(tree)
    assert not engine.cost._stops_once(*items[0], items[1:], tree.state.flags)


@pytest.mark.parametrize("source", [
    "(a*)(?:\\1)*x",        # a back-reference in a loop: the loop's width needs the groups
    "(.*a){20}",             # a bound past the float range
    "(?:x|(a))(?(1)a*|b)*c",
])
def test_patterns_the_model_strains_on_compile_and_match_as_re_does(source: str) -> None:
    p = engine.compile(source)
    ref = re.compile(source)
    for s in ["", "x", "aax", "ac", "xac", "xaaac", "bbbc", "a" * 25, "ab" * 12 + "c"]:
        assert _results(p, s, 0, len(s)) == _results(ref, s, 0, len(s)), s


def test_a_pattern_too_costly_for_any_useful_length_never_runs_on_re() -> None:
    assert engine.engine_of(engine.compile("a*a*a*a*c")) == "re2"


def test_re2_answers_a_pattern_that_freezes_re() -> None:
    p = engine.compile("(a|a)*b")
    t0 = time.monotonic()
    assert p.search("a" * 5000) is None
    assert time.monotonic() - t0 < 1


def test_re2_runs_without_the_interpreter_lock() -> None:
    p = engine.compile("(?:a|b)*a(?:a|b){14}c")
    text = "ab" * 3_000_000
    gaps: list[float] = []
    done = threading.Event()

    def tick() -> None:
        last = time.monotonic()
        while not done.is_set():
            time.sleep(0.005)
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    th = threading.Thread(target=tick)
    th.start()
    t0 = time.monotonic()
    p.search(text)
    took = time.monotonic() - t0
    done.set()
    th.join()
    assert took < 0.2 or max(gaps) < took / 2


def test_a_runaway_backtrack_stops_at_the_stop_check() -> None:
    p = engine.compile("^(a|a)*b", engine="regex")
    deadline = time.monotonic() + 0.3

    def check() -> None:
        if time.monotonic() >= deadline:
            raise TimedOut()

    t0 = time.monotonic()
    with stop.checking(check), pytest.raises(TimedOut):
        p.search("a" * 60 + "cb")
    assert time.monotonic() - t0 < 1.5


def test_templates_and_groups_match_re() -> None:
    p = engine.compile("(?P<w>[a-z]+)(x*)=(\\d+)")
    ref = re.compile(p.pattern)
    s = "ab=1 cdxx=22 é=3"
    for t in ("<\\g<0>>", "\\3:\\1", "\\g<w>\\2\\n\\\\", "\\0101"):
        assert p.sub(t, s) == ref.sub(t, s)
    assert [m.groupdict() for m in p.finditer(s)] == [m.groupdict() for m in ref.finditer(s)]
    assert p.split(s) == ref.split(s)
    assert p.findall(s) == ref.findall(s)
    with pytest.raises(re.error):
        p.sub("\\9", s)


def test_offsets_are_characters_on_non_ascii_text() -> None:
    p = engine.compile("é+.", engine="re2")
    s = "aé\udc80éééb" * 3
    assert [m.span() for m in p.finditer(s, 1, 15)] == [
        m.span() for m in re.compile("é+.").finditer(s, 1, 15)]


# -- the differential ---------------------------------------------------------------

_ATOMS = ["a", "b", "İ", "ı", "é", ".", "[ab]", "[^a]", "\\w", "\\W", "\\s", "\\d",
          "[^\\S\\n]", "\\n", "x", "K", "k", "[a-z]", "[^\\w\\n]", "\u212a"]
_CHARS = "abİıéxK\u212ak \n1_-\udc80"
_FLAGS = [0, re.I, re.M, re.S, re.I | re.M, re.A, re.A | re.I]


def _gen(rnd: random.Random, depth: int = 0) -> str:
    out: list[str] = []
    for _ in range(rnd.randint(1, 4)):
        r = rnd.random()
        if r < 0.5 or depth > 1:
            a = rnd.choice(_ATOMS)
        elif r < 0.7:
            a = "(" + _gen(rnd, depth + 1) + "|" + _gen(rnd, depth + 1) + ")"
        elif r < 0.8:
            a = "(?:" + _gen(rnd, depth + 1) + ")"
        else:
            out.append(rnd.choice(["^", "$", "\\A", "\\Z", "\\b", "\\B"]))
            continue
        out.append(a + rnd.choice(["", "", "*", "+", "?", "{2}", "{1,3}", "*?", "+?"]))
    return "".join(out)


def _results(p: object, s: object, pos: int, end: int) -> list[object]:
    t = "<\\g<0>>" if isinstance(s, str) else b"<\\g<0>>"
    m = p.search(s, pos, end)  # type: ignore[attr-defined]
    groups = p.groups  # type: ignore[attr-defined]
    return [
        m and (m.span(), [m.span(i) for i in range(1, groups + 1)]),
        (m := p.match(s, pos, end)) and m.span(),  # type: ignore[attr-defined]
        (m := p.fullmatch(s, pos, end)) and m.span(),  # type: ignore[attr-defined]
        [x.span() for x in p.finditer(s, pos, end)],  # type: ignore[attr-defined]
        p.sub(t, s),  # type: ignore[attr-defined]
        p.split(s),  # type: ignore[attr-defined]
    ]


@pytest.mark.parametrize("seed", [1, 2])
def test_every_engine_matches_what_re_matches(seed: int) -> None:
    rnd = random.Random(seed)
    n = int(os.environ.get("TYSH_ENGINE_FUZZ", "600"))
    compared = {"re2": 0, "regex": 0}
    for _ in range(n):
        src = _gen(rnd)
        if len(src) > 30:  # re itself backtracks for too long on bigger ones
            continue
        flags = rnd.choice(_FLAGS)
        source: str | bytes = src
        if rnd.random() < 0.2:
            source, flags = src.encode("utf-8", "surrogateescape"), flags & ~re.A
        try:
            ref = re.compile(source, flags)
        except re.error:
            continue
        for name in ("re2", "regex"):
            try:
                p = engine.compile(source, flags, engine=name)  # type: ignore[arg-type]
            except engine.Unsupported:
                continue
            if name == "re2" and engine._capture_in_nullable_loop(
                    engine._parser.parse(source, flags)):
                continue  # never chosen for RE2 (see the module doc)
            compared[name] += 1
            for _ in range(3):
                s: str | bytes = "".join(rnd.choice(_CHARS) for _ in range(rnd.randint(0, 8)))
                if isinstance(source, bytes):
                    s = s.encode("utf-8", "surrogateescape")
                pos = rnd.randint(0, len(s))
                end = rnd.randint(pos, len(s))
                assert _results(p, s, pos, end) == _results(ref, s, pos, end), (
                    name, source, flags, s, pos, end)
    assert compared["re2"] > n // 4 and compared["regex"] > n // 4


@pytest.mark.parametrize("seed", [3, 4])
def test_a_bounded_pattern_matches_what_re_matches_on_either_side_of_its_limit(
        seed: int) -> None:
    """Limits shrunk to a few characters, so that windows of lines, long lines on the
    other engine and the per-call choice all meet short random multi-line texts."""
    rnd = random.Random(seed)
    n = int(os.environ.get("TYSH_ENGINE_FUZZ", "600"))
    compared = windowed = 0
    for _ in range(n):
        src = _gen(rnd)
        if len(src) > 30:
            continue
        flags = rnd.choice(_FLAGS)
        source: str | bytes = src
        if rnd.random() < 0.2:
            source, flags = src.encode("utf-8", "surrogateescape"), flags & ~re.A
        try:
            ref = re.compile(source, flags)
        except re.error:
            continue
        tree = engine._parser.parse(source, flags)
        c = engine.cost.assess(tree)
        if c.risky:
            continue
        limit = rnd.randint(0, 6)
        p = engine.BoundedPattern(ref, tree, c, (limit, limit, limit), min_window=1)
        compared += 1
        windowed += p._windowed
        for _ in range(3):
            s: str | bytes = "".join(rnd.choice(_CHARS + "\n\n") for _ in range(rnd.randint(0, 24)))
            if isinstance(source, bytes):
                s = s.encode("utf-8", "surrogateescape")
            pos = rnd.randint(0, len(s))
            end = rnd.randint(pos, len(s))
            assert _results(p, s, pos, end) == _results(ref, s, pos, end), (
                source, flags, limit, s, pos, end)
            assert p.findall(s, pos, end) == ref.findall(s, pos, end)
            dash = "-" if isinstance(s, str) else b"-"
            assert p.subn(dash, s, 2) == ref.subn(dash, s, 2)
    assert compared > n // 4 and windowed > n // 20
