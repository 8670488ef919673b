"""shuf (GNU coreutils 9.1): output a random permutation of lines, arguments or a range.

-i LO-HI never materialises the range when only -n N of it is wanted (random.sample on
a range); -r repeats forever unless -n caps it, written in blocks until the reader stops.
--random-source=FILE makes the output deterministic by seeding from FILE's bytes; the
permutation differs from GNU's for the same file (GNU draws its own way from the bytes)."""

from __future__ import annotations

import random

from tysh.builtins._common.lines import VALUE_ITEMS, slurp
from tysh.builtins._common.operands import (
    InputStatus,
    open_input,
    open_output,
    rewrites_input,
)
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO

_RANGE = LazyRegex(r"(\d+)-(\d+)")
_BLOCK = 4096


@value_record
class ShufArgs(Record):
    operands: tuple[str, ...] = param(positional=True, default=(),
                                      help="FILE (default stdin), or with -e the lines")
    echo: bool = param(default=False, aliases=["-e"], help="treat each operand as an input line")
    input_range: str | None = param(default=None, aliases=["-i"],
                                    help="LO-HI: treat each number LO..HI as an input line")
    head_count: str | None = param(default=None, aliases=["-n"], help="output at most N lines")
    output: str | None = param(default=None, aliases=["-o"], help="write the result to FILE")
    random_source: str | None = param(default=None,
                                      help="get random bytes from FILE (deterministic output)")
    repeat: bool = param(default=False, aliases=["-r"], help="output lines can be repeated")
    zero_terminated: bool = param(default=False, aliases=["-z"],
                                  help="lines end with NUL, not newline")


def _usage(ctx: Context, message: str) -> int:
    ctx.error(message)
    ctx.stderr.write(b"Try 'shuf --help' for more information.\n")
    return 1


def _rng(ctx: Context, source: str | None) -> random.Random | None:
    if source is None:
        return random.Random()
    status = InputStatus()
    f = open_input(ctx, source, status)
    if f is None:
        return None
    try:
        seed = f.read(1 << 16)
    finally:
        if f is not ctx.stdin:
            f.close()
    if not seed:
        ctx.error(f"{source}: end of file")
        return None
    return random.Random(seed)


# what one picked line or number costs held in the output list, and its output text
_PICK_BYTES = 48
# the largest -i bound (GNU takes unsigned 64-bit; a range must also have a length)
_RANGE_MAX = (1 << 63) - 1


def _read_lines(ctx: Context, f: IO[bytes], delim: bytes) -> list[bytes]:
    data = slurp(ctx, f, sep=delim)
    if not data:
        return []
    parts = data.split(delim)
    if parts[-1] == b"":
        parts.pop()
    return parts


@tool(
    "shuf", kind="read",
    args=ShufArgs,
    description="output a random permutation of input lines; --json gives the lines (numbers with -i)",
    examples=[
        ("pick one random line", "shuf -n 1 quotes.txt"),
        ("dice rolls", "shuf -i 1-6 -r -n 10"),
        ("shuffle words", "shuf -e red green blue"),
    ],
    operations=["fs.overwrite"],
)
def shuf(args: ShufArgs, ctx: Context) -> ToolReturn:
    delim = b"\0" if args.zero_terminated else b"\n"
    if args.echo and args.input_range is not None:
        return _usage(ctx, "cannot combine -e and -i options")
    count: int | None = None
    if args.head_count is not None:
        t = args.head_count.strip()
        if not t.isdigit():
            ctx.error(f"invalid line count: '{args.head_count}'")
            return 1
        count = int(t)
    lines: list[bytes] | range
    if args.input_range is not None:
        m = _RANGE.fullmatch(args.input_range)
        if m is None or int(m.group(2)) + 1 < int(m.group(1)) \
                or int(m.group(2)) >= _RANGE_MAX:
            ctx.error(f"invalid input range: '{args.input_range}'")
            return 1
        if args.operands:
            return _usage(ctx, f"extra operand '{args.operands[0]}'")
        lines = range(int(m.group(1)), int(m.group(2)) + 1)
    elif args.echo:
        lines = [a.encode("utf-8", "surrogateescape") for a in args.operands]
    else:
        if len(args.operands) > 1:
            return _usage(ctx, f"extra operand '{args.operands[1]}'")
        lines = []
        if count != 0 or args.repeat:
            status = InputStatus()
            f = open_input(ctx, args.operands[0] if args.operands else "-", status)
            if f is None:
                return 1
            try:
                lines = _read_lines(ctx, f, delim)
            finally:
                if f is not ctx.stdin:
                    f.close()
    rng = _rng(ctx, args.random_source)
    if rng is None:
        return 1
    if args.repeat:
        if not len(lines):
            if count:
                ctx.error("no lines to repeat")
                return 1
            return 0
        if count is None:
            return _forever(ctx, lines, rng, delim)
        ctx.hold(count * _PICK_BYTES)
        picked: list[bytes | int] = [lines[rng.randrange(len(lines))] for _ in range(count)]
    else:
        n = len(lines) if count is None else min(count, len(lines))
        ctx.hold(n * _PICK_BYTES)
        picked = list(rng.sample(lines, n))
    return _emit(args, ctx, picked, delim)


def _text(v: bytes | int) -> bytes:
    return b"%d" % v if isinstance(v, int) else v


def _emit(args: ShufArgs, ctx: Context, picked: list[bytes | int],
          delim: bytes) -> ToolReturn:
    out = b"".join(_text(v) + delim for v in picked)
    if args.output is not None:
        try:
            if not args.echo and rewrites_input(ctx, args.output, args.operands):
                with ctx.fs.replace(ctx.path(args.output)) as f:
                    f.write(out)
            else:
                with open_output(ctx, args.output) as f:
                    f.write(out)
        except FsError as e:
            ctx.error(f"{args.output}: {e.reason}")
            return 1
        out = b""
    if ctx.json:
        return Outcome(code=0, output=OutputData.text(
            out.decode("utf-8", "surrogateescape"),
            rich_json=_value(picked) if args.output is None else ""))
    ctx.stdout.write(out)
    if args.output is not None or len(picked) > VALUE_ITEMS:
        return 0
    return Outcome(code=0, output=OutputData.value(lambda: _value(picked)))


def _value(picked: list[bytes | int]) -> list[int | str]:
    """The lines picked (numbers under -i), in the order written."""
    return [v if isinstance(v, int) else v.decode("utf-8", "surrogateescape") for v in picked]


def _forever(ctx: Context, lines: list[bytes] | range, rng: random.Random, delim: bytes) -> int:
    """-r without -n: draw until the reader goes away (a closed pipe ends the stage)."""
    n = len(lines)
    write, cancelled = ctx.stdout.write, ctx.shell.cancelled
    while not cancelled():
        write(b"".join(_text(lines[rng.randrange(n)]) + delim for _ in range(_BLOCK)))
    return 1


TOOLS = [shuf]
