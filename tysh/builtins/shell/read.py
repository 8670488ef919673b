"""read, mapfile and readarray: fill variables from standard input (or `-u FD`)."""

from __future__ import annotations

from tysh.builtins.shell.common import NAME, err
from tysh.kernel.base.errors import VarError
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.base.values import to_text
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Tool, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session


@value_record
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
    timeout: float | None = param(None, aliases=["-t"], help="0: succeed only if input is ready "
                                  "(nothing is read); otherwise accepted",
                                  min=0, range_error="{value}: invalid timeout specification")
    fd: int | None = param(None, aliases=["-u"], help="read from this file descriptor", min=0,
                           range_error="{value}: invalid file descriptor specification")


_PIECE = 1 << 16


def _read_line(stream: Any, ctx: Context) -> tuple[bytes, bool]:
    """Bytes up to (not including) the next newline; the flag says a newline ended them.
    A long line is read in pieces, each charged to the memory budget, with a stop for a
    cancel or a deadline between them (an endless line must not fill memory)."""
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


def split_fields(line: str, ifs: str, count: int,
                 escaped: frozenset[int] = frozenset()) -> list[str]:
    """bash's `read` splitting: at most `count` fields, the last keeping the rest of the
    line. `escaped` holds the indexes of characters a backslash quoted: never separators."""
    if not ifs:
        return [line]
    ws = "".join(c for c in ifs if c in " \t\n")
    other = "".join(c for c in ifs if c not in " \t\n")

    def sep(k: int) -> bool:
        return line[k] in ifs and k not in escaped

    def space(k: int) -> bool:
        return line[k] in ws and k not in escaped

    i, n = 0, len(line)
    while i < n and space(i):
        i += 1
    while n > i and space(n - 1):
        n -= 1
    fields: list[str] = []
    while i < n and len(fields) < count - 1:
        j = i
        while j < n and not sep(j):
            j += 1
        fields.append(line[i:j])
        # consume the separator: whitespace, at most one non-ws char, whitespace
        while j < n and space(j):
            j += 1
        if j < n and sep(j):
            j += 1
            while j < n and space(j):
                j += 1
        i = j
    if i < n:
        rest_end = n
        # a single trailing delimiter after the last field is dropped ("1,2," → "2")
        if sep(n - 1) and not any(line[k] in other and k not in escaped
                                  for k in range(i, n - 1)):
            rest_end = n - 1
            while rest_end > i and space(rest_end - 1):
                rest_end -= 1
        fields.append(line[i:rest_end])
    return fields


def unescape(text: str) -> tuple[str, frozenset[int]]:
    """`read` without -r: each backslash quotes the character after it (and is dropped);
    returns the text and the indexes, in it, of the quoted characters."""
    if "\\" not in text:
        return text, frozenset()
    out: list[str] = []
    quoted: set[int] = set()
    k, n = 0, len(text)
    while k < n:
        c = text[k]
        if c == "\\":
            if k + 1 < n:
                quoted.add(len(out))
                out.append(text[k + 1])
            k += 2
            continue
        out.append(c)
        k += 1
    return "".join(out), frozenset(quoted)


def _input_fd(ctx: Context, sh: Session, fd: int | None) -> Any:
    """The stream `-u FD` names (stdin without it); None, after saying so, if FD is not open."""
    if fd is None:
        return ctx.stdin
    stream = sh.cur_fds.get(fd)
    if stream is None:
        err(ctx, f"{fd}: invalid file descriptor: Bad file descriptor")
    return stream


def _ready(stream: Any) -> bool:
    """Whether a read would return at once: a descriptor that polls readable (data or
    end of file), or an in-memory stream (it never waits)."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return True
    import select

    try:
        return bool(select.select([fd], [], [], 0)[0])
    except (OSError, ValueError):
        return False


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


def _odd_backslashes(chunk: bytes) -> bool:
    n = len(chunk) - len(chunk.rstrip(b"\\"))
    return n % 2 == 1


def _read_lines(stream: Any, raw: bool, ctx: Context) -> tuple[str, frozenset[int], bool]:
    """A line (lines joined where a backslash ends one, without -r): the text, the
    indexes of the characters a backslash quoted, and whether a newline ended it."""
    parts: list[bytes] = []
    while True:
        chunk, seen = _read_line(stream, ctx)
        if not raw and seen and _odd_backslashes(chunk):
            parts.append(chunk[:-1])
            continue
        parts.append(chunk)
        break
    # bash drops NUL bytes from what `read` takes (no shell value can hold one)
    text = b"".join(parts).replace(b"\0", b"").decode("utf-8", "surrogateescape")
    if raw:
        return text, frozenset(), seen
    got, escaped = unescape(text)
    return got, escaped, seen


def _read_chars(stream: Any, delim: bytes | None, limit: int | None, raw: bool,
                ctx: Context, octets: bool = False) -> tuple[str, frozenset[int], bool]:
    """Up to `delim` (None: never, for -N) or `limit` characters, a byte at a time, as
    bash reads them: without -r a backslash quotes the next character (which counts as
    one and is never the delimiter), and a backslash-newline is dropped whatever the
    delimiter. Returns the text, the quoted characters' indexes, and whether the read
    ended at the delimiter or the limit (not at the end of input). `octets` (the C
    locale): every byte counts as a character."""
    buf = bytearray()
    quoted: list[int] = []
    count = charged = 0
    ok = False
    read1 = stream.read
    while limit is None or count < limit:
        c = read1(1)
        if not c:
            break
        if c == delim:
            ok = True
            break
        if c == b"\0":
            continue
        if c == b"\\" and not raw:
            c = read1(1)
            if not c:
                break
            if c == b"\n":
                continue
            quoted.append(len(buf))
        buf += c
        count += 1
        lead = c[0]
        if lead >= 0xC0 and not octets:  # the rest of a UTF-8 character: one character, one count
            more = 1 if lead < 0xE0 else 2 if lead < 0xF0 else 3
            buf += read1(more)
        if len(buf) - charged >= _PIECE:
            charged += _PIECE
            ctx.hold(_PIECE)
            ctx.shell.check_boundary()
    else:
        ok = True
    text = buf.decode("utf-8", "surrogateescape")
    if not quoted:
        return text, frozenset(), ok
    # the quoted bytes' offsets as indexes into the decoded text
    marks = set(quoted)
    at = 0
    escaped: set[int] = set()
    for i, ch in enumerate(text):
        if at in marks:
            escaped.add(i)
        at += len(ch.encode("utf-8", "surrogateescape"))
    return text, frozenset(escaped), ok


@tool("read", kind="shell", args=ReadArgs, session=True, glob_passthrough=True,  # names, never globs
      description="read a line from stdin into variables, split on IFS",
      examples=[("read two fields", "read -r first rest"), ("read a whole line", "IFS= read -r line")])
def read(args: ReadArgs, ctx: Context, sh: Session) -> int:
    st = sh.state
    stream = _input_fd(ctx, sh, args.fd)
    if stream is None:
        return 1
    if args.timeout == 0:
        # `read -t 0`: only whether input is ready; nothing is read
        return 0 if _ready(stream) else 1
    if args.prompt and _is_terminal(stream):  # bash prompts only at a terminal
        ctx.stderr.write(args.prompt.encode("utf-8", "surrogateescape"))
    delim = b"\n"
    if args.delim is not None:
        # `-d ''` ends each record at a NUL (`find -print0 | while read -d '' f`)
        delim = args.delim.encode("utf-8", "surrogateescape")[:1] or b"\x00"
    limit = args.exact if args.exact is not None else args.nchars
    escaped: frozenset[int] = frozenset()
    if limit is None and delim == b"\n":
        text, escaped, ok = _read_lines(stream, args.raw, ctx)
    else:
        text, escaped, ok = _read_chars(stream, None if args.exact is not None else delim,
                                        limit, args.raw, ctx,
                                        limit is not None and st.byte_locale())
    ifs_v = st.get("IFS")
    ifs = " \t\n" if ifs_v is None else to_text(ifs_v)
    if args.array is not None and not NAME.match(args.array):
        err(ctx, f"`{args.array}': not a valid identifier")
        return 1
    try:
        if args.array is not None:
            ws = "".join(c for c in ifs if c in " \t\n")
            fields = split_fields(text, ifs, 1 << 30, escaped) \
                if text.strip(ws) or escaped else []
            st.set(args.array, fields)
        elif not args.names:
            st.set("REPLY", text)
        else:
            # -N reads exactly N characters and does not split them (as bash)
            fields = [text] if args.exact is not None else split_fields(
                text, ifs, len(args.names), escaped)
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


@value_record
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


@tool("mapfile", kind="shell", args=MapfileArgs, description="read lines from stdin into an indexed array",
      examples=[("every line of a file, without newlines", "mapfile -t lines < notes.txt"),
                ("the first 10 lines after a header", "mapfile -t -s 1 -n 10 rows < data.csv")],
      session=True)
def mapfile(args: MapfileArgs, ctx: Context, sh: Session) -> int:
    return _mapfile(args, ctx, sh)


@tool("readarray", kind="shell", args=MapfileArgs, description="the same as mapfile",
      examples=[("every line of a file, without newlines", "readarray -t lines < notes.txt")],
      session=True)
def readarray(args: MapfileArgs, ctx: Context, sh: Session) -> int:
    return _mapfile(args, ctx, sh)


TOOLS: list[Tool] = [read, mapfile, readarray]
