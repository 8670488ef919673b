"""xxd (vim's xxd, 2022): hex dump, plain hex, C include, and the reverse of each.

`xxd [INFILE [OUTFILE]]`: the dump goes to OUTFILE when one is named. Input is read in
blocks of whole lines; -r writes at each line's offset, filling any gap with zeros."""

from __future__ import annotations

from tysh.builtins._common.operands import CHUNK, InputStatus, open_input, open_output
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.base.values import encode_text
from tysh.kernel.fs.api import FsError
from tysh.kernel.text.literal import lazy_bytes
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO


@value_record
class XxdArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(),
                                   help="INFILE (default stdin) and OUTFILE (default stdout)")
    cols: str | None = param(default=None, aliases=["-c"],
                             help="octets per line (16; -i 12; -p 30)")
    groupsize: str | None = param(default=None, aliases=["-g"],
                                  help="octets per group in the dump (2; 0: no grouping)")
    len: str | None = param(default=None, aliases=["-l"], help="stop after LEN octets")
    seek: str | None = param(default=None, aliases=["-s"],
                             help="start at offset SEEK (+SEEK; -SEEK from the end)")
    plain: bool = param(default=False, aliases=["-p", "-ps", "-postscript"],
                        help="plain hex dump: hex digits only, 30 octets a line")
    revert: bool = param(default=False, aliases=["-r"],
                         help="reverse: turn a hex dump (or -p hex) back into bytes")
    include: bool = param(default=False, aliases=["-i"], help="output a C include file")
    uppercase: bool = param(default=False, aliases=["-u"], help="upper case hex letters")


_PRINTABLE = bytes(b if 32 <= b < 127 else 46 for b in range(256))
_NOT_HEX = lazy_bytes(rb"[^0-9a-fA-F]+")
_NOT_IDENTIFIER = LazyRegex(r"[^0-9A-Za-z]")


class _Bad(Exception):
    pass


def _number(text: str) -> int:
    """A C strtol number (base 0): 0x hex, leading 0 octal, else decimal."""
    t = text.strip()
    sign = -1 if t.startswith("-") else 1
    t = t.lstrip("+-")
    try:
        if t.lower().startswith("0x"):
            return sign * int(t[2:], 16)
        if len(t) > 1 and t.startswith("0"):
            return sign * int(t[1:], 8)
        return sign * int(t, 10)
    except ValueError:
        raise _Bad(text) from None


def _read_chunks(f: IO[bytes], length: int | None) -> Iterator[bytes]:
    left = length
    while left is None or left > 0:
        chunk = f.read(CHUNK if left is None else min(CHUNK, left))
        if not chunk:
            return
        if left is not None:
            left -= len(chunk)
        yield chunk


def _blocks(chunks: Iterator[bytes], size: int) -> Iterator[bytes]:
    """Consecutive pieces of `size` bytes (the last maybe shorter)."""
    buf = b""
    for chunk in chunks:
        buf += chunk
        cut = len(buf) - len(buf) % size
        for i in range(0, cut, size):
            yield buf[i:i + size]
        buf = buf[cut:]
    if buf:
        yield buf


def _dump(chunks: Iterator[bytes], out: IO[bytes], start: int, cols: int, group: int,
          upper: bool) -> None:
    group = group if 0 < group <= cols else cols
    ngroups = -(-cols // group)
    width = cols * 2 + ngroups - 1
    offset = start
    lines: list[str] = []
    for block in _blocks(chunks, cols):
        h = block.hex()
        if upper:
            h = h.upper()
        step = group * 2
        hexpart = " ".join(h[i:i + step] for i in range(0, len(h), step))
        text = block.translate(_PRINTABLE).decode("ascii")
        lines.append(f"{offset:08x}: {hexpart.ljust(width)}  {text}\n")
        offset += len(block)
        if len(lines) >= 1024:
            out.write("".join(lines).encode())
            lines.clear()
    out.write("".join(lines).encode())


def _plain(chunks: Iterator[bytes], out: IO[bytes], cols: int, upper: bool) -> None:
    lines: list[bytes] = []
    for block in _blocks(chunks, cols):
        h = block.hex().encode()
        lines.append((h.upper() if upper else h) + b"\n")
        if len(lines) >= 1024:
            out.write(b"".join(lines))
            lines.clear()
    out.write(b"".join(lines))


def _c_name(name: str) -> str:
    ident = _NOT_IDENTIFIER.sub("_", name)
    return "__" + ident if ident[:1].isdigit() else ident


def _include(chunks: Iterator[bytes], out: IO[bytes], cols: int, upper: bool,
             name: str | None) -> None:
    fmt = "0X%02X" if upper else "0x%02x"
    total = 0
    if name is not None:
        out.write(encode_text(f"unsigned char {_c_name(name)}[] = {{\n"))
    pending: str | None = None
    for block in _blocks(chunks, cols):
        total += len(block)
        if pending is not None:
            out.write((pending + ",\n").encode())
        pending = "  " + ", ".join(fmt % b for b in block)
    if pending is not None:
        out.write((pending + "\n").encode())
    if name is not None:
        out.write(encode_text(f"}};\nunsigned int {_c_name(name)}_len = {total};\n"))


def _revert(f: IO[bytes], out: IO[bytes], plain: bool, cols: int) -> None:
    """Write the bytes a dump describes; gaps between dump lines become zeros."""
    if plain:
        carry = b""
        while chunk := f.read(CHUNK):
            digits = carry + _NOT_HEX.sub(b"", chunk)
            cut = len(digits) - len(digits) % 2
            out.write(bytes.fromhex(digits[:cut].decode("ascii")))
            carry = digits[cut:]
        return
    pos = 0
    for raw in _lines(f):
        line = raw.rstrip(b"\r\n")
        addr, colon, rest = line.partition(b":")
        if not colon:
            continue
        try:
            offset = int(addr.strip() or b"0", 16)
        except ValueError:
            continue
        body = rest[1:] if rest.startswith(b" ") else rest
        digits = _NOT_HEX.sub(b"", body.split(b"  ", 1)[0])
        data = bytes.fromhex(digits[: len(digits) - len(digits) % 2].decode("ascii"))
        data = data[:cols]
        if offset > pos:
            gap = offset - pos
            while gap:
                n = min(gap, CHUNK)
                out.write(b"\0" * n)
                gap -= n
            pos = offset
        elif offset < pos:
            try:
                out.seek(offset)
                pos = offset
            except (OSError, ValueError, AttributeError):
                pass
        out.write(data)
        pos += len(data)


def _lines(f: IO[bytes]) -> Iterator[bytes]:
    rest = b""
    while chunk := f.read(CHUNK):
        data = rest + chunk
        cut = data.rfind(b"\n") + 1
        if cut:
            yield from data[:cut].splitlines(keepends=True)
        rest = data[cut:]
    if rest:
        yield rest


@tool(
    "xxd", kind="read",
    args=XxdArgs,
    description="make a hex dump, plain hex or C include of a file, or reverse one (xxd)",
    examples=[
        ("hex dump of a file", "xxd file.bin"),
        ("plain hex and back", "xxd -p file.bin > h; xxd -r -p h > copy.bin"),
        ("64 bytes from offset 0x100, one byte per group", "xxd -s 0x100 -l 64 -g 1 file.bin"),
        ("embed a file in C", "xxd -i logo.png > logo.h"),
    ],
    operations=["fs.create", "fs.overwrite"],
)
def xxd(args: XxdArgs, ctx: Context) -> ToolReturn:
    if len(args.files) > 2:
        ctx.error(f"too many arguments: '{args.files[2]}'")
        return 1
    try:
        cols = _number(args.cols) if args.cols is not None else (
            12 if args.include else 30 if args.plain else 16)
        group = _number(args.groupsize) if args.groupsize is not None else 2
        length = _number(args.len) if args.len is not None else None
        seek = _number(args.seek) if args.seek is not None else 0
    except _Bad as e:
        ctx.error(f"invalid number '{e}'")
        return 1
    if cols < 1 or (cols > 256 and not args.plain):
        ctx.error(f"invalid number of columns (max. 256): {cols}")
        return 1
    name = args.files[0] if args.files and args.files[0] != "-" else "-"
    f = open_input(ctx, name, InputStatus())
    if f is None:
        return 2
    out: IO[bytes] = ctx.stdout
    try:
        if len(args.files) == 2 and args.files[1] != "-":
            out = open_output(ctx, args.files[1])
        if args.revert:
            _revert(f, out, args.plain, cols)
            return 0
        start = _seek(f, seek, f is ctx.stdin, args.seek or "")
        chunks = _read_chunks(f, length if length is None or length >= 0 else 0)
        if args.plain:
            _plain(chunks, out, cols, args.uppercase)
        elif args.include:
            _include(chunks, out, cols, args.uppercase, None if name == "-" else name)
        else:
            _dump(chunks, out, start, cols, group, args.uppercase)
    except (FsError, OSError) as e:
        ctx.error(f"{e.path if isinstance(e, FsError) else name}: "
                  f"{e.reason if isinstance(e, FsError) else e.strerror}")
        return 2
    finally:
        if f is not ctx.stdin:
            f.close()
        if out is not ctx.stdout:
            out.close()
    return 0


def _seek(f: IO[bytes], seek: int, is_stdin: bool, spelled: str) -> int:
    """Move to the -s offset; a negative one counts from the end (files only)."""
    if seek < 0 or (spelled.lstrip().startswith("-") and not is_stdin):
        if is_stdin:
            raise OSError(29, "Illegal seek")
        end = f.seek(0, 2)
        pos = max(0, end + seek)
        f.seek(pos)
        return pos
    if seek == 0:
        return 0
    try:
        if not is_stdin:
            f.seek(seek)
            return seek
    except (OSError, ValueError, OverflowError):
        pass  # not seekable, or past what a seek takes: read and drop
    left = seek
    while left:
        got = f.read(min(left, CHUNK))
        if not got:
            break
        left -= len(got)
    return seek


TOOLS = [xxd]
