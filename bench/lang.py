"""The language's speed budgets (issue 3), measured side by side in one run:

1. cold start: `tysh -c 'echo hi'` against `python -c pass` (interleaved processes;
   budget: at most 6×);
2. warm `Kernel.execute("echo hi")` in-process (budget: under 100 µs);
3. the arithmetic loop `x=0; for ((i=0;i<1000;i++)); do x=$((x+i)); done` run warm
   in-process by tysh against bash running the same loop as a subprocess
   (budget: at most 2× bash).

Run: `.venv/bin/python bench/lang.py [--runs N]`. Minimums are compared (the least noisy
estimate on a shared machine); medians are printed too.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))

from _timing import compare, run_once  # noqa: E402

LOOP = "x=0; for ((i=0;i<1000;i++)); do x=$((x+i)); done; echo $x"


def _tysh_cmd() -> list[str]:
    exe = os.path.join(os.path.dirname(sys.executable), "tysh")
    return [exe] if os.path.exists(exe) else [sys.executable, "-m", "tysh"]


def cold_start(runs: int) -> dict[str, float]:
    # Byte-compile the package first, as an install does: with PYTHONDONTWRITEBYTECODE set
    # (common in containers), a module edited since its .pyc was written would otherwise
    # be recompiled from source on every run and counted as start-up time.
    import compileall

    import tysh

    compileall.compile_dir(os.path.dirname(tysh.__file__), quiet=1)
    run_once([*_tysh_cmd(), "-c", "echo hi"])  # warm the parser's table cache
    return compare([*_tysh_cmd(), "-c", "echo hi"], [sys.executable, "-c", "pass"], runs)


def warm_echo(n: int) -> tuple[float, float]:
    from tysh.kernel.embed.kernel import Kernel

    with tempfile.TemporaryDirectory() as d:
        k = Kernel(cwd=d)
        for _ in range(200):
            k.execute("echo hi")
        rounds = []
        for _ in range(5):
            t = time.perf_counter()
            for _ in range(n):
                k.execute("echo hi")
            rounds.append((time.perf_counter() - t) / n)
    return min(rounds), statistics.median(rounds)


def arith_loop(runs: int) -> tuple[list[float], list[float]]:
    from tysh.kernel.embed.kernel import Kernel

    bash = shutil.which("bash")
    ours: list[float] = []
    theirs: list[float] = []
    with tempfile.TemporaryDirectory() as d:
        k = Kernel(cwd=d)
        r = k.execute(LOOP)
        assert r.out == "499500\n", r
        for _ in range(runs):
            t = time.perf_counter()
            k.execute(LOOP)
            ours.append(time.perf_counter() - t)
            if bash:
                theirs.append(run_once([bash, "--norc", "--noprofile", "-c", LOOP])[0])
    return ours, theirs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--echo-n", type=int, default=2000)
    a = ap.parse_args()

    c = cold_start(a.runs)
    print(f"cold start  tysh -c 'echo hi'  min {c['a_min']*1e3:7.1f} ms  med {c['a_med']*1e3:7.1f} ms")
    print(f"            python -c pass     min {c['b_min']*1e3:7.1f} ms  med {c['b_med']*1e3:7.1f} ms")
    print(f"            ratio              min {c['ratio_min']:.2f}x  med {c['ratio_med']:.2f}x   (budget ≤ 6x)")

    best, med = warm_echo(a.echo_n)
    print(f"warm execute('echo hi')        min {best*1e6:7.1f} µs  med {med*1e6:7.1f} µs   (budget < 100 µs)")

    ours, theirs = arith_loop(a.runs)
    print(f"arith loop  tysh in-process    min {min(ours)*1e3:7.1f} ms  med {statistics.median(ours)*1e3:7.1f} ms")
    if theirs:
        print(f"            bash subprocess    min {min(theirs)*1e3:7.1f} ms  med {statistics.median(theirs)*1e3:7.1f} ms")
        print(f"            ratio              min {min(ours)/min(theirs):.2f}x  "
              f"med {statistics.median(ours)/statistics.median(theirs):.2f}x   (budget ≤ 2x)")
    else:
        print("            bash not found: no ratio")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
