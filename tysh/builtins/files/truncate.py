"""truncate (GNU coreutils 9.1): shrink or extend files to a size.

`-s [+-<>/%]SIZE` sets, grows, shrinks, caps, floors or rounds the size; `-r FILE` takes
FILE's size (and with a relative -s, adjusts it). Files are changed through ctx.fs:
opened read-write and cut or grown with truncate() — a host file grows sparse, as GNU's
does, so growing costs no disk — or, where a file object cannot grow that way (the
in-memory filesystems), by writing zeros in blocks that honour the time limit."""

from __future__ import annotations

import os

from tysh.builtins._common.fileinfo import q
from tysh.builtins._common.operands import CHUNK
from tysh.kernel.base.lazyre import IGNORECASE, LazyRegex
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO


@value_record
class TruncateArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="files to resize")
    size: str | None = param(default=None, aliases=["-s"],
                             help="[+-<>/%]SIZE: set, grow, shrink, at most, at least, "
                                  "round down, round up to SIZE (K M G…, KB MB…)")
    no_create: bool = param(default=False, aliases=["-c"], help="do not create any files")
    reference: str | None = param(default=None, aliases=["-r"], help="use RFILE's size")
    io_blocks: bool = param(default=False, aliases=["-o"],
                            help="treat SIZE as a number of 4096-byte blocks")


_SIZE = LazyRegex(r"([-+<>/%]?)\s*(\d+)([KMGTPEZY]?)(iB|B)?", IGNORECASE)
_POWERS = "KMGTPEZY"
OFF_MAX = (1 << 63) - 1  # the largest file offset (off_t)


def parse_size(text: str) -> tuple[str, int] | None:
    """(operator, bytes) of a -s argument, or None when it is not a size."""
    m = _SIZE.fullmatch(text.strip())
    if m is None:
        return None
    op, digits, letter, unit = m.groups()
    if unit and not letter:
        return None
    n = int(digits)
    if letter:
        power = _POWERS.index(letter.upper()) + 1
        n *= (1000 if unit == "B" else 1024) ** power
    return op, n


def _usage(ctx: Context, message: str) -> int:
    ctx.error(message)
    ctx.stderr.write(b"Try 'truncate --help' for more information.\n")
    return 1


@tool(
    "truncate", kind="write",
    args=TruncateArgs,
    description="shrink or extend files to a size (GNU truncate); growing adds zero bytes",
    examples=[
        ("empty a log without removing it", "truncate -s 0 app.log"),
        ("make a 1 MiB file of zeros", "truncate -s 1M disk.img"),
        ("round a size up to 4 KiB", "truncate -s %4K blob"),
    ],
    operations=["fs.create", "fs.overwrite"],
)
def truncate(args: TruncateArgs, ctx: Context) -> ToolReturn:
    if args.size is None and args.reference is None:
        return _usage(ctx, "you must specify either \u2018--size\u2019 or \u2018--reference\u2019")
    op, amount = "", 0
    if args.size is not None:
        parsed = parse_size(args.size)
        if parsed is None:
            ctx.error(f"Invalid number: \u2018{args.size}\u2019")
            return 1
        op, amount = parsed
        if args.io_blocks:
            amount *= 4096
        if amount > OFF_MAX:
            ctx.error(f"Invalid number: \u2018{args.size}\u2019: Value too large for defined data type")
            return 1
        if op in "/%" and op and amount == 0:
            ctx.error("division by zero")
            return 1
    if args.size is not None and args.reference is not None and not op:
        return _usage(ctx, "you must specify a relative \u2018--size\u2019 with \u2018--reference\u2019")
    if not args.files:
        return _usage(ctx, "missing file operand")
    ref_size: int | None = None
    if args.reference is not None:
        try:
            ref_size = ctx.fs.stat(ctx.path(args.reference)).size
        except FsError as e:
            ctx.error(f"cannot stat {q(args.reference)}: {e.reason}")
            return 1
    code = 0
    done: list[dict[str, object]] = []  # the files resized: {"path", "size"}
    for name in args.files:
        path = ctx.path(name)
        try:
            exists = ctx.fs.exists(path)
            if not exists and args.no_create:
                continue
            if exists and ctx.fs.is_dir(path):
                ctx.error(f"cannot open {q(name)} for writing: Is a directory")
                code = 1
                continue
            current = ctx.fs.stat(path).size if exists else 0
        except FsError as e:
            ctx.error(f"cannot open {q(name)} for writing: {e.reason}")
            code = 1
            continue
        base = ref_size if ref_size is not None else current
        target = _target(op, amount, base) if args.size is not None else base
        if target > OFF_MAX:
            how = "rounding up" if op == "%" else "extending"
            ctx.error(f"overflow {how} size of file {q(name)}")
            code = 1
            continue
        try:
            _resize(ctx, path, exists, current, target)
            done.append({"path": name, "size": target})
        except FsError as e:
            ctx.error(f"cannot open {q(name)} for writing: {e.reason}")
            code = 1
        except OSError as e:
            ctx.error(f"failed to truncate {q(name)} at {target} bytes: "
                      f"{os.strerror(e.errno or 0)}")
            code = 1
    if ctx.json:
        return Outcome(code=code, output=OutputData.text("", rich_json=done))
    return Outcome(code=code, output=OutputData.value(lambda: done))


def _target(op: str, n: int, size: int) -> int:
    if op == "+":
        return size + n
    if op == "-":
        return max(0, size - n)
    if op == "<":
        return min(size, n)
    if op == ">":
        return max(size, n)
    if op == "/":
        return size - size % n
    if op == "%":
        return -(-size // n) * n
    return n


def _resize(ctx: Context, path: str, exists: bool, current: int, target: int) -> None:
    if not exists:
        with ctx.fs.open(path, "wb") as f:
            _grow(ctx, f, 0, target)
        return
    if target == current:
        return
    with ctx.fs.open(path, "r+b") as f:
        if target < current:
            f.truncate(target)
        else:
            _grow(ctx, f, current, target)


def _grow(ctx: Context, f: IO[bytes], current: int, target: int) -> None:
    f.truncate(target)
    end = f.seek(0, 2)
    if end >= target:
        return
    write = f.write
    n = target - end
    block = b"\0" * min(n, CHUNK)
    while n > 0:
        ctx.shell.check_boundary()
        k = min(n, CHUNK)
        write(block if k == len(block) else block[:k])
        n -= k


TOOLS = [truncate]
