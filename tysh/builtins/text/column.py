"""column (util-linux 2.38): lay lines out in columns.

Blank lines are skipped. Without -t, each input line is an entry, filled down the columns (or across
with -x) of an 80-character-wide output (-c), with tabs up to each 8-aligned column
stop. With -t, lines are split into cells — on runs of blanks (leading blanks dropped),
or at every character of -s SEPS, where adjacent separators make empty cells — and
every column is padded to its widest cell, joined by -o (two spaces); the last column
is not padded. Widths are display widths (wide characters count 2)."""

from __future__ import annotations

from tysh.builtins._common.lines import VALUE_ITEMS, slurp_text
from tysh.builtins._common.operands import InputStatus, iter_inputs
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import unicodedata
    from collections.abc import Callable
    from typing import Any
else:  # only text that is not ASCII is measured by it
    unicodedata = LazyModule(globals(), "unicodedata", "unicodedata")

_TAB = 8
_BLANKS = LazyRegex(r"[ \t]+")


@value_record
class ColumnArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="input files (default stdin)")
    table: bool = param(default=False, aliases=["-t"], help="make a table: split lines into cells")
    separator: str | None = param(default=None, aliases=["-s"],
                                  help="characters that split cells for -t (default blanks)")
    output_separator: str = param(default="  ", aliases=["-o"],
                                  help="string between table columns (default two spaces)")
    table_columns: str | None = param(default=None, aliases=["-N"],
                                      help="comma-separated column names: a header line for -t")
    output_width: int = param(default=80, aliases=["-c"], help="output is N characters wide",
                              min=1, range_error="invalid columns argument: '{value}'")
    fillrows: bool = param(default=False, aliases=["-x"], help="fill rows before columns")


def width(s: str) -> int:
    """Display width: East Asian wide characters take two cells, combining marks none."""
    if s.isascii():
        return len(s)
    n = 0
    for c in s:
        if unicodedata.combining(c):
            continue
        n += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return n


def _cells(line: str, seps: str | None) -> list[str]:
    if seps is None:
        return _BLANKS.split(line.strip(" \t"))
    if len(seps) == 1:
        return line.split(seps)
    out, start = [], 0
    for i, c in enumerate(line):
        if c in seps:
            out.append(line[start:i])
            start = i + 1
    out.append(line[start:])
    return out


def table(rows: list[list[str]], sep: str) -> str:
    """Rows padded to each column's widest cell; the last column left unpadded."""
    ncols = max((len(r) for r in rows), default=0)
    widths = [0] * ncols
    for r in rows:
        for i, cell in enumerate(r):
            w = width(cell)
            if w > widths[i]:
                widths[i] = w
    last = ncols - 1
    out: list[str] = []
    for r in rows:
        parts = []
        for i in range(ncols):
            cell = r[i] if i < len(r) else ""
            parts.append(cell if i == last else cell + " " * (widths[i] - width(cell)))
        out.append(sep.join(parts) + "\n")
    return "".join(out)


def _stop(n: int) -> int:
    """The next tab stop after column n."""
    return (n + _TAB) & ~(_TAB - 1)


def fill(entries: list[str], term_width: int, across: bool) -> str:
    """util-linux's fillcols/fillrows: entries in cells of the widest entry rounded up to
    the next tab stop, tabs between them."""
    if not entries:
        return ""
    widths = [width(e) for e in entries]
    cell = _stop(max(widths))
    ncols = max(term_width // cell, 1)
    n = len(entries)
    out: list[str] = []
    if across:
        rows = [list(range(i, min(i + ncols, n))) for i in range(0, n, ncols)]
    else:
        nrows = -(-n // ncols)
        rows = [list(range(r, n, nrows)) for r in range(nrows)]
    for idx in rows:
        chcnt, endcol = 0, cell
        line: list[str] = []
        for k, i in enumerate(idx):
            line.append(entries[i])
            chcnt += widths[i]
            if k == len(idx) - 1:
                break
            while (nxt := _stop(chcnt)) <= endcol:
                line.append("\t")
                chcnt = nxt
            endcol += cell
        out.append("".join(line) + "\n")
    return "".join(out)


@tool(
    "column", kind="read",
    args=ColumnArgs,
    description=(
        "columnate lists, or with -t align a table (util-linux column); --json gives the "
        "entries, or with -t the rows (objects keyed by -N names when given)"
    ),
    examples=[
        ("align whitespace-separated fields", "mount | column -t"),
        ("a CSV as a table with a header", "column -t -s, -N NAME,SIZE data.csv"),
        ("many short lines in columns", "ls | column -c 60"),
    ],
)
def column(args: ColumnArgs, ctx: Context) -> ToolReturn:
    if args.output_width < 1:
        ctx.error(f"invalid columns argument: '{args.output_width}'")
        return 1
    status = InputStatus()
    lines: list[str] = []
    for _, f in iter_inputs(ctx, args.files, status):
        text = slurp_text(ctx, f)
        lines.extend(text.splitlines())
    lines = [ln for ln in lines if ln.strip(" \t")]  # util-linux skips blank lines
    code = 1 if status.failed else 0
    names = args.table_columns.split(",") if args.table_columns is not None else None
    if args.table or names is not None:
        if args.separator == "":
            ctx.error("invalid separator: empty string")
            return 1
        rows = [_cells(ln, args.separator) for ln in lines]
        def value() -> Any:
            return rows if names is None else [
                {names[i] if i < len(names) else str(i + 1): c for i, c in enumerate(r)}
                for r in rows]

        if ctx.json:
            return Outcome(code=code, output=OutputData.text("", rich_json=value()))
        ctx.write(table(([names] if names else []) + rows, args.output_separator))
        return _valued(code, rows, value)
    if ctx.json:
        return Outcome(code=code, output=OutputData.text("", rich_json=lines))
    ctx.write(fill(lines, args.output_width, args.fillrows))
    return _valued(code, lines, lambda: lines)


def _valued(code: int, rows: list[Any], value: Callable[[], Any]) -> ToolReturn:
    """The text-mode result: the value `--json` gives, unless there are more rows than
    a value keeps."""
    if len(rows) > VALUE_ITEMS:
        return code
    return Outcome(code=code, output=OutputData.value(value))


TOOLS = [column]
