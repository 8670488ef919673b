"""awk one-liners over a 20 MB text file: tysh's in-process awk (a warm Kernel.execute
and a whole `tysh --no-external -c` process) against mawk, and gawk when installed, side
by side in one run; min of interleaved runs.

    python bench/awk.py [--runs N] [--only SUBSTRING]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from _timing import run_once  # noqa: E402
from pipelines import WORDS, in_process  # noqa: E402


def make_data(path: str, size: int, seed: int = 7) -> None:
    """Lines of `word number word…`: $1 a word, $2 an integer, then 2–8 words."""
    rnd = random.Random(seed)
    lines: list[str] = []
    total = 0
    while total < size:
        words = [rnd.choice(WORDS), str(rnd.randint(0, 999))]
        words += [rnd.choice(WORDS) for _ in range(rnd.randint(2, 8))]
        if rnd.random() < 0.01:
            words.append("needle")
        line = " ".join(words) + "\n"
        lines.append(line)
        total += len(line)
    with open(path, "w") as f:
        f.writelines(lines)


PROGRAMS = [
    "{print $1}",
    "{s+=$2} END{print s}",
    "{print}",
    "/needle/{n++} END{print n}",
    "$2>500{c++} END{print c}",
    "!seen[$1]++",
    "{n+=split($0, a)} END{print n}",
    '{gsub(/a/,"A"); print}',
    '{printf "%-10s %5d\\n", $1, $2}',
]


def shell_quote(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--size-mb", type=int, default=20)
    here = os.path.join(os.path.dirname(sys.executable), "tysh")
    ap.add_argument("--tysh", default=here if os.path.exists(here) else shutil.which("tysh"))
    ns = ap.parse_args()
    tysh = os.path.abspath(ns.tysh) if ns.tysh and os.sep in ns.tysh else ns.tysh or "tysh"
    mawk = shutil.which("mawk")
    gawk = shutil.which("gawk")
    if mawk is None:
        raise SystemExit("mawk is needed as the reference")
    tmp = tempfile.mkdtemp(prefix="tysh-awk-bench-")
    try:
        make_data(os.path.join(tmp, "big.txt"), ns.size_mb * 1024 * 1024)
        print("seconds, min of interleaved runs; ratios against mawk. 'in-proc': a warm "
              "Kernel.execute; 'tysh': a whole `tysh --no-external -c` process")
        head = f"{'program':36} {'in-proc':>8} {'tysh':>8} {'mawk':>8}"
        head += f" {'gawk':>8}" if gawk else ""
        head += f" {'in/mawk':>7} {'ty/mawk':>7}" + (f" {'in/gawk':>7}" if gawk else "")
        print(head)
        for prog in PROGRAMS:
            if ns.only and ns.only not in prog:
                continue
            script = f"awk {shell_quote(prog)} big.txt"
            cmds = {"tysh": [tysh, "--no-external", "-c", script],
                    "mawk": [mawk, prog, "big.txt"]}
            if gawk:
                cmds["gawk"] = [gawk, prog, "big.txt"]
            times: dict[str, list[float]] = {k: [] for k in cmds}
            warm: list[float] = []
            for _ in range(ns.runs):
                warm.append(in_process(script, tmp, 1, unlimited_output=True))
                for name, cmd in cmds.items():
                    times[name].append(run_once(cmd, tmp)[0])
            best = {k: min(v) for k, v in times.items()}
            w = min(warm)
            m = best["mawk"]
            row = f"{prog:36} {w:8.3f} {best['tysh']:8.3f} {m:8.3f}"
            row += f" {best['gawk']:8.3f}" if gawk else ""
            row += f" {w / m:7.2f} {best['tysh'] / m:7.2f}"
            row += f" {w / best['gawk']:7.2f}" if gawk else ""
            print(row, flush=True)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
