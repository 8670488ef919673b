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
    ("needle", "re"),                       # literals keep re's per-call speed
    ("^#|foo", "re"),                       # one alternation, no repetition
    ("a{3}b", "re"),                        # an exact count of a branch-free body
    ("(?<!\\w)(?:foo)(?!\\w)", "re"),        # grep -w: lookarounds over safe parts
    ("(a|a)*b", "re2"),                     # exponential for re, linear for RE2
    ("\\d+x", "re2"),                       # quadratic for re
    ("a?" * 30 + "a" * 30, "re2"),
    ("(a*)*\\1b", "regex"),                 # a back-reference: only a backtracker
    ("\\bfoo.*", "regex"),                  # a Unicode word boundary on text
    ("(a*)*b", "regex"),                    # a group in a loop that can match empty
    ("a{1001,}", "regex"),                  # RE2 refuses counts above 1000
])
def test_the_engine_is_chosen_by_what_the_pattern_can_cost(source: str, expected: str) -> None:
    assert engine.engine_of(engine.compile(source)) == expected


def test_a_word_boundary_on_bytes_runs_on_re2() -> None:
    assert engine.engine_of(engine.compile(rb"\bfoo.*")) == "re2"


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
    p = engine.compile("é+.")
    s = "aé\udc80éééb" * 3
    assert engine.engine_of(p) == "re2"
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
