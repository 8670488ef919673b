"""sed script shapes over a 20 MB text file: tysh's in-process sed (a warm
Kernel.execute) and whole `tysh --no-external -c` processes against GNU sed under bash,
side by side in one run (min of interleaved runs).

    python bench/sed.py [--runs N] [--only SUBSTRING]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from _timing import compare, run_once  # noqa: E402
from pipelines import in_process, make_text  # noqa: E402

SHAPES = [
    "sed 's/alpha/ALPHA/g' big.txt",
    "sed -n '100,200p' big.txt",
    "sed '/needle/d' big.txt",
    "sed -n '/needle/p' big.txt",
    "sed -n '/needle/,/omega psi/p' big.txt",
    "sed 's/alpha/A/;s/beta/B/' big.txt",
    "sed '1d;$d' big.txt",
    "sed -n '$p' big.txt",
    "sed '/needle/s/a/b/g' big.txt",
    "sed 'y/abc/xyz/' big.txt",
    "sed '2i\\\\text' big.txt",
    "sed = big.txt",
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--no-process", action="store_true", help="skip whole-process timings")
    here = os.path.join(os.path.dirname(sys.executable), "tysh")
    ap.add_argument("--tysh", default=here if os.path.exists(here) else shutil.which("tysh"))
    ns = ap.parse_args()
    tysh = os.path.abspath(ns.tysh) if ns.tysh and os.sep in ns.tysh else ns.tysh or "tysh"
    tmp = tempfile.mkdtemp(prefix="tysh-bench-sed-")
    make_text(os.path.join(tmp, "big.txt"), 20 * 1024 * 1024)
    print("in-proc: warm Kernel.execute of `SCRIPT > /dev/null` vs GNU sed (bash -c), min of "
          "runs;\nprocess: whole `tysh --no-external -c` vs `bash -c`, min of interleaved runs")
    print(f"{'script':42} {'GNU s':>7} {'in-proc':>8} {'ratio':>6} {'tysh s':>7} {'ratio':>6}")
    for script in SHAPES:
        if ns.only not in script:
            continue
        r = compare([tysh, "--no-external", "-c", script] if not ns.no_process else ["true"],
                    ["bash", "--norc", "--noprofile", "-c", script], ns.runs, cwd=tmp)
        warm = in_process(script + " > /dev/null", tmp, ns.runs)
        proc = "" if ns.no_process else f"{r['a_min']:7.3f} {r['ratio_min']:6.2f}"
        print(f"{script:42} {r['b_min']:7.3f} {warm:8.3f} {warm / r['b_min']:6.2f} {proc}",
              flush=True)
    if not ns.no_process:  # what every whole-process ratio carries before sed runs
        start = min(run_once([tysh, "--no-external", "-c", ":"], tmp)[0] for _ in range(5))
        print(f"start-up: tysh -c : {start * 1e3:.1f} ms")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
