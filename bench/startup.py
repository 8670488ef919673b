"""Cold start in CPU time, side by side in one run (interleaved processes):

1. `tysh -c 'echo hi'` against `python -c pass` (budget: at most 3×);
2. `python -c 'from tysh import Kernel; Kernel().execute("echo hi")'` against
   `python -c pass` (budget: at most 3.5×).

CPU time (user + system, from wait4's rusage) is what is compared: wall time on a shared
machine counts the other engineers' load. The package is byte-compiled first, as an
install leaves it, and each command runs once before timing to warm the parser's table
cache and the OS page cache. Medians of the interleaved runs are compared.

Run: `.venv/bin/python bench/startup.py [--runs N] [--python PY] [--one-liners]`
(`--python` times another installation's interpreter, e.g. a venv built from another
checkout). `--one-liners` also times everyday one-liners the same way, without a budget:
each tool's first use is meant to load only what its options use.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from collections.abc import Sequence

EMBED = 'from tysh import Kernel; Kernel().execute("echo hi")'


def cpu_once(cmd: Sequence[str]) -> float:
    """User + system CPU seconds of one run of cmd (its output read and dropped)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert p.stdout is not None
    while p.stdout.read(1 << 16):
        pass
    p.stdout.close()
    _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"command failed: {' '.join(cmd)}")
    return ru.ru_utime + ru.ru_stime


def interleaved(cmds: dict[str, list[str]], runs: int) -> dict[str, list[float]]:
    """CPU seconds of `runs` runs of each command, taken in turn (after one untimed run
    of each), so machine load falls on all of them alike."""
    for c in cmds.values():
        cpu_once(c)
    t: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(runs):
        for k, c in cmds.items():
            t[k].append(cpu_once(c))
    return t


def measure(python: str, runs: int) -> list[tuple[str, float, float, float, float]]:
    """Rows of (workload, tysh median s, reference median s, ratio, budget)."""
    subprocess.run([python, "-m", "compileall", "-q", "-x", r"/tests?/",
                    os.path.dirname(_tysh_pkg(python))], check=True,
                   stdout=subprocess.DEVNULL)
    tysh = os.path.join(os.path.dirname(python), "tysh")
    cli = [tysh] if os.path.exists(tysh) else [python, "-m", "tysh"]
    cmds = {
        "cli": [*cli, "-c", "echo hi"],
        "embed": [python, "-c", EMBED],
        "py": [python, "-c", "pass"],
    }
    t = interleaved(cmds, runs)
    py = statistics.median(t["py"])
    cli_m = statistics.median(t["cli"])
    emb_m = statistics.median(t["embed"])
    return [
        ("cold tysh -c 'echo hi' (CPU)", cli_m, py, cli_m / py, 3.0),
        ("cold Kernel().execute('echo hi') (CPU)", emb_m, py, emb_m / py, 3.5),
    ]


ONE_LINERS = [
    "cat in.txt | sort | uniq -c | sort -rn | head -n 3",
    "grep -n apple in.txt",
    "sed -n 2p in.txt",
    "cut -c1-3 in.txt | tr a-z A-Z",
    "awk '{print $1}' in.txt",
    "wc -l in.txt",
    "ls -l",
    "find . -name '*.txt'",
    "date +%Y >/dev/null",
    "set -e; read x <<< hi; echo $x",
]


def one_liners(python: str, runs: int) -> list[tuple[str, float, float]]:
    """(script, tysh -c median CPU s, ratio to python -c pass) for each ONE_LINERS
    script, run in a directory holding a small in.txt."""
    import tempfile

    tysh = os.path.join(os.path.dirname(python), "tysh")
    cli = [tysh] if os.path.exists(tysh) else [python, "-m", "tysh"]
    old = os.getcwd()
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "in.txt"), "w") as f:
            f.write("pear\napple\nfig\napple\nkiwi\n")
        os.chdir(d)
        try:
            cmds = {src: [*cli, "-c", src] for src in ONE_LINERS}
            cmds[""] = [python, "-c", "pass"]
            t = interleaved(cmds, runs)
        finally:
            os.chdir(old)
    py = statistics.median(t.pop(""))
    return [(src, statistics.median(v), statistics.median(v) / py) for src, v in t.items()]


def _tysh_pkg(python: str) -> str:
    out = subprocess.run([python, "-c", "import tysh; print(tysh.__file__)"],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    return out.strip()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--one-liners", action="store_true",
                    help="also time everyday one-liners against python -c pass (no budget)")
    a = ap.parse_args()
    ok = True
    for name, ours, ref, ratio, budget in measure(a.python, a.runs):
        met = ratio <= budget
        ok &= met
        print(f"{name:42} tysh {ours*1e3:6.1f} ms  python -c pass {ref*1e3:5.1f} ms  "
              f"ratio {ratio:4.2f}x  budget ≤ {budget}x  {'ok' if met else 'OVER'}")
    if a.one_liners:
        for src, ours, ratio in one_liners(a.python, a.runs):
            print(f"  tysh -c {src!r:52} {ours * 1e3:6.1f} ms  {ratio:4.2f}x python -c pass")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
