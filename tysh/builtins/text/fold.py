"""fold, expand, unexpand (GNU coreutils 9.1): line width and tab conversions.

All three count columns per byte, as coreutils 9.1 does (a tab goes to the next stop, a
backspace steps back one column; fold also restarts at a carriage return). Lines
without those control bytes take bulk paths (slicing, bytes.expandtabs); the others
follow GNU's byte-by-byte rules. Input streams in blocks of whole lines."""

from __future__ import annotations

from tysh.builtins._common.operands import CHUNK, InputStatus, iter_inputs
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import Record, frozen, value_record
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO

_OBSOLETE_WIDTH = LazyRegex(r"-\d+")
_OBSOLETE_TABS = LazyRegex(r"-\d+(?:,\d+)*")


def _blocks(f: IO[bytes]) -> Iterator[list[bytes]]:
    """Lists of lines (each with its newline, the very last maybe without), read in chunks."""
    pending: list[bytes] = []  # a long line's pieces, joined once when it ends
    while chunk := f.read(CHUNK):
        cut = chunk.rfind(b"\n") + 1
        if not cut:
            pending.append(chunk)
            continue
        data = b"".join([*pending, chunk]) if pending else chunk
        cut += len(data) - len(chunk)
        rest = data[cut:]
        pending = [rest] if rest else []
        yield [ln + b"\n" for ln in data[:cut - 1].split(b"\n")]
    if pending:
        yield [b"".join(pending)]


def _usage(ctx: Context, message: str) -> int:
    ctx.error(message)
    ctx.stderr.write(f"Try '{ctx.name} --help' for more information.\n".encode())
    return 1


# ------------------------------------------------------------------------ fold

@value_record
class FoldArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="input files (default stdin)")
    width: str | None = param(default=None, aliases=["-w"], help="use WIDTH columns (default 80)")
    bytes: bool = param(default=False, aliases=["-b"], help="count bytes rather than columns")
    spaces: bool = param(default=False, aliases=["-s"], help="break at the last blank within WIDTH")


def _column(col: int, c: int) -> int:
    if c == 8:
        return col - 1 if col else 0
    if c == 13:
        return 0
    if c == 9:
        return col + 8 - col % 8
    return col + 1


def _fold_slow(line: bytes, width: int, spaces: bool, out: list[bytes]) -> None:
    """GNU's fold_file loop for one line holding tabs, backspaces or carriage returns."""
    buf = bytearray()
    col = 0
    body, nl = (line[:-1], b"\n") if line.endswith(b"\n") else (line, b"")
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        col = _column(col, c)
        if col > width:
            if spaces:
                k = max(buf.rfind(b" "), buf.rfind(b"\t"))
                if k >= 0:
                    out.append(bytes(buf[:k + 1]) + b"\n")
                    del buf[:k + 1]
                    col = 0
                    for b in buf:
                        col = _column(col, b)
                    continue  # rescan this byte
            if buf:
                out.append(bytes(buf) + b"\n")
                buf.clear()
                col = 0
                continue
        buf.append(c)
        i += 1
    out.append(bytes(buf) + nl)


def _fold_plain(line: bytes, width: int, spaces: bool, out: list[bytes]) -> None:
    """One column per byte: cut every WIDTH bytes, or after the last blank with -s."""
    body, nl = (line[:-1], b"\n") if line.endswith(b"\n") else (line, b"")
    while len(body) > width:
        cut = width
        if spaces:
            seg = body[:width]
            k = max(seg.rfind(b" "), seg.rfind(b"\t"))
            if k >= 0:
                cut = k + 1
        out.append(body[:cut] + b"\n")
        body = body[cut:]
    out.append(body + nl)


@tool(
    "fold", kind="read",
    args=FoldArgs,
    description="wrap each input line to fit in WIDTH columns (GNU fold)",
    examples=[
        ("wrap at 40 columns", "fold -w 40 notes.txt"),
        ("wrap at word boundaries", "fold -s -w 72 README"),
    ],
)
def fold(args: FoldArgs, ctx: Context) -> ToolReturn:
    files = list(args.files)
    spec = args.width
    for w in list(files):
        if _OBSOLETE_WIDTH.fullmatch(w):
            spec = w[1:]
            files.remove(w)
    width = 80
    if spec is not None:
        try:
            width = int(spec)
        except ValueError:
            width = 0
        if width < 1:
            ctx.error(f"invalid number of columns: '{spec}'")
            return 1
    status = InputStatus()
    for _, f in iter_inputs(ctx, files, status):
        for lines in _blocks(f):
            out: list[bytes] = []
            for line in lines:
                if len(line) <= width + 1 and (args.bytes or b"\t" not in line) and (
                        line[-1:] == b"\n" or len(line) <= width):
                    out.append(line)
                elif args.bytes or not (b"\t" in line or b"\b" in line or b"\r" in line):
                    _fold_plain(line, width, args.spaces, out)
                else:
                    _fold_slow(line, width, args.spaces, out)
            ctx.stdout.write(b"".join(out))
    return 1 if status.failed else 0


# ------------------------------------------------------------------------ tab stops

@frozen
class Stops(Record):
    """Tab stops: every `size` columns, or the explicit ascending `stops`."""

    size: int
    stops: tuple[int, ...] = ()
    after: int = 0  # GNU's last `/N` (every N columns) or `+N` (N past the last stop)
    relative: bool = False

    def next(self, col: int) -> int | None:
        """The next stop after col; None past the last explicit stop."""
        if not self.stops:
            return col + self.size - col % self.size
        for s in self.stops:
            if s > col:
                return s
        if self.after:
            if self.relative:
                last = self.stops[-1]
                return last + ((col - last) // self.after + 1) * self.after
            return col + self.after - col % self.after
        return None


def parse_stops(ctx: Context, specs: list[str]) -> Stops | None:
    """-t values ("4", "4,8,12", "4 8"), several -t adding up; None after reporting."""
    values: list[int] = []
    after, relative = 0, False
    for spec in specs:
        for part in spec.replace(" ", ",").split(","):
            if not part:
                continue
            if after:
                mark = "+" if relative else "/"
                ctx.error(f"'{mark}' specifier only allowed with the last value")
                return None
            if len(part) > 19 and part.lstrip("+/").isdigit():
                ctx.error(f"tab stop is too large '{part}'")
                return None
            if part[0] in "+/" and part[1:].isdigit():
                after, relative = int(part[1:]), part[0] == "+"  # 0: no stops added
                continue
            if not part.isdigit():
                ctx.error(f"tab size contains invalid character(s): '{part}'")
                return None
            v = int(part)
            if v == 0:
                ctx.error("tab size cannot be 0")
                return None
            if values and v <= values[-1]:
                ctx.error("tab sizes must be ascending")
                return None
            values.append(v)
    if after:
        if not values:  # `/N` or `+N` alone: every N columns
            return Stops(after)
        return Stops(0, tuple(values), after, relative)
    if not values:
        return Stops(8)
    if len(values) == 1:
        return Stops(values[0])
    return Stops(0, tuple(values))


def _split_obsolete(args_files: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """Operands and the obsolete `-N` / `-N,M` tab-stop forms among them."""
    files: list[str] = []
    specs: list[str] = []
    for w in args_files:
        if _OBSOLETE_TABS.fullmatch(w):
            specs.append(w[1:])
        else:
            files.append(w)
    return files, specs


@value_record
class ExpandArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="input files (default stdin)")
    tabs: tuple[str, ...] = param(default=(), aliases=["-t"],
                                  help="tab stops every N columns, or the list N1,N2,…")
    initial: bool = param(default=False, aliases=["-i"], help="do not convert tabs after non-blanks")


def _expand_line(line: bytes, stops: Stops, initial: bool) -> bytes:
    out = bytearray()
    col = 0
    for i, c in enumerate(line):
        if c == 9:
            nxt = stops.next(col)
            nxt = col + 1 if nxt is None else nxt
            out += b" " * (nxt - col)
            col = nxt
            continue
        if initial and c != 32:
            out += line[i:]
            break
        col = col - 1 if c == 8 and col else col if c == 8 else col + 1
        if c == 10:
            col = 0
        out.append(c)
    return bytes(out)


@tool(
    "expand", kind="read",
    args=ExpandArgs,
    description="convert tabs to spaces (GNU expand)",
    examples=[("tabs to 4-column stops", "expand -t 4 Makefile"),
              ("only leading tabs", "expand -i code.c")],
)
def expand(args: ExpandArgs, ctx: Context) -> ToolReturn:
    files, old = _split_obsolete(args.files)
    stops = parse_stops(ctx, [*args.tabs, *old])
    if stops is None:
        return 1
    # a tab becomes up to the widest stop's spaces, as text and as bytes
    ctx.need(2 * max(stops.size, stops.after, *stops.stops))
    status = InputStatus()
    fast = not stops.stops and not args.initial and stops.size < 1 << 31  # a C int
    for _, f in iter_inputs(ctx, files, status):
        for lines in _blocks(f):
            block = b"".join(lines)
            if b"\t" not in block:
                ctx.stdout.write(block)
            elif fast and b"\b" not in block and b"\r" not in block:
                ctx.stdout.write(block.expandtabs(stops.size))
            else:
                ctx.stdout.write(b"".join(_expand_line(ln, stops, args.initial) for ln in lines))
    return 1 if status.failed else 0


@value_record
class UnexpandArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="input files (default stdin)")
    all: bool = param(default=False, aliases=["-a"], help="convert all blanks, not just leading ones")
    first_only: bool = param(default=False, help="convert only leading blanks (overrides -a)")
    tabs: tuple[str, ...] = param(default=(), aliases=["-t"],
                                  help="tab stops every N columns, or the list N1,N2,… (implies -a)")


def _unexpand_line(line: bytes, stops: Stops, everywhere: bool) -> bytes:
    """GNU unexpand's state machine for one line: runs of blanks that reach a tab stop
    become a tab; a single blank just before a stop stays a blank."""
    out = bytearray()
    pending = bytearray()
    col = 0
    convert = True
    one_before = False
    prev_blank = True
    n = len(line)
    i = 0
    while i < n:
        c = line[i]
        i += 1
        if not convert:
            out += line[i - 1:]
            break
        blank = c in (32, 9)
        if blank:
            nxt = stops.next(col)
            if nxt is None:
                convert = False
            else:
                if c == 9:
                    col = nxt
                    if pending:
                        pending[0] = 9
                else:
                    col += 1
                    if not (prev_blank and col == nxt):
                        if col == nxt:
                            one_before = True
                        pending.append(c)
                        prev_blank = True
                        continue
                    pending[:1] = b"\t"
                    c = 9
                del pending[int(one_before):]
        elif c == 8:
            col = col - 1 if col else 0  # stops are searched afresh from the new column
        else:
            col += 1
        if pending:
            if len(pending) > 1 and one_before:
                pending[0] = 9
            out += pending
            pending.clear()
            one_before = False
        prev_blank = blank
        convert = convert and (everywhere or blank)
        out.append(c)
        if c == 10:
            col, convert, one_before, prev_blank = 0, True, False, True
    if pending:
        if len(pending) > 1 and one_before:
            pending[0] = 9
        out += pending
    return bytes(out)


@tool(
    "unexpand", kind="read",
    args=UnexpandArgs,
    description="convert leading (or with -a all) runs of spaces to tabs (GNU unexpand)",
    examples=[("leading spaces to tabs", "unexpand file.txt"),
              ("all runs of spaces, 4-column stops", "unexpand -t 4 file.txt")],
)
def unexpand(args: UnexpandArgs, ctx: Context) -> ToolReturn:
    files, old = _split_obsolete(args.files)
    stops = parse_stops(ctx, [*args.tabs, *old])
    if stops is None:
        return 1
    # -t implies -a; the obsolete -N form does not (GNU)
    everywhere = (args.all or bool(args.tabs)) and not args.first_only
    status = InputStatus()
    for _, f in iter_inputs(ctx, files, status):
        for lines in _blocks(f):
            ctx.stdout.write(b"".join(
                ln if b" " not in ln and b"\t" not in ln else _unexpand_line(ln, stops, everywhere)
                for ln in lines))
    return 1 if status.failed else 0


TOOLS = [fold, expand, unexpand]
