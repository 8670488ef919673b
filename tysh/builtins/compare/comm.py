"""comm (GNU coreutils 9.1): compare two sorted files line by line.

Three columns: lines only in FILE1, lines only in FILE2, lines in both; -1 -2 -3 hide
them. Lines compare as bytes (GNU in the C locale). Order is checked as GNU does: by
default only once an unpairable line has been seen, with a warning per file and status
1 at the end; --check-order stops at the first disorder, --nocheck-order never checks.
Both inputs are read incrementally and output is written in blocks."""

from __future__ import annotations

from tysh.builtins._common.fileinfo import q
from tysh.builtins._common.lines import VALUE_ITEMS, slurp
from tysh.builtins._common.operands import InputStatus, iter_lines, open_all
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import MutableRecord, Record, field, mutable, value_record
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO, Any

_FLUSH = 2048
_COLUMN_FLAGS = LazyRegex(r"-[123]+")


@value_record
class CommArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="FILE1 FILE2 (- is stdin)")
    # -1 -2 -3 (and bundles like -12) reach the tool as operands, as numeric options do
    suppress_1: bool = param(default=False, aliases=["-1"],
                             help="-1: suppress column 1 (lines unique to FILE1)")
    suppress_2: bool = param(default=False, aliases=["-2"],
                             help="-2: suppress column 2 (lines unique to FILE2)")
    suppress_3: bool = param(default=False, aliases=["-3"],
                             help="-3: suppress column 3 (lines that appear in both files)")
    check_order: bool = param(default=False, help="fail at the first unsorted input line")
    nocheck_order: bool = param(default=False, help="do not check that the input is sorted")
    output_delimiter: str | None = param(default=None, help="separate columns with STR")
    total: bool = param(default=False, help="output a summary line of the three counts")
    zero_terminated: bool = param(default=False, aliases=["-z"],
                                  help="lines end with NUL, not newline")


def _lines(ctx: Context, f: IO[bytes], delim: bytes) -> Iterator[bytes]:
    """Lines without their terminator."""
    if delim == b"\n":
        for line in iter_lines(f, ctx):
            yield line[:-1] if line.endswith(b"\n") else line
        return
    data = slurp(ctx, f, sep=delim)
    parts = data.split(delim)
    if parts and parts[-1] == b"":
        parts.pop()
    yield from parts


@mutable
class _Order(MutableRecord):
    """GNU's order check: on (always, or after the first unpairable line) and per file once."""

    mode: str  # "default" "on" "off"
    seen_unpairable: bool = False
    warned: list[bool] = field(factory=lambda: [False, False])

    def check(self, ctx: Context, prev: bytes, cur: bytes, which: int) -> bool:
        """Report disorder; True when comm must stop now (--check-order)."""
        if self.mode == "off" or (self.mode == "default" and not self.seen_unpairable):
            return False
        if self.warned[which] or prev <= cur:
            return False
        ctx.error(f"file {which + 1} is not in sorted order")
        self.warned[which] = True
        return self.mode == "on"


def _usage(ctx: Context, message: str) -> int:
    ctx.error(message)
    ctx.stderr.write(b"Try 'comm --help' for more information.\n")
    return 1


@tool(
    "comm", kind="read",
    args=CommArgs,
    description=(
        "compare two sorted files line by line: lines only in FILE1, only in FILE2, in "
        'both; --json gives [{"column":1|2|3,"line"}]'
    ),
    examples=[
        ("lines the two files share", "comm -12 a.txt b.txt"),
        ("lines only in the first file", "comm -23 <(sort a) <(sort b)"),
        ("counts of each column", "comm --total a b"),
    ],
)
def comm(args: CommArgs, ctx: Context) -> ToolReturn:
    hide = {1: args.suppress_1, 2: args.suppress_2, 3: args.suppress_3}
    files: list[str] = []
    for word in args.files:
        if _COLUMN_FLAGS.fullmatch(word) and len(files) < 2:
            for c in word[1:]:
                hide[int(c)] = True
        else:
            files.append(word)
    if len(files) < 2:
        return _usage(ctx, f"missing operand after {q(files[0])}" if files else "missing operand")
    if len(files) > 2:
        return _usage(ctx, f"extra operand {q(files[2])}")
    opened = open_all(ctx, files, InputStatus())
    if opened is None:
        return 1
    streams: list[IO[bytes]] = opened
    try:
        return _compare(args, ctx, streams, (not hide[1], not hide[2], not hide[3]))
    finally:
        for s in streams:
            if s is not ctx.stdin:
                s.close()


def _compare(args: CommArgs, ctx: Context, streams: list[IO[bytes]],
             show: tuple[bool, bool, bool]) -> ToolReturn:
    delim = b"\0" if args.zero_terminated else b"\n"
    sep_text = args.output_delimiter
    sep = b"\t" if sep_text is None else (sep_text.encode("utf-8", "surrogateescape") or b"\0")
    prefix = (b"", sep if show[0] else b"", sep * (show[0] + show[1]))
    mode = "on" if args.check_order else "off" if args.nocheck_order else "default"
    order = _Order(mode)
    its = [_lines(ctx, s, delim) for s in streams]
    cur: list[bytes | None] = [next(its[0], None), next(its[1], None)]
    before: list[bytes | None] = [None, None]  # the line before cur, per file
    totals = [0, 0, 0]
    rows: list[dict[str, Any]] = []
    out: list[bytes] = []
    as_json = ctx.json
    # text mode: the lines written with their column, for the typed value (at most
    # VALUE_ITEMS of them; past that none)
    kept: list[tuple[int, bytes]] | None = []
    while cur[0] is not None or cur[1] is not None:
        a, b = cur
        if a is None:
            col = 1
        elif b is None:
            col = 0
        else:
            col = 2 if a == b else 0 if a < b else 1
        line = b if col else a
        assert line is not None
        totals[col] += 1
        if col != 2:
            order.seen_unpairable = True
        if show[col]:
            if as_json:
                rows.append({"column": col + 1,
                             "line": line.decode("utf-8", "surrogateescape")})
            else:
                out.append(prefix[col] + line + delim)
                if kept is not None:
                    if len(kept) < VALUE_ITEMS:
                        kept.append((col + 1, line))
                    else:
                        kept = None
                if len(out) >= _FLUSH:
                    ctx.stdout.write(b"".join(out))
                    out.clear()
        for i in (0, 1):
            if col == 2 or col == i:
                prev = cur[i]
                older = before[i]
                # GNU checks a pair again as its line is used up: a disorder read before
                # the first unpairable line is still reported once one has been seen
                if (prev is not None and older is not None
                        and order.check(ctx, older, prev, i)):
                    ctx.stdout.write(b"".join(out))
                    return 1
                before[i] = prev
                nxt = next(its[i], None)
                cur[i] = nxt
                if nxt is not None and prev is not None and order.check(ctx, prev, nxt, i):
                    ctx.stdout.write(b"".join(out))
                    return 1
    if args.total and not as_json:
        out.append(b"%d%s%d%s%d%stotal%s" % (totals[0], sep, totals[1], sep, totals[2], sep, delim))
    ctx.stdout.write(b"".join(out))
    code = 0
    if any(order.warned):
        ctx.error("input is not in sorted order")
        code = 1
    if as_json:
        return Outcome(code=code, output=OutputData.text("", rich_json=rows))
    if kept is None:
        return code
    done = kept

    def value() -> list[dict[str, Any]]:
        return [{"column": col, "line": line.decode("utf-8", "surrogateescape")}
                for col, line in done]

    return Outcome(code=code, output=OutputData.value(value))
TOOLS = [comm]
