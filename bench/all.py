"""Every speed budget in one run, printed as one table: workload, tysh, reference, ratio,
budget, ok. Each line is measured side by side with its reference in the same run
(interleaved), so machine load hits both alike: a ratio is the median of the ratios of
each pair of runs taken one after the other (these machines change speed for seconds at
a time), the cold-start rows' as startup.py takes them. The single-script benchmarks
beside this file (startup.py, lang.py, fs_walk.py, bind.py, parse.py) give more detail
on each.

    .venv/bin/python bench/all.py [--quick] [--only cold,warm,loops,fs,memory,bind,parse]

--quick takes fewer runs (a smoke test of the script, not a measurement). Exits 1 when
a budget is not met. Needs bash and GNU grep on PATH for the whole-process references.
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

Row = tuple[str, str, str, float, str, bool]  # workload, tysh, reference, ratio, budget, ok

BASH = shutil.which("bash")
PY = sys.executable


def _tysh() -> list[str]:
    exe = os.path.join(os.path.dirname(PY), "tysh")
    return [exe] if os.path.exists(exe) else [PY, "-m", "tysh"]


def _cpu(cmd: list[str], cwd: str | None = None) -> float:
    from startup import cpu_once

    if cwd is None:
        return cpu_once(cmd)
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return cpu_once(cmd)
    finally:
        os.chdir(old)


def _pair(a: list[str], b: list[str], runs: int,
          cwd: str | None = None) -> tuple[float, float, float]:
    """Median CPU seconds of two commands run in turn, and the median of the ratios of
    each pair of runs. The ratio is taken pair by pair because these machines change
    speed for seconds at a time (by as much as 1.6×): a run of A in a slow spell is set
    against the run of B beside it, not against B's median over the whole call."""
    _cpu(a, cwd)
    _cpu(b, cwd)
    ta, tb = [], []
    for _ in range(runs):
        ta.append(_cpu(a, cwd))
        tb.append(_cpu(b, cwd))
    ratio = statistics.median(x / y for x, y in zip(ta, tb, strict=True))
    return statistics.median(ta), statistics.median(tb), ratio


def _ms(s: float) -> str:
    return f"{s * 1e3:.1f} ms"


def cold_start(runs: int) -> list[Row]:
    from startup import measure

    return [(name, _ms(ours), f"python -c pass {_ms(ref)}", ratio, f"≤ {budget}×",
             ratio <= budget) for name, ours, ref, ratio, budget in measure(PY, runs)]


def warm(n: int) -> list[Row]:
    from tysh.kernel.embed.kernel import Kernel

    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as d:
        Path(d, "in.txt").write_text("pear\napple\nfig\napple\nkiwi\n")
        k = Kernel(cwd=d)
        for name, src, budget, want in [
            ("warm execute('echo hi')", "echo hi", 10e-6, "hi\n"),
            ("warm 5-builtin pipeline, small input",
             "cat in.txt | sort | uniq | tr a-z A-Z | head -n 2", 60e-6, "APPLE\nFIG\n"),
        ]:
            r = k.execute(src)
            assert r.out == want, r
            for _ in range(n // 10):
                k.execute(src)
            rounds = []
            for _ in range(7):
                t0 = time.perf_counter()
                for _ in range(n):
                    k.execute(src)
                rounds.append((time.perf_counter() - t0) / n)
            med = statistics.median(rounds)
            rows.append((name, f"{med * 1e6:.1f} µs", "-", med / budget,
                         f"≤ {budget * 1e6:.0f} µs", med <= budget))
    return rows


LOOPS = [
    ("for ((…)) arithmetic loop, 100,000",
     "x=0; for ((i=0;i<100000;i++)); do x=$((x+i)); done; echo $x"),
    ("while [ $i -lt N ] loop, 100,000",
     "i=0; x=0; while [ $i -lt 100000 ]; do x=$((x+i)); i=$((i+1)); done; echo $x"),
    ("shell-function loop, 10,000 calls",
     "f() { r=$(( $1 + 1 )); }; i=0; while [ $i -lt 10000 ]; do f $i; i=$((i+1)); done; "
     "echo $r"),
    ("shell-function loop, local and return, 10,000 calls",
     "f() { local r=$1; return 0; }; i=0; while [ $i -lt 10000 ]; do f $i; i=$((i+1)); done"),
    ("shell-function loop, echo >/dev/null, 10,000 calls",
     "f() { echo $1 >/dev/null; }; i=0; while [ $i -lt 10000 ]; do f $i; i=$((i+1)); done"),
]


def loops(runs: int) -> list[Row]:
    rows: list[Row] = []
    if BASH is None:
        return rows
    for name, src in LOOPS:
        ours = subprocess.run([*_tysh(), "-c", src], capture_output=True, text=True).stdout
        theirs = subprocess.run([BASH, "-c", src], capture_output=True, text=True).stdout
        assert ours == theirs, (name, ours, theirs)
        a, b, r = _pair([*_tysh(), "-c", src], [BASH, "--norc", "--noprofile", "-c", src], runs)
        rows.append((name + " (CPU)", _ms(a), f"bash {_ms(b)}", r, "≤ 1.5×", r <= 1.5))
    return rows


FS_CASES = [("grep -r", "grep -r needle . | wc -l"), ("find", "find . -type f | wc -l"),
            ("ls -R", "ls -R | wc -l"), ("du", "du -a . | wc -l")]


def fs(files: int, runs: int) -> list[Row]:
    from fs_walk import make_tree

    from tysh.kernel.base.limits import Limits
    from tysh.kernel.embed.kernel import Kernel
    from tysh.kernel.fs.local import LocalFileSystem

    rows: list[Row] = []
    tmp = tempfile.mkdtemp(prefix="tysh-bench-all-")
    try:
        make_tree(tmp, files)
        lim = Limits(max_output_bytes=None)
        confined = Kernel(cwd=tmp, limits=lim)
        local = Kernel(cwd=tmp, fs=LocalFileSystem(), limits=lim)
        for name, src in FS_CASES:
            rc, rl = confined.execute(src), local.execute(src)
            assert (rc.code, rc.out) == (rl.code, rl.out), (name, rc, rl)
            tc, tl = [], []
            for _ in range(runs):
                for k, acc in ((confined, tc), (local, tl)):
                    # each run starts with no garbage of the other's: a full collection
                    # triggered by what one kernel left must not be timed on the other
                    gc.collect()
                    t0 = time.process_time()
                    k.execute(src)
                    acc.append(time.process_time() - t0)
            c, u = statistics.median(tc), statistics.median(tl)
            r = statistics.median(x / y for x, y in zip(tc, tl, strict=True))  # per pair
            rows.append((f"confined {name}, {files} files (CPU)", _ms(c), f"unconfined {_ms(u)}",
                         r, "≤ 1.3×", r <= 1.3))
        if BASH is not None and shutil.which("grep"):
            src = "grep -r needle . | wc -l"
            a, b, r = _pair([*_tysh(), "-c", src], [BASH, "--norc", "--noprofile", "-c", src],
                            runs, cwd=tmp)
            rows.append((f"tysh -c 'grep -r', {files} files (CPU)", _ms(a),
                         f"bash + GNU grep {_ms(b)}", r, "≤ 2×", r <= 2))
    finally:
        shutil.rmtree(tmp)
    return rows


def _peak_mib(cmd: list[str], cwd: str) -> float:
    """Peak RSS of a command in MiB, from GNU time where there is one (a C launcher adds
    nothing to what is read), else from _timing's small Python launcher."""
    gnu_time = "/usr/bin/time"
    if os.path.exists(gnu_time):
        p = subprocess.run([gnu_time, "-f", "%M", *cmd], cwd=cwd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True, check=True)
        return int(p.stderr.split()[-1]) / 1024
    from _timing import peak_rss_kib

    return peak_rss_kib(cmd, cwd=cwd) / 1024


def memory() -> list[Row]:
    with tempfile.TemporaryDirectory() as d:
        line = b"0123456789abcdef" * 4 + b"\n"
        with open(os.path.join(d, "big.txt"), "wb") as f:
            f.write(line * (20 * 2**20 // len(line)))
        ours = _peak_mib([*_tysh(), "-c", "cat big.txt | wc -l"], d)
        ref = _peak_mib([PY, "-c", "pass"], d)
    return [("peak RSS tysh -c 'cat 20MB | wc -l'", f"{ours:.1f} MiB",
             f"python -c pass {ref:.1f} MiB", ours / ref, "≤ python + 10 MiB",
             ours <= ref + 10)]


BIND_VECTORS = ["-n 5 a b", "-qn5 x", "--lines=3 f", "-vc10 f", "-- -dashfile", "a b c"]


def bind(rounds: int, calls: int) -> list[Row]:
    from bind import argparse_parser, head_tool

    from tysh.kernel.bind.binder import classify
    from tysh.kernel.bind.fast import bind_and_convert

    parser = argparse_parser()
    vectors = [v.split() for v in BIND_VECTORS]
    for w in vectors:
        inst = bind_and_convert(head_tool, classify(w))[2]
        ns = parser.parse_args(w)
        assert (inst.files, inst.lines, inst.bytes, inst.quiet, inst.verbose) == (
            tuple(ns.files), ns.lines, ns.bytes, ns.quiet, ns.verbose), w

    def batch(fn: Callable[[list[str]], object], n: int) -> float:
        t0 = time.thread_time()
        for _ in range(n):
            for w in vectors:
                fn(w)
        return (time.thread_time() - t0) / (n * len(vectors))

    ours, theirs = [], []
    for _ in range(rounds):
        ours.append(batch(lambda w: bind_and_convert(head_tool, classify(w)), calls))
        theirs.append(batch(parser.parse_args, max(1, calls // 10)))
    a, b = statistics.median(ours), statistics.median(theirs)
    # each round's ratio, as for the whole-process rows: a round's two batches run at the
    # same machine speed
    r = statistics.median(t / o for t, o in zip(theirs, ours, strict=True))
    return [("bind, GNU head vectors (per vector)", f"{a * 1e6:.2f} µs",
             f"argparse parse_args {b * 1e6:.1f} µs", r, "≥ 10× faster", r >= 10)]


def parse(repeat: int) -> list[Row]:
    from parse import generate

    from tysh.kernel.syntax.parser import parse_uncached

    parse_uncached("echo warm-up\n")
    scripts = {"generated scripts": ["\n".join(generate(2000)) + "\n"]}
    sys.path.insert(0, str(HERE.parent / "tests"))
    try:
        from conformance import corpus

        corpus_scripts = []
        for name in ("lang", "tools"):
            for c in corpus.cases(name):
                if c.script is None:
                    continue
                try:
                    parse_uncached(c.script)
                except Exception:  # a case about a syntax error: not parse throughput
                    continue
                corpus_scripts.append(c.script)
        scripts["corpus scripts"] = corpus_scripts
    except ImportError:
        pass
    rows: list[Row] = []
    for name, srcs in scripts.items():
        chars = sum(len(s) for s in srcs)
        best = float("inf")
        for _ in range(repeat):
            t0 = time.process_time()
            for s in srcs:
                parse_uncached(s)
            best = min(best, time.process_time() - t0)
        rate = chars / best
        rows.append((f"parse, {name} ({chars // 1000} k chars, best)", f"{rate / 1e6:.2f} M/s",
                     "-", rate / 1e6, "≥ 1 M chars/s", rate >= 1e6))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="few runs: check the script works")
    ap.add_argument("--only", default="", metavar="STEPS",
                    help="comma-separated steps to run (cold,warm,loops,fs,memory,bind,parse)")
    a = ap.parse_args()
    q = a.quick
    steps: list[tuple[str, Callable[[], list[Row]]]] = [
        ("cold start", lambda: cold_start(3 if q else 15)),
        ("warm", lambda: warm(200 if q else 2000)),
        ("loops", lambda: loops(1 if q else 15)),
        ("fs", lambda: fs(1000 if q else 10_000, 1 if q else 7)),
        ("memory", memory),
        ("bind", lambda: bind(3 if q else 15, 200 if q else 1000)),
        ("parse", lambda: parse(1 if q else 5)),
    ]
    if a.only:
        wanted = a.only.split(",")
        steps = [(n, f) for n, f in steps if n.split()[0] in wanted]
    from tysh.kernel.base.cache import cache_dir

    if cache_dir() is None:
        # a user's machine has ~/.cache, where tysh keeps the code it generates (the
        # tools' fast binders) as Python keeps .pyc files; a machine without one (a
        # container's root) would time a compile on every start: give the runs one
        cache = tempfile.mkdtemp(prefix="tysh-bench-cache-")
        os.environ["TYSH_CACHE_DIR"] = cache
        print(f"(no ~/.cache: tysh's code cache is {cache})", file=sys.stderr)
    rows: list[Row] = []
    t0 = time.perf_counter()
    for name, step in steps:
        print(f"measuring {name}…", file=sys.stderr, flush=True)
        rows.extend(step())
    widths = [max(len(str(r[i])) for r in rows) for i in (0, 1, 2)]
    head = ("workload", "tysh", "reference")
    print(f"{head[0]:{widths[0]}}  {head[1]:>{widths[1]}}  {head[2]:{widths[2]}}  "
          f"{'ratio':>7}  {'budget':18}  ok")
    for w, ours, ref, ratio, budget, ok in rows:
        print(f"{w:{widths[0]}}  {ours:>{widths[1]}}  {ref:{widths[2]}}  {ratio:7.2f}  "
              f"{budget:18}  {'yes' if ok else 'NO'}")
    print(f"({time.perf_counter() - t0:.0f} s; ratio: tysh/reference, or for bind "
          "argparse/tysh, the median of each pair of runs' (or rounds') ratio; for absolute "
          "budgets tysh/budget)")
    return 0 if all(r[5] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
