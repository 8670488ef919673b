"""Argv binding: tysh against argparse and click on the same head-like spec, one run.

tysh is measured end to end as the kernel does it: classify the words, bind them against
the schema and build the typed args instance. argparse is measured with `parse_args` and
with `parse_intermixed_args` (options may follow operands; plain `parse_args` cannot bind
`a -c 10 b`), click with `main(..., standalone_mode=False)`.

    .venv/bin/python bench/bind.py [--rounds N]

Budget (issue 2): tysh ≥ 5× faster than argparse `parse_args` on the first three vectors
and ≥ 20× faster than click on all four.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import timeit
from collections.abc import Callable
from typing import Any

import attrs
import click

from tysh.kernel.binder import classify
from tysh.kernel.tooldef import tool
from tysh.kernel.typed_args import bind_and_convert, param

VECTORS = ["-n 5 a.txt b.txt", "-qn5 x", "--lines=3 f", "a -c 10 b"]


@attrs.frozen
class HeadArgs:
    files: tuple[str, ...] = param(positional=True, default=())
    lines: int = param(default=10, aliases=["-n"])
    bytes: int | None = param(default=None, aliases=["-c"])
    quiet: bool = param(default=False, aliases=["-q"])
    verbose: bool = param(default=False, aliases=["-v"])


@tool("head", args=HeadArgs, description="output the first part of files")
def head_tool(args: HeadArgs, ctx: Any) -> int:
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


def per_call_us(fn: Callable[[], Any], rounds: int) -> float:
    """Best of five runs of `rounds` calls, in µs per call (the minimum is the least noisy
    estimate on a shared machine)."""
    return min(timeit.repeat(fn, number=rounds, repeat=5)) / rounds * 1e6


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3000)
    rounds = ap.parse_args().rounds
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

    print(f"{'vector':<20}{'tysh µs':>9}{'argparse':>10}{'intermix':>10}{'click':>9}"
          f"{'× parse':>9}{'× inter':>9}{'× click':>9}")
    failed = []
    for k, v in enumerate(VECTORS):
        words = v.split()
        t = per_call_us(lambda w=words: bind_and_convert(tool_, classify(w)), rounds * 10)
        ok = plain_ok(words)
        a = per_call_us(lambda w=words: parser.parse_args(w), rounds) if ok else float("nan")
        im = per_call_us(lambda w=words: parser.parse_intermixed_args(w), rounds)
        c = per_call_us(lambda w=words: click_head.main(w, standalone_mode=False), rounds)
        ra, ri, rc = a / t, im / t, c / t
        print(f"{v:<20}{t:>9.2f}{a:>10.1f}{im:>10.1f}{c:>9.1f}{ra:>9.1f}{ri:>9.1f}{rc:>9.1f}")
        if k < 3 and not ra >= 5:
            failed.append(f"{v!r}: {ra:.1f}× argparse parse_args (budget 5×)")
        if not rc >= 20:
            failed.append(f"{v!r}: {rc:.1f}× click (budget 20×)")
    if not plain_ok(VECTORS[3].split()):
        print("(argparse parse_args cannot bind 'a -c 10 b': operands after an option)")
    for f in failed:
        print("OVER BUDGET:", f)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
