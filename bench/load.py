"""Load test: N kernels in threads, each running a mixed script M times (issue 5).

Each kernel is isolated (its own in-memory filesystem and session); every result is
checked against the expected output, so the run proves isolation as well as speed.
Prints throughput (scripts/s) and latency percentiles.

    .venv/bin/python bench/load.py              # 16 kernels × 200 runs
    .venv/bin/python bench/load.py 4 50         # smaller
"""

from __future__ import annotations

import statistics
import sys
import threading
import time

from tysh.kernel.embed.kernel import Kernel

# loops, functions, $(…), arithmetic, pipelines of builtins, grep/sed/sort, files
MIXED = r"""
square() { echo $(( $1 * $1 )); }
total=0
for i in $(seq 1 20); do
  total=$(( total + $(square $i) ))
done
echo "total=$total id=$ID"
printf '%s\n' pear apple fig apple kiwi banana > fruit.txt
sort fruit.txt | uniq -c | sort -rn | head -n 2 | sed 's/^ *//'
grep -c a fruit.txt
seq 1 200 | grep 7 | sed 's/7/seven/' | wc -l
n=0; while [ $n -lt 30 ]; do n=$((n+1)); done; echo "n=$n"
words=$(echo "the quick brown fox" | tr ' ' '\n' | sort | tr '\n' ,)
echo "$words"
case "$ID" in k*) echo "kernel $ID";; *) echo other;; esac
"""


def expected(kid: str) -> str:
    return (
        f"total=2870 id={kid}\n"
        "2 apple\n1 pear\n"
        "4\n"
        "38\n"
        "n=30\n"
        "brown,fox,quick,the,\n"
        f"kernel {kid}\n"
    )


def run_load(kernels: int, runs: int) -> dict[str, float]:
    """Run the load; raises AssertionError on the first wrong result."""
    latencies: list[list[float]] = [[] for _ in range(kernels)]
    errors: list[str] = []
    start_gate = threading.Barrier(kernels + 1)

    def worker(i: int) -> None:
        kid = f"k{i}"
        k = Kernel.isolated(env={"ID": kid})
        want = expected(kid)
        start_gate.wait()
        for _ in range(runs):
            t = time.perf_counter()
            r = k.execute(MIXED)
            latencies[i].append(time.perf_counter() - t)
            if r.code != 0 or r.out != want or r.err:
                errors.append(f"{kid}: code={r.code} out={r.out!r} err={r.err!r}")
                return

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(kernels)]
    for t in threads:
        t.start()
    start_gate.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    assert not errors, errors[0]
    flat = sorted(x for lat in latencies for x in lat)
    return {
        "scripts": len(flat),
        "wall_s": wall,
        "throughput": len(flat) / wall,
        "p50_ms": statistics.median(flat) * 1000,
        "p95_ms": flat[int(0.95 * (len(flat) - 1))] * 1000,
        "max_ms": flat[-1] * 1000,
    }


def main() -> None:
    kernels = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    Kernel.isolated().execute(MIXED)  # warm the caches (parser tables, builtin modules)
    s = run_load(kernels, runs)
    print(f"{kernels} kernels × {runs} runs = {s['scripts']:.0f} scripts, all correct")
    print(f"wall {s['wall_s']:.2f}s  throughput {s['throughput']:.1f} scripts/s")
    print(f"latency p50 {s['p50_ms']:.1f} ms  p95 {s['p95_ms']:.1f} ms  max {s['max_ms']:.1f} ms")


if __name__ == "__main__":
    main()
