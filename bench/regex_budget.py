"""Calibrate kernel.text.cost: Python `re` on worst-case subjects for patterns of each
shape, against the steps the cost model allows for them. The largest ns-per-step seen
(CPU time of the calling thread, min of runs) is what cost.STEP_NS must cover.

    python bench/regex_budget.py [--runs N] [--steps S]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections.abc import Callable
from re import _parser  # type: ignore[attr-defined]

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tysh.kernel.text import cost  # noqa: E402

Subject = Callable[[int], str]
a: Subject = lambda n: "a" * n  # noqa: E731
ab: Subject = lambda n: "ab" * (n // 2)  # noqa: E731
al: Subject = lambda n: "al" * (n // 2)  # noqa: E731
sp: Subject = lambda n: " " * (n - 1) + "x"  # noqa: E731
wd: Subject = lambda n: "ab " * (n // 3)  # noqa: E731

# (pattern, flags, subject, call): each a worst case the author could find for its shape
SHAPES: list[tuple[str, int, Subject, str]] = [
    ("[ab]c", 0, a, "search"),
    ("(?i)[ab]c", 0, a, "search"),
    ("(?:ab|ac|ad|ae|af|ag|ah|ai)", 0, a, "search"),
    ("(?:aa|a){8}x", 0, a, "search"),
    ("a?a?a?a?a?a?aaaaaax", 0, a, "search"),
    ("\\w\\w\\w\\w\\w\\w\\w\\wx", 0, a, "search"),
    ("(?<!b)a(?=a)", 0, lambda n: "ab" * (n // 2), "search"),
    ("[ab]*c", 0, a, "search"),
    ("(?i)a*b", 0, a, "search"),
    ("\\w+x", 0, a, "search"),
    ("(?:ab)*c", 0, ab, "search"),
    ("(a)*c", 0, a, "search"),
    ("(?:ab|cd)*x", 0, ab, "search"),
    ("\\ *$", re.M, sp, "search"),
    ("al[^\\n]*ha", re.M, al, "search"),
    ("[a-z]+ ([a-z]+)!", 0, wd, "search"),
    ("a*?b", 0, a, "search"),
    ("(?i)[a-z]*\\d", 0, a, "search"),
    ("(?:a|bc)*d", 0, a, "search"),
    ("(?=a*b)", 0, a, "search"),
    ("(?!a*$)a", 0, lambda n: "a" * (n - 1) + "b", "search"),
    ("(?s:.*)\\.txt", 0, a, "fullmatch"),
    ("a*a*c", 0, a, "search"),
    ("(?:ab)*(?:ab)*c", 0, ab, "search"),
    ("\\w+\\w+x", 0, a, "search"),
    ("(a*)\\1x", 0, a, "search"),
    ("a*a*a*c", 0, a, "search"),
    ("(?s:.*)a(?s:.*)a(?s:.*)b", 0, a, "fullmatch"),
    ("(?s:.*)a(?s:.*)a(?s:.*)a(?s:.*)b", 0, a, "fullmatch"),
]


def model_ns(c: cost.Cost, call: str, n: int) -> float:
    f = {"search": c.search_ns, "match": c.match_ns, "fullmatch": c.fullmatch_ns}[call]
    return float(f(n)) / cost.STEP_NS


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--steps", type=float, default=3e7, help="model steps per measurement")
    ns = ap.parse_args()
    print(f"{'pattern':40} {'call':9} {'n':>7} {'deg':>3} {'ms':>8} {'ns/step':>8}")
    worst = 0.0
    for src, flags, subject, call in SHAPES:
        c = cost.assess(_parser.parse(src, flags))
        if c.risky:
            print(f"{src:40} risky")
            continue
        lo, hi = 1, 1
        while model_ns(c, call, hi) < ns.steps:
            lo, hi = hi, hi * 2
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if model_ns(c, call, mid) < ns.steps else (lo, mid)
        n = lo
        rx = re.compile(src, flags)
        fn = getattr(rx, call)
        s = subject(n)
        best = float("inf")
        for _ in range(ns.runs):
            t0 = time.thread_time()
            fn(s)
            best = min(best, time.thread_time() - t0)
        per = best * 1e9 / model_ns(c, call, len(s))
        worst = max(worst, per)
        deg = c.full_degree if call == "fullmatch" else c.degree
        print(f"{src:40} {call:9} {len(s):7} {deg:3} {best * 1e3:8.2f} {per:8.3f}", flush=True)
    print(f"worst ns per step: {worst:.3f} (cost.STEP_NS = {cost.STEP_NS})")


if __name__ == "__main__":
    main()
