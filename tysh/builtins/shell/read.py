"""read, mapfile and readarray: fill variables from standard input (or `-u FD`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import attrs

from tysh.builtins.shell.common import NAME, err
from tysh.kernel.base.errors import VarError
from tysh.kernel.base.record import Record
from tysh.kernel.base.values import to_text
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Tool, tool

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session


@attrs.frozen(repr=False, eq=False)
class ReadArgs(Record):
    names: tuple[str, ...] = param((), positional=True, help="variables to fill (default REPLY)")
    raw: bool = param(False, aliases=["-r"], help="backslashes are literal")
    prompt: str | None = param(None, aliases=["-p"], help="prompt written to stderr")
    array: str | None = param(None, aliases=["-a"], help="read the fields into this array")
    delim: str | None = param(None, aliases=["-d"], help="end at this character, not newline")
    nchars: int | None = param(None, aliases=["-n"], help="read at most N characters", min=0,
                               range_error="{value}: invalid number")
    exact: int | None = param(None, aliases=["-N"], help="read exactly N characters", min=0,
                              range_error="{value}: invalid number")
    silent: bool = param(False, aliases=["-s"], help="accepted (no echo to switch off)")
    readline: bool = param(False, aliases=["-e"], help="accepted (no line editing here)")
    timeout: float | None = param(None, aliases=["-t"], help="accepted; input never blocks here",
                                  min=0, range_error="{value}: invalid timeout specification")
    fd: int | None = param(None, aliases=["-u"], help="read from this file descriptor", min=0,
                           range_error="{value}: invalid file descriptor specification")


_PIECE = 1 << 16


def _read_record(stream: Any, delim: bytes, limit: int | None,
                 ctx: Context) -> tuple[bytes, bool]:
    """Bytes up to (not including) the delimiter; the flag says the delimiter was seen.
    A long record is read in pieces, each charged to the memory budget, with a stop for
    a cancel or a deadline between them (an endless line must not fill memory)."""
    if limit is None and delim == b"\n" and hasattr(stream, "readline"):
        line = stream.readline(_PIECE)
        if len(line) == _PIECE and not line.endswith(b"\n"):
            pieces = [line]
            while len(line) == _PIECE and not line.endswith(b"\n"):
                ctx.hold(_PIECE)
                ctx.shell.check_boundary()
                line = stream.readline(_PIECE)
                pieces.append(line)
            line = b"".join(pieces)
        if line.endswith(b"\n"):
            return line[:-1], True
        return line, False
    buf = bytearray()
    while limit is None or len(buf) < limit:
        c = stream.read(1)
        if not c:
            return bytes(buf), False
        if c == delim and limit is None or (c == delim and delim != b""):
            return bytes(buf), True
        buf += c
        if not len(buf) % _PIECE:
            ctx.hold(_PIECE)
            ctx.shell.check_boundary()
    return bytes(buf), True


def split_fields(line: str, ifs: str, count: int) -> list[str]:
    """bash's `read` splitting: at most `count` fields, the last keeping the rest of the line."""
    ws = "".join(c for c in ifs if c in " \t\n")
    other = "".join(c for c in ifs if c not in " \t\n")
    s = line.strip(ws) if ws else line
    fields: list[str] = []
    if not ifs:
        return [line]
    i = 0
    n = len(s)
    while i < n and len(fields) < count - 1:
        j = i
        while j < n and s[j] not in ifs:
            j += 1
        fields.append(s[i:j])
        # consume the separator: whitespace, at most one non-ws char, whitespace
        while j < n and s[j] in ws:
            j += 1
        if j < n and s[j] in other:
            j += 1
            while j < n and s[j] in ws:
                j += 1
        i = j
    if i < n:
        rest = s[i:]
        # a single trailing delimiter after the last field is dropped ("1,2," → "2")
        if len(rest) > 1 and rest[-1] in other and not any(c in other for c in rest[:-1]):
            rest = rest[:-1].rstrip(ws) if ws else rest[:-1]
        elif rest in tuple(other):
            rest = ""
        fields.append(rest)
    return fields


def _input_fd(ctx: Context, sh: Session, fd: int | None) -> Any:
    """The stream `-u FD` names (stdin without it); None, after saying so, if FD is not open."""
    if fd is None:
        return ctx.stdin
    stream = sh.cur_fds.get(fd)
    if stream is None:
        err(ctx, f"{fd}: invalid file descriptor: Bad file descriptor")
    return stream


@tool("read", args=ReadArgs, session=True, glob_passthrough=True,  # names, never globs
      description="read a line from stdin into variables, split on IFS",
      examples=[("read two fields", "read -r first rest"), ("read a whole line", "IFS= read -r line")])
def read(args: ReadArgs, ctx: Context, sh: Session) -> int:
    st = sh.state
    stream = _input_fd(ctx, sh, args.fd)
    if stream is None:
        return 1
    if args.prompt:
        ctx.stderr.write(args.prompt.encode("utf-8", "surrogateescape"))
    delim = b"\n"
    if args.delim is not None:
        # `-d ''` ends each record at a NUL (`find -print0 | while read -d '' f`)
        delim = args.delim.encode("utf-8", "surrogateescape")[:1] or b"\x00"
    limit = args.exact if args.exact is not None else args.nchars
    if args.exact is not None:
        delim = b"\x00\x00"  # never matches a single byte
    ok = True
    parts: list[bytes] = []
    while True:
        chunk, seen = _read_record(stream, delim if delim != b"\x00\x00" else b"", limit,
                                   ctx)
        if args.exact is not None:
            seen = len(chunk) == limit
        if not args.raw and seen and chunk.endswith(b"\\") and not chunk.endswith(b"\\\\") \
                and delim == b"\n":
            parts.append(chunk[:-1])
            continue
        parts.append(chunk)
        ok = seen
        break
    text = b"".join(parts).decode("utf-8", "surrogateescape")
    if not args.raw:
        text = re.sub(r"\\(.)", r"\1", text, flags=re.S)
        if text.endswith("\\"):
            text = text[:-1]
    ifs_v = st.get("IFS")
    ifs = " \t\n" if ifs_v is None else to_text(ifs_v)
    if args.array is not None and not NAME.match(args.array):
        err(ctx, f"`{args.array}': not a valid identifier")
        return 1
    try:
        if args.array is not None:
            ws = "".join(c for c in ifs if c in " \t\n")
            fields = split_fields(text, ifs, 1 << 30) if text.strip(ws) else []
            st.set(args.array, fields)
        elif not args.names:
            st.set("REPLY", text)
        else:
            # -N reads exactly N characters and does not split them (as bash)
            fields = [text] if args.exact is not None else split_fields(text, ifs,
                                                                         len(args.names))
            for i, name in enumerate(args.names):
                field = fields[i] if i < len(fields) else ""
                if not sh.assign_word(name, field):  # NAME or NAME[INDEX]
                    # as bash: the names before it are assigned
                    err(ctx, f"`{name}': not a valid identifier")
                    return 1
    except VarError as e:
        err(ctx, e.message)
        return 1
    return 0 if ok else 1


@attrs.frozen(repr=False, eq=False)
class MapfileArgs(Record):
    array: str = param("MAPFILE", positional=True, help="the array to fill (default MAPFILE)")
    strip: bool = param(False, aliases=["-t"], help="remove the delimiter from each line")
    delim: str | None = param(None, aliases=["-d"],
                              help="lines end at this character, not newline ('' is NUL)")
    count: int = param(0, aliases=["-n"], help="read at most N lines (0: all)", min=0,
                       range_error="{value}: invalid line count")
    skip: int = param(0, aliases=["-s"], help="discard the first N lines", min=0,
                      range_error="{value}: invalid line count")
    origin: int | None = param(None, aliases=["-O"],
                               help="store from this index on, keeping the array's other elements",
                               min=0, range_error="{value}: invalid array origin")
    fd: int | None = param(None, aliases=["-u"], help="read from this file descriptor", min=0,
                           range_error="{value}: invalid file descriptor specification")
    callback: str | None = param(None, aliases=["-C"], help="not supported in tysh")
    quantum: int | None = param(None, aliases=["-c"], help="not supported in tysh")


_LINE_BYTES = 64  # a line's string object and list slot beyond its text


def _mapfile(args: MapfileArgs, ctx: Context, sh: Session) -> int:
    if args.callback is not None or args.quantum is not None:
        err(ctx, "-C/-c: callbacks are not supported in tysh; loop over the array instead")
        return 2
    if args.count < 0 or args.skip < 0 or (args.origin is not None and args.origin < 0):
        err(ctx, "a count, skip or origin cannot be negative")
        return 1
    stream = _input_fd(ctx, sh, args.fd)
    if stream is None:
        return 1
    delim = b"\n" if args.delim is None else (
        args.delim.encode("utf-8", "surrogateescape")[:1] or b"\0")
    want = args.skip + args.count if args.count else None
    data = bytearray()
    seen = 0
    # read in blocks, but stop once enough lines are in (the rest stays for the next reader
    # only on a seekable stream, as bash: a pipe's extra block is gone either way); each
    # block is charged to the memory budget for the bytes, the text and the list it
    # becomes, so a flood of input ends at the budget, not in the allocator
    while True:
        block = stream.read1(1 << 16) if hasattr(stream, "read1") else stream.read(1 << 16)
        if not block:
            break
        data += block
        n = block.count(delim)
        seen += n
        ctx.hold(2 * len(block) + n * _LINE_BYTES)
        if want is not None and seen >= want:
            break
    text = data.decode("utf-8", "surrogateescape")
    del data
    d = delim.decode("utf-8", "surrogateescape")
    values = text.split(d)
    del text
    last = values.pop()
    if not args.strip:
        values = [v + d for v in values]
    if last:
        values.append(last)
    if args.skip:
        del values[: args.skip]
    if args.count:
        del values[args.count:]
    ctx.release()  # the array is charged as a variable from here on
    st = sh.state
    try:
        if args.origin is None:
            st.set(args.array, values)
        else:
            for i, v in enumerate(values):
                st.set_index(args.array, args.origin + i, v)
    except VarError as e:
        err(ctx, e.message)
        return 1
    return 0


@tool("mapfile", args=MapfileArgs, description="read lines from stdin into an indexed array",
      examples=[("every line of a file, without newlines", "mapfile -t lines < notes.txt"),
                ("the first 10 lines after a header", "mapfile -t -s 1 -n 10 rows < data.csv")],
      session=True)
def mapfile(args: MapfileArgs, ctx: Context, sh: Session) -> int:
    return _mapfile(args, ctx, sh)


@tool("readarray", args=MapfileArgs, description="the same as mapfile",
      examples=[("every line of a file, without newlines", "readarray -t lines < notes.txt")],
      session=True)
def readarray(args: MapfileArgs, ctx: Context, sh: Session) -> int:
    return _mapfile(args, ctx, sh)


TOOLS: list[Tool] = [read, mapfile, readarray]
