"""Argv binding: tysh against argparse and click on the same head-like spec, one run.

tysh is measured end to end as the kernel does it: classify the words, bind them against
the schema and build the typed args instance. argparse is measured with `parse_args` and
with `parse_intermixed_args` (options may follow operands; plain `parse_args` cannot bind
`a -c 10 b`), click with `main(..., standalone_mode=False)`. The args class is declared as
tysh's own tools declare theirs (a record); the last column binds the same spec into an
embedder's attrs class.

    .venv/bin/python bench/bind.py [--rounds N] [--calls N] [--wall]

Rounds are interleaved (each round times every binder on every vector once), and the
minimum and median per-call times are reported; ratios are of the minimums (median
ratios in parentheses).

Budget: tysh ≥ 5× faster than argparse `parse_args` on the first three vectors
and ≥ 20× faster than click on all four.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import attrs
import click

from tysh.kernel.base.record import Record, value_record
from tysh.kernel.bind.binder import classify
from tysh.kernel.bind.fast import bind_and_convert
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import tool

VECTORS = ["-n 5 a.txt b.txt", "-qn5 x", "--lines=3 f", "a -c 10 b"]


@value_record
class HeadArgs(Record):
    """Declared as tysh's own tools declare their args."""

    files: tuple[str, ...] = param(positional=True, default=())
    lines: int = param(default=10, aliases=["-n"])
    bytes: int | None = param(default=None, aliases=["-c"])
    quiet: bool = param(default=False, aliases=["-q"])
    verbose: bool = param(default=False, aliases=["-v"])


@attrs.frozen
class AttrsHeadArgs:
    """The same args as an embedder's attrs class (its instances are filled through
    attrs' frozen slots)."""

    files: tuple[str, ...] = param(positional=True, default=())
    lines: int = param(default=10, aliases=["-n"])
    bytes: int | None = param(default=None, aliases=["-c"])
    quiet: bool = param(default=False, aliases=["-q"])
    verbose: bool = param(default=False, aliases=["-v"])


@tool("head", args=HeadArgs, description="output the first part of files")
def head_tool(args: HeadArgs, ctx: Any) -> int:
    return 0


@tool("head", args=AttrsHeadArgs, description="output the first part of files")
def attrs_head_tool(args: AttrsHeadArgs, ctx: Any) -> int:
    return 0


def argparse_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="head")
    p.add_argument("files", nargs="*")
    p.add_argument("-n", "--lines", type=int, default=10)
    p.add_argument("-c", "--bytes", type=int, default=None)
    p.add_argument("-q", "--quiet", action="store_true")
    p.add_argument("-v", "--verbose", action="store_true")
    return p


@click.command()
@click.argument("files", nargs=-1)
@click.option("-n", "--lines", type=int, default=10)
@click.option("-c", "--bytes", "bytes_", type=int, default=None)
@click.option("-q", "--quiet", is_flag=True)
@click.option("-v", "--verbose", is_flag=True)
def click_head(
    files: tuple[str, ...], lines: int, bytes_: int | None, quiet: bool, verbose: bool
) -> tuple[Any, ...]:
    return files, lines, bytes_, quiet, verbose


def _tysh(tool_: Any, words: list[str]) -> Any:
    """What the kernel does with a command's words: classify, bind, build the instance."""
    return bind_and_convert(tool_, classify(words))


def per_call_us(fn: Callable[[], Any], calls: int, timer: Callable[[], float]) -> float:
    """One timed batch of `calls` calls, in µs per call."""
    t0 = timer()
    for _ in range(calls):
        fn()
    return (timer() - t0) / calls * 1e6


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15,
                    help="interleaved rounds (each times every binder once per vector)")
    ap.add_argument("--calls", type=int, default=2000, help="calls per timed batch")
    ap.add_argument("--wall", action="store_true",
                    help="time wall-clock instead of this thread's CPU time")
    opts = ap.parse_args()
    # CPU time of this thread by default: on a shared, busy machine it does not count the
    # time the process spends descheduled, which would otherwise land on whichever binder
    # happened to be running
    timer = time.perf_counter if opts.wall else time.thread_time
    parser = argparse_parser()
    tool_ = head_tool

    def plain_ok(words: list[str]) -> bool:
        with contextlib.redirect_stderr(io.StringIO()):
            try:
                parser.parse_args(words)
            except SystemExit:
                return False
        return True

    # the three parse the same way: check before timing
    for v in VECTORS:
        words = v.split()
        _, _, inst = bind_and_convert(tool_, classify(words))
        ns = parser.parse_intermixed_args(words)
        files, lines, bytes_, quiet, verbose = click_head.main(words, standalone_mode=False)
        assert (inst.files, inst.lines, inst.bytes, inst.quiet, inst.verbose) == (
            tuple(ns.files), ns.lines, ns.bytes, ns.quiet, ns.verbose), v
        assert (inst.files, inst.lines, inst.bytes, inst.quiet) == (
            files, lines, bytes_, quiet), v

    names = ["tysh", "argparse", "intermix", "click", "attrs"]
    runs: dict[str, dict[str, list[float]]] = {v: {k: [] for k in names} for v in VECTORS}
    n = opts.calls
    for _ in range(opts.rounds):  # interleaved: every binder sees the same machine load
        for v in VECTORS:
            words = v.split()
            fns: dict[str, Callable[[], Any]] = {
                "tysh": partial(_tysh, tool_, words),
                "attrs": partial(_tysh, attrs_head_tool, words),
                "intermix": partial(parser.parse_intermixed_args, words),
                "click": partial(click_head.main, words, standalone_mode=False),
            }
            if plain_ok(words):
                fns["argparse"] = partial(parser.parse_args, words)
            for k, fn in fns.items():
                calls = n if k in ("tysh", "attrs") else max(1, n // 10)
                runs[v][k].append(per_call_us(fn, calls, timer))

    print(f"timer: {'wall clock' if opts.wall else 'thread CPU time'}, "
          f"{opts.rounds} interleaved rounds; µs per call, min (median)")
    print(f"{'vector':<18}{'tysh':>14}{'argparse':>15}{'intermix':>15}{'click':>15}"
          f"{'× parse':>14}{'× click':>14}{'attrs class':>16}")
    failed = []

    def stat(xs: list[float]) -> tuple[float, float]:
        return (min(xs), statistics.median(xs)) if xs else (float("nan"), float("nan"))

    for vi, v in enumerate(VECTORS):
        r = runs[v]
        t, a, im, c, at = (stat(r[x]) for x in names)
        ra = (a[0] / t[0], a[1] / t[1])
        rc = (c[0] / t[0], c[1] / t[1])
        print(f"{v:<18}{t[0]:>6.2f} ({t[1]:>5.2f}){a[0]:>7.1f} ({a[1]:>5.1f})"
              f"{im[0]:>7.1f} ({im[1]:>5.1f}){c[0]:>7.1f} ({c[1]:>5.1f})"
              f"{ra[0]:>6.1f} ({ra[1]:>5.1f}){rc[0]:>6.1f} ({rc[1]:>5.1f})"
              f"{at[0]:>8.2f} ({at[1]:>5.2f})")
        if vi < 3 and not ra[0] >= 5:
            failed.append(f"{v!r}: {ra[0]:.1f}× argparse parse_args (budget 5×)")
        if not rc[0] >= 20:
            failed.append(f"{v!r}: {rc[0]:.1f}× click (budget 20×)")
    if not plain_ok(VECTORS[3].split()):
        print("(argparse parse_args cannot bind 'a -c 10 b': operands after an option)")
    for f in failed:
        print("OVER BUDGET:", f)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
