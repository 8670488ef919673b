"""Pipelines over a 20 MB text file: tysh's in-process builtins against bash with GNU
tools, side by side in one run (issue 4's budget: within 3x).

    python bench/pipelines.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from _timing import compare, run_once  # noqa: E402

WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi "
         "omicron pi rho sigma tau upsilon phi chi psi omega").split()


def make_text(path: str, size: int, seed: int = 7) -> None:
    rnd = random.Random(seed)
    lines: list[str] = []
    total = 0
    while total < size:
        n = rnd.randint(3, 12)
        words = [rnd.choice(WORDS) for _ in range(n)]
        if rnd.random() < 0.01:
            words.insert(rnd.randint(0, n), "needle")
        line = " ".join(words) + "\n"
        lines.append(line)
        total += len(line)
    with open(path, "w") as f:
        f.writelines(lines)


CASES = [
    ("cat f | grep needle | wc -l", "big.txt"),
    ("grep -c needle big.txt", "big.txt"),
    ("sort small.txt | uniq -c | sort -rn | head", "small.txt"),
    ("cat big.txt | wc -l", "big.txt"),
]


def in_process(script: str, cwd: str, runs: int, unlimited_output: bool = False) -> float:
    """Fastest time of the script in a warm Kernel: the pipeline's own work. With
    `unlimited_output`, output kept in memory (as execute() returns it) may be any size."""
    from tysh.kernel.base.limits import Limits
    from tysh.kernel.embed.kernel import Kernel

    k = Kernel(cwd=cwd, limits=Limits(max_output_bytes=None)) if unlimited_output \
        else Kernel(cwd=cwd)
    k.execute(script)
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        res = k.execute(script)
        best = min(best, time.perf_counter() - t0)
        if res.code != 0:
            raise SystemExit(f"in-process run failed ({res.code}): {script}\n{res.err}")
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    here = os.path.join(os.path.dirname(sys.executable), "tysh")
    ap.add_argument("--tysh", default=here if os.path.exists(here) else shutil.which("tysh"))
    ns = ap.parse_args()
    # the commands run in the temporary folder: a relative path would not resolve there
    tysh = os.path.abspath(ns.tysh) if ns.tysh and os.sep in ns.tysh else ns.tysh or "tysh"
    tmp = tempfile.mkdtemp(prefix="tysh-bench-")
    make_text(os.path.join(tmp, "big.txt"), 20 * 1024 * 1024)
    make_text(os.path.join(tmp, "small.txt"), 2 * 1024 * 1024, seed=11)
    os.symlink("big.txt", os.path.join(tmp, "f"))
    print("whole processes (min of interleaved runs; ratio of medians too), peak RSS;\n"
          "'in-proc': the same script in a warm Kernel.execute (no interpreter start-up)")
    print(f"{'pipeline':45} {'tysh s':>8} {'bash s':>8} {'ratio':>6} {'r(med)':>6} "
          f"{'in-proc':>8} {'ratio':>6} {'tysh MB':>8} {'bash MB':>8}")
    for script, _ in CASES:
        r = compare([tysh, "--no-external", "-c", script],
                    ["bash", "--norc", "--noprofile", "-c", script], ns.runs, cwd=tmp)
        warm = in_process(script, tmp, ns.runs)
        print(f"{script:45} {r['a_min']:8.3f} {r['b_min']:8.3f} {r['ratio_min']:6.2f} "
              f"{r['ratio_med']:6.2f} {warm:8.3f} {warm / r['b_min']:6.2f} "
              f"{r['a_rss_mb']:8.1f} {r['b_rss_mb']:8.1f}")
    # What any Python shell pays before its first command: the interpreter, then attrs
    # (a required dependency), then tysh's own start-up. Whole-process ratios cannot beat
    # (start-up + in-process work) / bash.
    starts = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "python -c 'import attrs'": [sys.executable, "-c", "import attrs"],
        "tysh -c :": [tysh, "--no-external", "-c", ":"],
    }
    best = {name: min(run_once(cmd, tmp)[0] for _ in range(ns.runs * 2))
            for name, cmd in starts.items()}
    print("start-up, min of runs: " + ", ".join(f"{n} {t * 1e3:.1f} ms" for n, t in best.items()))
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
