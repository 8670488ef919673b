"""cut and paste (GNU coreutils 9.1): select columns of lines, join lines side by side.

cut's LIST is parsed once into ranges; the selected indices for a given number of
fields (or line length) are computed once and cached, so the per-line work is a split
and a join. `-c` counts characters (UTF-8), `-b` bytes."""

from __future__ import annotations

import io
import itertools

from tysh.builtins._common.args import by_args
from tysh.builtins._common.lines import line_batches, lines_json, whole_lines
from tysh.builtins._common.operands import InputStatus, iter_inputs, open_input
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import MutableRecord, Record, field, mutable, value_record
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO

    # what a cut selects: (fields or not, the selector, the input delimiter — for
    # positions, non-empty when they count characters —, the output delimiter, whether
    # lines without a delimiter are dropped, the line separator)
    _Plan = tuple[bool, "Selector", bytes, bytes, bool, bytes]

INF = 1 << 62


class ListError(Exception):
    pass


_LIST_SEPARATORS = LazyRegex(r"[,\s]+")
_LIST_ITEM = LazyRegex(r"(\d*)(-?)(\d*)")
_LIST_ITEM_HEAD = LazyRegex(r"^[\d-]*")


def parse_list(text: str, what: str) -> list[tuple[int, int]]:
    """GNU's LIST: `N`, `N-M`, `N-`, `-M` separated by commas (or blanks), 1-based,
    merged into sorted, disjoint ranges. Only overlapping ranges merge (GNU): `1-2,3-4`
    stays two ranges, so `--output-delimiter` still separates them."""
    ranges: list[tuple[int, int]] = []
    for item in _LIST_SEPARATORS.split(text.strip()):
        if not item:
            raise ListError(f"invalid {what} list: empty item")
        m = _LIST_ITEM.fullmatch(item)
        if m is None or item == "-":
            if item == "-":
                raise ListError("invalid range with no endpoint: -")
            bad = _LIST_ITEM_HEAD.sub("", item) or item
            raise ListError(f"invalid {what} value '{bad}'")
        lo_s, dash, hi_s = m.groups()
        lo = int(lo_s) if lo_s else 1
        hi = (int(hi_s) if hi_s else INF) if dash else lo
        if (lo_s and lo == 0) or (hi_s and int(hi_s) == 0):
            raise ListError("fields and positions are numbered from 1")
        if hi < lo:
            raise ListError("invalid decreasing range")
        ranges.append((lo, hi))
    ranges.sort()
    merged: list[tuple[int, int]] = []
    for lo, hi in ranges:
        if merged and lo <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


@mutable
class Selector(MutableRecord):
    """Selected 0-based runs [start, end) for a sequence of length n, cached per n."""

    ranges: list[tuple[int, int]]
    complement: bool
    cache: dict[int, list[tuple[int, int]]] = field(factory=dict)

    def runs(self, n: int) -> list[tuple[int, int]]:
        got = self.cache.get(n)
        if got is not None:
            return got
        sel = [(lo - 1, min(hi, n)) for lo, hi in self.ranges if lo <= n]
        if self.complement:
            inv: list[tuple[int, int]] = []
            pos = 0
            for s, e in sel:
                if s > pos:
                    inv.append((pos, s))
                pos = e
            if pos < n:
                inv.append((pos, n))
            sel = inv
        if len(self.cache) < 4096:
            self.cache[n] = sel
        return sel


@value_record
class CutArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="files to read; - is stdin")
    fields: str | None = param(default=None, aliases=["-f"], help="select these fields (LIST)")
    characters: str | None = param(
        default=None, aliases=["-c"],
        help="select these characters (counted as UTF-8 characters; GNU 9.1 counts bytes)",
    )
    bytes: str | None = param(default=None, aliases=["-b"], help="select these bytes")
    delimiter: str | None = param(
        default=None, aliases=["-d"], help="field delimiter (a single character; default TAB)"
    )
    only_delimited: bool = param(
        default=False, aliases=["-s"], help="skip lines without the delimiter"
    )
    output_delimiter: str | None = param(default=None, help="separate output fields with STRING")
    complement: bool = param(default=False, help="select everything but the LIST")
    zero_terminated: bool = param(default=False, aliases=["-z"], help="lines end with NUL")
    n: bool = param(default=False, aliases=["-n"], help="ignored")


def _enc(s: str) -> bytes:
    return s.encode("utf-8", "surrogateescape")


def _cut_fields(
    lines: Iterator[list[bytes]], out: IO[bytes], sel: Selector, delim: bytes, odelim: bytes,
    only_delimited: bool, sep: bytes,
) -> None:
    if not sel.complement:
        _cut_fields_fast(lines, out, sel.ranges, delim, odelim, only_delimited, sep)
        return
    for batch in lines:
        buf: list[bytes] = []
        for line in batch:
            parts = line.split(delim)
            if len(parts) == 1:
                if not only_delimited:
                    buf.append(line)
                    buf.append(sep)
                continue
            runs = sel.runs(len(parts))
            if len(runs) == 1:
                s, e = runs[0]
                buf.append(odelim.join(parts[s:e]))
            else:
                buf.append(odelim.join([p for s, e in runs for p in parts[s:e]]))
            buf.append(sep)
        out.write(b"".join(buf))


def _cut_fields_fast(
    lines: Iterator[list[bytes]], out: IO[bytes], ranges: list[tuple[int, int]], delim: bytes,
    odelim: bytes, only_delimited: bool, sep: bytes,
) -> None:
    """Selection without --complement: slices past the end are empty, so the same slices
    serve every line and the work per batch is two comprehensions."""
    slices = [(lo - 1, hi) for lo, hi in ranges]
    limit = ranges[-1][1]
    maxsplit = limit if limit < INF else -1
    join = odelim.join
    for batch in lines:
        split = [ln.split(delim, maxsplit) for ln in batch]
        if only_delimited:
            split = [p for p in split if len(p) > 1]
        if len(slices) == 1:
            a, b = slices[0]
            got = [join(p[a:b]) if len(p) > 1 else p[0] for p in split]
        elif len(slices) == 2:
            (a, b), (c, d) = slices
            got = [join(p[a:b] + p[c:d]) if len(p) > 1 else p[0] for p in split]
        else:
            got = [join(_pick(p, slices)) if len(p) > 1 else p[0] for p in split]
        if got:
            out.write(sep.join(got) + sep)


def _pick(parts: list[bytes], slices: list[tuple[int, int]]) -> list[bytes]:
    out: list[bytes] = []
    for a, b in slices:
        out.extend(parts[a:b])
    return out


def _cut_positions(
    lines: Iterator[list[bytes]], out: IO[bytes], sel: Selector, odelim: bytes, chars: bool,
    sep: bytes,
) -> None:
    for batch in lines:
        buf: list[bytes] = []
        for line in batch:
            if chars and not line.isascii():
                text = line.decode("utf-8", "surrogateescape")
                runs = sel.runs(len(text))
                buf.append(_enc(odelim.decode("utf-8", "surrogateescape").join(
                    [text[s:e] for s, e in runs])))
            else:
                runs = sel.runs(len(line))
                buf.append(odelim.join([line[s:e] for s, e in runs]))
            buf.append(sep)
        out.write(b"".join(buf))


def _cut_plan(a: CutArgs) -> _Plan | str:
    """What `a` asks cut to select, or the message refusing it."""
    modes = [(a.fields, "field"), (a.characters, "character"), (a.bytes, "byte")]
    given = [(v, w) for v, w in modes if v is not None]
    if not given:
        return "you must specify a list of bytes, characters, or fields"
    if len(given) > 1:
        return "only one type of list may be specified"
    spec, what = given[0]
    assert spec is not None
    if a.delimiter is not None and what != "field":
        return "an input delimiter may be specified only when operating on fields"
    if a.only_delimited and what != "field":
        return "suppressing non-delimited lines makes sense\n\tonly when operating on fields"
    try:
        sel = Selector(parse_list(spec, what), a.complement)
    except ListError as e:
        return str(e)
    delim = b"\t"
    if a.delimiter is not None:
        delim = _enc(a.delimiter) or b"\0"  # GNU: an empty delimiter means NUL
        if len(a.delimiter) > 1:
            return "the delimiter must be a single character"
    sep = b"\0" if a.zero_terminated else b"\n"
    if what == "field":
        odelim = delim if a.output_delimiter is None else _enc(a.output_delimiter)
        return True, sel, delim, odelim, a.only_delimited, sep
    odelim = b"" if a.output_delimiter is None else _enc(a.output_delimiter)
    return False, sel, b"c" if what == "character" else b"", odelim, False, sep


_plan_of = by_args(_cut_plan)


def _cut_lines(plan: _Plan, batches: Iterator[list[bytes]], out: IO[bytes]) -> None:
    fields, sel, delim, odelim, only_delimited, sep = plan
    if fields:
        _cut_fields(batches, out, sel, delim, odelim, only_delimited, sep)
    else:  # (characters: `delim` is not empty)
        _cut_positions(batches, out, sel, odelim, bool(delim), sep)


def _cut_body(a: CutArgs, ctx: Context) -> int:
    plan = _plan_of(a)
    if isinstance(plan, str):
        ctx.error(plan)
        return 1
    status = InputStatus()
    for _name, f in iter_inputs(ctx, a.files, status):
        _cut_lines(plan, line_batches(f, plan[5], ctx), ctx.stdout)
    return 1 if status.failed else 0


def _cut_filter(a: CutArgs, data: bytes) -> bytes | None:
    """ToolFilter: `_cut_body` of stdin."""
    plan = _plan_of(a)
    if isinstance(plan, str) or a.files not in ((), ("-",)):
        return None
    out = io.BytesIO()
    _cut_lines(plan, iter((whole_lines(data, plan[5]),)), out)
    return out.getvalue()


@tool(
    "cut", kind="read",
    args=CutArgs,
    description="print selected fields, characters or bytes of each line; --json gives an array of lines",
    examples=[
        ("second column of a CSV", "cut -d, -f2 data.csv"),
        ("fields 1 and 3 onwards", "cut -d: -f1,3- /etc/passwd"),
        ("first 10 characters", "cut -c1-10 notes.txt"),
    ],
    filter=_cut_filter,
)
def cut(args: CutArgs, ctx: Context) -> ToolReturn:
    return lines_json(ctx, _cut_body, args)


# ---------------------------------------------------------------------------- paste


_TRAILING_BACKSLASH = LazyRegex(r"(?<!\\)(?:\\\\)*\\$")


def parse_delims(text: str) -> list[bytes]:
    """paste's delimiter list: `\\n \\t \\\\` and `\\0` (no delimiter) escapes."""
    out: list[bytes] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            i += 1
            c = {"n": "\n", "t": "\t", "\\": "\\", "0": ""}.get(text[i], text[i])
        out.append(_enc(c))
        i += 1
    return out


@value_record
class PasteArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="files to join; - is stdin")
    delimiters: str = param(
        default="\t", aliases=["-d"], help="use characters from LIST instead of TABs, in turn"
    )
    serial: bool = param(default=False, aliases=["-s"], help="paste one file at a time")
    zero_terminated: bool = param(default=False, aliases=["-z"], help="lines end with NUL")


def _join(fields: list[bytes], delims: list[bytes]) -> bytes:
    if not delims or not fields:
        return b"".join(fields)
    if len(delims) == 1:
        return delims[0].join(fields)
    out = [fields[0]]
    for i, fld in enumerate(fields[1:]):
        out.append(delims[i % len(delims)])
        out.append(fld)
    return b"".join(out)


def _paste_body(a: PasteArgs, ctx: Context) -> int:
    if _TRAILING_BACKSLASH.search(a.delimiters):
        ctx.error(f"delimiter list ends with an unescaped backslash: {a.delimiters}")
        return 1
    delims = parse_delims(a.delimiters)
    sep = b"\0" if a.zero_terminated else b"\n"
    status = InputStatus()
    out = ctx.stdout
    if a.serial:
        # streamed a batch at a time: one file's lines become one output line, however
        # long, without holding them all
        for _name, f in iter_inputs(ctx, a.files, status):
            k = 0  # lines of this file written so far
            for batch in line_batches(f, sep, ctx):
                if len(delims) <= 1:
                    d = delims[0] if delims else b""
                    out.write((d if k else b"") + d.join(batch))
                else:
                    parts: list[bytes] = []
                    for ln in batch:
                        if k:
                            parts.append(delims[(k - 1) % len(delims)])
                        parts.append(ln)
                        k += 1
                    out.write(b"".join(parts))
                    continue
                k += len(batch)
            out.write(sep)
        return 1 if status.failed else 0
    names = list(a.files) or ["-"]
    stdin_iter: Iterator[bytes] | None = None
    iters: list[Iterator[bytes] | None] = []
    opened: list[IO[bytes]] = []
    try:
        for name in names:
            if name == "-":
                if stdin_iter is None:
                    stdin_iter = itertools.chain.from_iterable(line_batches(ctx.stdin, sep, ctx))
                iters.append(stdin_iter)
                continue
            fh = open_input(ctx, name, status)
            if fh is None:
                return 1
            opened.append(fh)
            iters.append(itertools.chain.from_iterable(line_batches(fh, sep, ctx)))
        buf: list[bytes] = []
        while True:
            row: list[bytes] = []
            alive = False
            for i, it in enumerate(iters):
                line = next(it, None) if it is not None else None
                if line is None:
                    iters[i] = None
                    row.append(b"")
                else:
                    alive = True
                    row.append(line)
            if not alive:
                break
            buf.append(_join(row, delims) + sep)
            if len(buf) >= 1024:
                out.write(b"".join(buf))
                buf.clear()
        if buf:
            out.write(b"".join(buf))
    finally:
        for fh in opened:
            fh.close()
    return 1 if status.failed else 0


@tool(
    "paste", kind="read",
    args=PasteArgs,
    description="merge lines of files side by side; --json gives an array of lines",
    examples=[
        ("two files as columns", "paste names.txt ages.txt"),
        ("join all lines with commas", "paste -sd, list.txt"),
        ("two lines per row", "paste - - < pairs.txt"),
    ],
)
def paste(args: PasteArgs, ctx: Context) -> ToolReturn:
    return lines_json(ctx, _paste_body, args)


TOOLS = [cut, paste]
