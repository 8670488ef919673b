"""od (GNU coreutils 9.1): dump bytes in octal, hex, decimal, float or character form.

The column layout is GNU's: every format of a line gets the same total width, the
narrower formats spreading the difference over their fields; a repeated full line is
shown once as `*` unless -v; the last line holds the end address. Input (all operands
as one stream) is read in blocks of whole lines."""

from __future__ import annotations

import math
import struct

from tysh.builtins._common.operands import CHUNK, InputStatus, open_input
from tysh.kernel.base.record import Record, frozen, value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator


@value_record
class OdArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="input files; - is stdin")
    address_radix: str = param(default="o", aliases=["-A"],
                               help="offsets in radix d, o, x or n (none)")
    format: tuple[str, ...] = param(default=(), aliases=["-t"], repeatable=True,
                                    help="output format TYPE: x1 o2 d4 u1 f8 c a …")
    skip_bytes: str | None = param(default=None, aliases=["-j"], help="skip BYTES input bytes")
    read_bytes: str | None = param(default=None, aliases=["-N"], help="dump at most BYTES")
    width: bool | str = param(False, aliases=["-w"], param_type="bool", optional_value=True,
                              help="BYTES per output line (-w alone: 32)")
    output_duplicates: bool = param(default=False, aliases=["-v"],
                                    help="do not use * to mark repeated lines")
    endian: str | None = param(default=None, choices=["big", "little"],
                               help="byte order of multi-byte values")
    char: bool = param(default=False, aliases=["-c"], help="same as -t c")
    octal_bytes: bool = param(default=False, aliases=["-b"], help="same as -t o1")
    unsigned_shorts: bool = param(default=False, aliases=["-d"], help="same as -t u2")
    octal_shorts: bool = param(default=False, aliases=["-o"], help="same as -t o2")
    hex_shorts: bool = param(default=False, aliases=["-x"], help="same as -t x2")
    signed_shorts: bool = param(default=False, aliases=["-s"], help="same as -t d2")
    signed_ints: bool = param(default=False, aliases=["-i"], help="same as -t d4")
    signed_longs: bool = param(default=False, aliases=["-l"], help="same as -t d8")
    floats: bool = param(default=False, aliases=["-f"], help="same as -t f4")


# element width of each (kind, size) when printed, not counting the separating space
_WIDTH = {("x", 1): 2, ("x", 2): 4, ("x", 4): 8, ("x", 8): 16,
          ("o", 1): 3, ("o", 2): 6, ("o", 4): 11, ("o", 8): 22,
          ("u", 1): 3, ("u", 2): 5, ("u", 4): 10, ("u", 8): 20,
          ("d", 1): 4, ("d", 2): 6, ("d", 4): 11, ("d", 8): 20,
          ("f", 4): 15, ("f", 8): 24, ("c", 1): 3, ("a", 1): 3}
_SIZE_LETTERS = {"C": 1, "S": 2, "I": 4, "L": 8, "F": 4, "D": 8}
_NAMES = ("nul soh stx etx eot enq ack bel bs ht nl vt ff cr so si dle dc1 dc2 dc3 dc4 nak "
          "syn etb can em sub esc fs gs rs us sp").split()
_C_ESC = {0: "\\0", 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r"}
_A_TABLE = [_NAMES[b] if b <= 32 else "del" if b == 127 else chr(b) for b in range(128)]
_C_TABLE = [_C_ESC.get(b, chr(b) if 32 <= b < 127 else f"{b:03o}") for b in range(256)]
_DOTS = bytes(b if 32 <= b < 127 else 46 for b in range(256))
_STRUCT = {("u", 1): "B", ("u", 2): "H", ("u", 4): "I", ("u", 8): "Q",
           ("d", 1): "b", ("d", 2): "h", ("d", 4): "i", ("d", 8): "q",
           ("f", 4): "f", ("f", 8): "d"}


class OdError(Exception):
    """A bad option value, reported as GNU words it."""


@frozen
class Spec(Record):
    """One output format: kind letter (x o u d f c a), element size, printed width."""

    kind: str
    size: int
    width: int
    text_column: bool = False  # the `z` suffix: the line's printable bytes after it


def parse_types(text: str) -> list[Spec]:
    """The formats of one -t argument (`x1`, `d2u1`, `xC`, `c`, `fD`)."""
    specs: list[Spec] = []
    i = 0
    while i < len(text):
        kind = text[i]
        i += 1
        if kind in "ac":
            z = i < len(text) and text[i] == "z"
            i += z
            specs.append(Spec(kind, 1, 3, z))
            continue
        if kind not in "xoudf":
            raise OdError(f"invalid character '{kind}' in type string '{text}'")
        size = 8 if kind == "f" else 4
        if i < len(text) and text[i] in _SIZE_LETTERS:
            size = _SIZE_LETTERS[text[i]]
            i += 1
        else:
            j = i
            while j < len(text) and text[j].isdigit():
                j += 1
            if j > i:
                size = int(text[i:j])
                i = j
        if (kind, size) not in _WIDTH:
            raise OdError(f"invalid type string '{text}';\n"
                          f"this system doesn't provide a {size}-byte "
                          f"{'floating point' if kind == 'f' else 'integral'} type")
        z = i < len(text) and text[i] == "z"
        i += z
        specs.append(Spec(kind, size, _WIDTH[kind, size], z))
    return specs


def parse_count(text: str, what: str) -> int:
    """GNU's od byte counts: decimal, 0x hex, 0 octal, with b k m (and KB, KiB…) suffixes."""
    mult = 1
    t = text
    for suf, m in (("KiB", 1024), ("MiB", 1 << 20), ("GiB", 1 << 30), ("KB", 1000),
                   ("MB", 10**6), ("GB", 10**9), ("b", 512), ("k", 1024), ("K", 1024),
                   ("m", 1 << 20), ("M", 1 << 20), ("G", 1 << 30)):
        if t.endswith(suf) and not (suf == "b" and t.lower().startswith("0x")):
            t, mult = t[: -len(suf)], m
            break
    try:
        if t.lower().startswith("0x"):
            n = int(t[2:], 16)
        elif t.startswith("0") and len(t) > 1:
            n = int(t[1:], 8)
        else:
            n = int(t, 10)
    except ValueError:
        raise OdError(f"invalid {what} argument '{text}'") from None
    if n < 0:
        raise OdError(f"invalid {what} argument '{text}'")
    return n * mult


def _float_text(x: float, size: int) -> str:
    """The shortest %g form that reads back as the same value (GNU's ftoastr)."""
    if x != x:
        return "-nan" if math.copysign(1.0, x) < 0 else "nan"
    if x in (float("inf"), float("-inf")):
        return f"{x:g}"
    for prec in range(1, 18):
        s = f"{x:.{prec}g}"
        back = float(s)
        if size == 4:
            back = struct.unpack("f", struct.pack("f", back))[0]
        if back == x:
            return s
    return repr(x)


def _values(spec: Spec, block: bytes, order: str) -> list[str]:
    """Each element of a (zero-padded) block as text."""
    k, n = spec.kind, spec.size
    if k == "a":
        return [_A_TABLE[b & 0x7F] for b in block]
    if k == "c":
        return [_C_TABLE[b] for b in block]
    count = len(block) // n
    if k in "xo":
        nums = struct.unpack(f"{order}{count}{_STRUCT['u', n]}", block)
        fmt = f"0{spec.width}{k}"
        return [format(v, fmt) for v in nums]
    nums2 = struct.unpack(f"{order}{count}{_STRUCT[k, n]}", block)
    if k == "f":
        return [_float_text(v, n) for v in nums2]
    return [str(v) for v in nums2]


def _layout(specs: list[Spec], per_line: int) -> list[int]:
    """The padding each format spreads over its fields so all line up (GNU)."""
    totals = [(per_line // s.size) * (s.width + 1) for s in specs]
    widest = max(totals)
    return [widest - t for t in totals]


def _render(spec: Spec, pad: int, per_line: int, data: bytes, order: str) -> str:
    fields = per_line // spec.size
    shown = -(-len(data) // spec.size)
    block = data + b"\0" * (shown * spec.size - len(data))
    vals = _values(spec, block, order)
    parts: list[str] = []
    remaining = pad
    for idx in range(shown):
        i = fields - idx
        nxt = pad * (i - 1) // fields
        parts.append(" " + vals[idx].rjust(remaining - nxt + spec.width))
        remaining = nxt
    text = "".join(parts)
    if spec.text_column:
        full = fields * (spec.width + 1) + pad
        shown_text = data.translate(_DOTS).decode("ascii")
        text = f"{text.ljust(full)}  >{shown_text}<"
    return text


def _stream(ctx: Context, files: tuple[str, ...]) -> Iterator[bytes]:
    """All operands as one byte stream, in chunks; errors reported, the file skipped."""
    status = InputStatus()
    for name in files or ("-",):
        f = open_input(ctx, name, status)
        if f is None:
            raise _Failed
        try:
            while chunk := f.read(CHUNK):
                yield chunk
        except (FsError, OSError) as e:
            ctx.error(f"{name}: {e.reason if isinstance(e, FsError) else e.strerror}")
            raise _Failed from None
        finally:
            if f is not ctx.stdin:
                f.close()


class _Failed(Exception):
    pass


def _formats(args: OdArgs) -> list[Spec]:
    specs: list[Spec] = []
    for t in args.format:
        specs.extend(parse_types(t))
    for flag, t in ((args.char, "c"), (args.octal_bytes, "o1"), (args.unsigned_shorts, "u2"),
                    (args.octal_shorts, "o2"), (args.hex_shorts, "x2"),
                    (args.signed_shorts, "d2"), (args.signed_ints, "d4"),
                    (args.signed_longs, "d8"), (args.floats, "f4")):
        if flag:
            specs.extend(parse_types(t))
    return specs or parse_types("o2")


def _usage(ctx: Context, message: str) -> int:
    ctx.error(message)
    ctx.stderr.write(b"Try 'od --help' for more information.\n")
    return 1


@tool(
    "od", kind="read",
    args=OdArgs,
    description="dump files in octal, hex, decimal, float or named-character form (GNU od)",
    examples=[
        ("hex bytes with characters, hex offsets", "od -A x -t x1z file.bin"),
        ("the characters of a line, escapes visible", "printf 'a\\tb\\n' | od -c"),
        ("16 bytes from offset 512 as 32-bit words", "od -j 512 -N 16 -t x4 disk.img"),
    ],
)
def od(args: OdArgs, ctx: Context) -> ToolReturn:
    radix = args.address_radix
    if radix not in ("d", "o", "x", "n"):
        return _usage(ctx, f"invalid output address radix '{radix}'; "
                           "it must be one character from [doxn]")
    try:
        specs = _formats(args)
        skip = parse_count(args.skip_bytes, "skip") if args.skip_bytes else 0
        limit = parse_count(args.read_bytes, "count") if args.read_bytes else None
        if args.width is False:
            per_line = 16
        elif args.width is True or args.width == "":
            per_line = 32
        else:
            per_line = parse_count(str(args.width), "width")
    except OdError as e:
        return _usage(ctx, str(e))
    unit = max(s.size for s in specs)
    if per_line <= 0 or per_line % unit:
        ctx.error(f"warning: invalid width {per_line}; using {unit} instead")
        per_line = unit
    order = ">" if args.endian == "big" else "<" if args.endian == "little" else "="
    pads = _layout(specs, per_line)
    addr_fmt: Callable[[int], str] = {
        "o": lambda a: f"{a:07o}", "d": lambda a: f"{a:07d}",
        "x": lambda a: f"{a:06x}", "n": lambda a: ""}[radix]
    indent = " " * len(addr_fmt(0))
    out: list[str] = []
    prev: bytes | None = None
    starred = False
    offset = skip
    try:
        for line in _lines(ctx, args.files, skip, limit, per_line):
            if (not args.output_duplicates and len(line) == per_line and line == prev):
                if not starred:
                    out.append("*\n")
                    starred = True
                offset += len(line)
                continue
            starred = False
            prev = line
            for n, (spec, pad) in enumerate(zip(specs, pads, strict=True)):
                lead = addr_fmt(offset) if n == 0 else indent
                out.append(lead + _render(spec, pad, per_line, line, order) + "\n")
            offset += len(line)
            if len(out) > 512:
                ctx.write("".join(out))
                out.clear()
    except _Failed:
        ctx.write("".join(out))
        return 1
    except _SkipPastEnd:
        ctx.write("".join(out))
        ctx.error("cannot skip past end of combined input")
        return 1
    if radix != "n":
        out.append(addr_fmt(offset) + "\n")
    ctx.write("".join(out))
    return 0


class _SkipPastEnd(Exception):
    pass


def _lines(ctx: Context, files: tuple[str, ...], skip: int, limit: int | None,
           per_line: int) -> Iterator[bytes]:
    """The input after -j, up to -N bytes, cut into lines of per_line bytes."""
    buf = b""
    left = limit
    for chunk in _stream(ctx, files):
        if skip:
            if len(chunk) <= skip:
                skip -= len(chunk)
                continue
            chunk = chunk[skip:]
            skip = 0
        if left is not None:
            chunk = chunk[:left]
            left -= len(chunk)
        buf += chunk
        cut = len(buf) - len(buf) % per_line
        for i in range(0, cut, per_line):
            yield buf[i:i + per_line]
        buf = buf[cut:]
        if left == 0:
            break
    if skip:
        raise _SkipPastEnd
    if buf:
        yield buf


TOOLS = [od]
