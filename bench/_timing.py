"""Side-by-side timing helpers: runs are interleaved so both commands see the same
machine load, and the minimum and median are reported (these machines are noisy)."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

# Output goes to a pipe that is read and dropped, never to /dev/null: GNU grep notices a
# /dev/null stdout and stops at the first match (as if -q), which times a different job.
#
# Runs a command and prints its children's peak RSS in KiB. wait4's rusage for a child of
# this (large) process reads at least this process's own size — vfork shares its memory
# until exec — so peaks are measured from this small launcher instead.
_PEAK = (
    "import resource, subprocess, sys\n"
    "r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    "sys.exit(r.returncode)\n"
)


def peak_rss_kib(cmd: Sequence[str], cwd: str | None = None) -> int:
    """Peak RSS in KiB of one run of a command (the largest process it waited for)."""
    out = subprocess.run([sys.executable, "-c", _PEAK, *cmd], cwd=cwd, check=True,
                         stdout=subprocess.PIPE).stdout
    return int(out.split()[-1])


def run_once(cmd: Sequence[str], cwd: str | None = None) -> tuple[float, int]:
    """Wall time of one process and its peak RSS in KiB (from wait4's rusage: never
    below this process's own peak; see peak_rss_kib)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None
    while p.stdout.read(1 << 16):
        pass
    p.stdout.close()
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        err = p.stderr.read().decode() if p.stderr else ""
        raise SystemExit(f"command failed ({p.returncode}): {' '.join(cmd)}\n{err}")
    if p.stderr:
        p.stderr.close()
    return dt, ru.ru_maxrss


def compare(
    a: Sequence[str], b: Sequence[str], runs: int = 5, cwd: str | None = None
) -> dict[str, float]:
    """Interleaved runs of two commands; returns min/median seconds and peak RSS."""
    ta: list[float] = []
    tb: list[float] = []
    for _ in range(runs):
        ta.append(run_once(a, cwd)[0])
        tb.append(run_once(b, cwd)[0])
    ma = peak_rss_kib(a, cwd)
    mb = peak_rss_kib(b, cwd)
    return {
        "a_min": min(ta),
        "a_med": statistics.median(ta),
        "b_min": min(tb),
        "b_med": statistics.median(tb),
        "ratio_min": min(ta) / min(tb),
        "ratio_med": statistics.median(ta) / statistics.median(tb),
        "a_rss_mb": ma / 1024,
        "b_rss_mb": mb / 1024,
    }


def self_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
