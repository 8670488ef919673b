"""cmp (GNU diffutils 3.8): compare two files byte by byte.

Status 0 when equal, 1 when they differ (or one is a prefix of the other: `EOF on …`),
2 on trouble. Both inputs are read in equal blocks; equal blocks are compared whole."""

from __future__ import annotations

from tysh.builtins._common.lines import VALUE_ITEMS
from tysh.builtins._common.operands import CHUNK, InputStatus, is_stdin, open_input
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any


@value_record
class CmpArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(),
                                   help="FILE1 [FILE2 [SKIP1 [SKIP2]]]; - is stdin")
    verbose: bool = param(default=False, aliases=["-l"],
                          help="output byte numbers and differing byte values")
    silent: bool = param(default=False, aliases=["-s", "--quiet"],
                         help="suppress all normal output; the status tells")
    print_bytes: bool = param(default=False, aliases=["-b"], help="print differing bytes")
    bytes: str | None = param(default=None, aliases=["-n"], help="compare at most LIMIT bytes")
    ignore_initial: str | None = param(default=None, aliases=["-i"],
                                       help="skip SKIP bytes of both inputs (or SKIP1:SKIP2)")


_SUFFIX = {"kB": 1000, "K": 1024, "KiB": 1024, "MB": 10**6, "M": 1 << 20, "MiB": 1 << 20,
           "GB": 10**9, "G": 1 << 30, "GiB": 1 << 30, "TB": 10**12, "T": 1 << 40}


def _count(text: str) -> int | None:
    """A byte count: decimal, 0x hex or 0 octal, with an optional kB K MiB … suffix."""
    for suf in sorted(_SUFFIX, key=len, reverse=True):
        if text.endswith(suf) and text != suf:
            base = _count(text[: -len(suf)])
            return None if base is None else base * _SUFFIX[suf]
    try:
        if text.lower().startswith("0x"):
            n = int(text[2:], 16)
        elif len(text) > 1 and text.startswith("0"):
            n = int(text[1:], 8)
        else:
            n = int(text, 10)
    except ValueError:
        return None
    return n if n >= 0 else None


def show_byte(b: int) -> str:
    """cat -v's form of a byte (`M-^@`, `^J`, `a`), as cmp -b prints it."""
    s = ""
    if b >= 128:
        s = "M-"
        b -= 128
    if b < 32:
        return f"{s}^{chr(b + 64)}"
    if b == 127:
        return f"{s}^?"
    return s + chr(b)


def _read_full(f: IO[bytes], n: int) -> bytes:
    """Up to n bytes, reading again after a short read (pipes)."""
    parts: list[bytes] = []
    while n > 0:
        got = f.read(n)
        if not got:
            break
        parts.append(got)
        n -= len(got)
    return b"".join(parts)


def _skip(f: IO[bytes], n: int, stdin: bool) -> None:
    if not n:
        return
    if not stdin:
        try:
            f.seek(n, 1)
            return
        except (OSError, ValueError, AttributeError, OverflowError):
            pass  # not seekable, or past what a seek takes: read and drop
    while n > 0:
        got = f.read(min(n, CHUNK))
        if not got:
            return
        n -= len(got)


def _usage(ctx: Context, message: str) -> int:
    ctx.error(message)
    ctx.stderr.write(b"cmp: Try 'cmp --help' for more information.\n")  # diffutils 3.8
    return 2


@tool(
    "cmp", kind="read",
    args=CmpArgs,
    description=(
        "compare two files byte by byte (GNU cmp); status 0 same, 1 differ; --json gives "
        '{"same": bool, "byte"?, "line"?, "eof"?} or with -l [{"byte","a","b"}]'
    ),
    examples=[
        ("do two files match? (status only)", "cmp -s a.bin b.bin && echo same"),
        ("every differing byte", "cmp -l old.bin new.bin"),
        ("compare after a 512-byte header", "cmp -i 512 a.img b.img"),
    ],
)
def cmp(args: CmpArgs, ctx: Context) -> ToolReturn:
    ops = list(args.files)
    if not ops:
        return _usage(ctx, "missing operand after 'cmp'")
    names = [ops[0], ops[1] if len(ops) > 1 else "-"]
    skips = [0, 0]
    if args.ignore_initial is not None:
        a, colon, b = args.ignore_initial.partition(":")
        sa, sb = _count(a), _count(b if colon else a)
        if sa is None or sb is None:
            return _usage(ctx, f"invalid --ignore-initial value '{args.ignore_initial}'")
        skips = [sa, sb]
    for k, op in enumerate(ops[2:4]):
        n = _count(op)
        if n is None:
            return _usage(ctx, f"invalid --ignore-initial value '{op}'")
        skips[k] = n
    if len(ops) > 4:
        return _usage(ctx, f"extra operand '{ops[4]}'")
    limit = None
    if args.bytes is not None:
        limit = _count(args.bytes)
        if limit is None:
            return _usage(ctx, f"invalid --bytes value '{args.bytes}'")
    status = InputStatus()
    streams: list[IO[bytes]] = []
    try:
        for name in names:
            f = open_input(ctx, name, status)
            if f is None:
                return 2
            streams.append(f)
        if names[0] == names[1] and skips[0] == skips[1] and not is_stdin(names[0]):
            return _result(ctx, 0, {"same": True})
        for k in (0, 1):
            _skip(streams[k], skips[k], streams[k] is ctx.stdin)
        return _compare(args, ctx, names, streams, limit, _width(ctx, names, skips, limit))
    except (FsError, OSError) as e:
        ctx.error(f"{e.path if isinstance(e, FsError) else names[0]}: "
                  f"{e.reason if isinstance(e, FsError) else e.strerror}")
        return 2
    finally:
        for s in streams:
            if s is not ctx.stdin:
                s.close()


def _width(ctx: Context, names: list[str], skips: list[int], limit: int | None) -> int:
    """Digits of the largest byte number -l can print (GNU: the smaller file's size)."""
    most = limit if limit is not None else (1 << 63) - 1
    for name, skip in zip(names, skips, strict=True):
        if is_stdin(name):
            continue
        try:
            most = min(most, max(0, ctx.fs.stat(ctx.path(name)).size - skip))
        except FsError:
            pass
    return len(str(most))


def _compare(args: CmpArgs, ctx: Context, names: list[str], streams: list[IO[bytes]],
             limit: int | None, width: int) -> ToolReturn:
    pos = 0
    line = 1
    left = limit
    diffs: list[dict[str, int]] = []
    out: list[str] = []
    code = 0
    last_nl = False
    while left is None or left > 0:
        size = CHUNK if left is None else min(CHUNK, left)
        a = _read_full(streams[0], size)
        b = _read_full(streams[1], size)
        if left is not None:
            left -= size
        common = min(len(a), len(b))
        if a[:common] != b[:common]:
            code = 1
            if not args.verbose:
                i = next(k for k in range(common) if a[k] != b[k])
                line += a.count(b"\n", 0, i)
                return _first(args, ctx, names, pos + i + 1, line, a[i], b[i])
            for k in range(common):
                x, y = a[k], b[k]
                if x != y:
                    diffs.append({"byte": pos + k + 1, "a": x, "b": y})
                    if args.silent or ctx.json:
                        continue
                    if args.print_bytes:
                        out.append(f"{pos + k + 1:>{width}} {x:3o} {show_byte(x):<4} "
                                   f"{y:3o} {show_byte(y)}\n")
                    else:
                        out.append(f"{pos + k + 1:>{width}} {x:3o} {y:3o}\n")
            if out:
                ctx.write("".join(out))
                out.clear()
        line += a.count(b"\n", 0, common)
        pos += common
        if common:
            last_nl = a[common - 1] == 10
        if len(a) != len(b):
            short = names[0] if len(a) < len(b) else names[1]
            if not args.silent:
                if ctx.json and not args.verbose:
                    pass
                elif pos == 0:
                    ctx.error(f"EOF on {short} which is empty")
                elif args.verbose:
                    ctx.error(f"EOF on {short} after byte {pos}")
                else:
                    ctx.error(f"EOF on {short} after byte {pos}, line {line - last_nl}")
            return _result(ctx, 1, diffs if args.verbose else {
                "same": False, "eof": short, "byte": pos})
        if not a:
            break
    return _result(ctx, code, diffs if args.verbose else {"same": True})


def _result(ctx: Context, code: int, data: Any) -> ToolReturn:
    """The outcome with its typed value: as the output under `--json`, beside the text
    otherwise (none for more differences than a value keeps)."""
    if ctx.json:
        return Outcome(code=code, output=OutputData.text("", rich_json=data))
    if isinstance(data, list) and len(data) > VALUE_ITEMS:
        return code
    return Outcome(code=code, output=OutputData.value(lambda: data))


def _first(args: CmpArgs, ctx: Context, names: list[str], byte: int, line: int,
           x: int, y: int) -> ToolReturn:
    data = {"same": False, "byte": byte, "line": line}
    if ctx.json or args.silent:
        return _result(ctx, 1, data)
    msg = f"{names[0]} {names[1]} differ: byte {byte}, line {line}"
    if args.print_bytes:
        msg += f" is {x:3o} {show_byte(x)} {y:3o} {show_byte(y)}"
    ctx.write(msg + "\n")
    return _result(ctx, 1, data)


TOOLS = [cmp]
