"""uniq (GNU coreutils 9.1): collapse runs of adjacent equal lines.

Runs are found with itertools.groupby over lines read in large chunks; the comparison
key (skip fields, skip chars, check chars, fold case) is built once."""

from __future__ import annotations

import io
import itertools
import operator

from tysh.builtins._common.args import by_args
from tysh.builtins._common.lines import (
    BIG,
    Kept,
    LineSplit,
    joined_lines,
    kept_value,
    line_batches,
    split_lines_text,
    whole_lines,
)
from tysh.builtins._common.operands import STDIN_DEVICES, InputStatus, open_input, open_output
from tysh.builtins.text.sort_keys import skip_fields_re
from tysh.kernel.base.record import MutableRecord, Record, mutable, value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import IO, Any


@value_record
class UniqArgs(Record):
    operands: tuple[str, ...] = param(
        positional=True, default=(), help="INPUT (- is stdin) and an optional OUTPUT file"
    )
    count: bool = param(default=False, aliases=["-c"], help="prefix lines by their count")
    repeated: bool = param(default=False, aliases=["-d"], help="only print duplicated lines, one per run")
    all_repeated: bool | str = param(
        default=False, aliases=["-D"], choices=["none", "prepend", "separate"], param_type="bool",
        help="print all duplicated lines; =prepend or =separate delimits the groups by an "
        "empty line",
    )
    group: bool | str = param(
        default=False, choices=["separate", "prepend", "append", "both"], param_type="bool",
        help="print all lines, each group of equal ones delimited by an empty line "
        "(=separate, the default, =prepend, =append or =both)",
    )
    unique: bool = param(default=False, aliases=["-u"], help="only print lines that are not repeated")
    ignore_case: bool = param(default=False, aliases=["-i"], help="ignore differences in case")
    skip_fields: int = param(default=0, aliases=["-f"], help="skip the first N fields", min=0,
                             range_error="{value}: invalid number of fields to skip")
    skip_chars: int = param(default=0, aliases=["-s"], help="skip the first N characters", min=0,
                            range_error="{value}: invalid number of bytes to skip")
    check_chars: int | None = param(default=None, aliases=["-w"], help="compare at most N characters",
                                    min=0, range_error="{value}: invalid number of bytes to compare")
    zero_terminated: bool = param(default=False, aliases=["-z"], help="lines end with NUL")


def _key(a: UniqArgs) -> Callable[[bytes], Any] | None:
    """The part of a line that decides equality; None when it is the whole line."""
    fields = skip_fields_re(a.skip_fields, None) if a.skip_fields else None
    sc = a.skip_chars
    w = a.check_chars
    fold = a.ignore_case
    if fields is None and not sc and w is None and not fold:
        return None

    def key(line: bytes) -> bytes:
        if fields is not None:
            m = fields.match(line)
            if m is not None:
                line = line[m.end():]
        if sc:
            line = line[sc:]
        if w is not None:
            line = line[:w]
        return line.upper() if fold else line

    return key


_NONE = object()


class _Prefixes(dict[int, bytes]):
    """count -> the separator, then the count as `uniq -c` prints it (`\n      3 `)."""

    def __init__(self, sep: bytes) -> None:
        super().__init__()
        self.sep = sep

    def __missing__(self, count: int) -> bytes:
        text = self[count] = b"%s%7d " % (self.sep, count)
        return text


@mutable
class _Run(MutableRecord):
    """The run still open at the end of a batch: its key, first line and length."""

    key: Any = _NONE
    line: bytes = b""
    count: int = 0


def _runs(batch: list[bytes], keys: list[Any], run: _Run) -> tuple[list[bytes], list[int]]:
    """Close the runs a batch completes: (first lines, counts); `run` carries the open one.

    Run starts are found with one comprehension over adjacent keys, so the cost per
    line stays in C."""
    n = len(batch)
    prev = [run.key, *keys[:-1]]
    starts = [i for i, (k, p) in enumerate(zip(keys, prev, strict=True)) if k != p]
    if not starts:
        run.count += n
        return [], []
    firsts: list[bytes] = []
    counts: list[int] = []
    if run.key is not _NONE:
        firsts.append(run.line)
        counts.append(run.count + starts[0])
    firsts.extend([batch[i] for i in starts[:-1]])
    counts.extend([b - a for a, b in zip(starts, starts[1:], strict=False)])
    last = starts[-1]
    run.key, run.line, run.count = keys[last], batch[last], n - last
    return firsts, counts


def _plain(a: UniqArgs) -> bool:
    """Whether uniq runs with no option but -z: each run of equal lines is its first."""
    return not (a.count or a.repeated or a.all_repeated or a.group or a.unique
                or a.ignore_case or a.skip_fields or a.skip_chars or a.check_chars is not None)


_FIRST = operator.itemgetter(0)


def _uniq_plain(f: IO[bytes], out: IO[bytes], sep: bytes, ctx: Context | None) -> None:
    """`_uniq_stream` with no option: each line unequal to the one before it is written
    as its batch is read (the same bytes; the runs need no counting). A batch's runs
    are found by groupby, in C: its first line is dropped when it continues the run
    the batch before ended with."""
    prev: Any = _NONE
    split = LineSplit(f, sep, BIG, ctx=ctx)
    for batch in split:  # (each holds a line at least)
        firsts = list(map(_FIRST, itertools.groupby(batch)))
        if batch[0] == prev:
            del firsts[0]
        prev = batch[-1]
        if firsts:
            out.write(sep.join(firsts) + sep)
    last = split.rest
    if last and last != prev:
        out.write(last + sep)


def _uniq_stream(a: UniqArgs, f: IO[bytes], out: IO[bytes], json_rows: list[Any] | None,
                 ctx: Context | None = None) -> None:
    sep = b"\0" if a.zero_terminated else b"\n"
    key = _key(a)
    if a.all_repeated or a.group:
        _groups(a, f, out, key, sep, ctx)
        return
    run = _Run()

    prefixes = _Prefixes(sep)

    def emit(firsts: list[bytes], counts: list[int]) -> None:
        if a.repeated and a.unique:
            return  # GNU: -d with -u prints nothing
        if a.repeated or a.unique:
            keep = [(c > 1) is a.repeated for c in counts]
            firsts = list(itertools.compress(firsts, keep))
            counts = list(itertools.compress(counts, keep))
        if not firsts:
            return
        if a.count:
            if json_rows is not None:
                json_rows.extend({"count": c, "line": ln.decode("utf-8", "replace")}
                                 for ln, c in zip(firsts, counts, strict=True))
            # "%7d LINE\n" per run, built by interleaving cached prefixes with the lines
            # rather than by a bytes % per line
            parts: list[bytes] = [b""] * (2 * len(firsts))
            parts[0::2] = map(prefixes.__getitem__, counts)
            parts[1::2] = firsts
            out.write(b"".join(parts)[1:] + sep)
        else:
            out.write(sep.join(firsts) + sep)

    for batch in line_batches(f, sep, ctx):  # a line longer than a chunk is charged
        keys = batch if key is None else list(map(key, batch))
        firsts, counts = _runs(batch, keys, run)
        if firsts:
            emit(firsts, counts)
    if run.key is not _NONE:
        emit([run.line], [run.count])


def _groups(a: UniqArgs, f: IO[bytes], out: IO[bytes], key: Callable[[bytes], Any] | None,
            sep: bytes, ctx: Context | None = None) -> None:
    """-D / --all-repeated=METHOD (only runs longer than one) and --group=METHOD (every
    run), with GNU's placement of the empty delimiter line."""
    lines = itertools.chain.from_iterable(line_batches(f, sep, ctx))
    groups = itertools.groupby(lines, key) if key is not None else itertools.groupby(lines)
    method = a.group if a.group else a.all_repeated
    method = "separate" if method is True and a.group else method
    before = method in ("prepend", "both")
    between = method == "separate"
    first = True
    for _k, grp in groups:
        run = list(grp)
        if not a.group and len(run) < 2:
            continue
        if a.unique and not a.group:  # GNU -D -u: each repeated run but its last line
            run.pop()
        if before or (between and not first):
            out.write(sep)
        out.write(b"".join(r + sep for r in run))
        if method == "append":
            out.write(sep)
        first = False
    if method == "both" and not first:
        out.write(sep)


def _refusal(args: UniqArgs) -> str | None:
    """What uniq says of options it cannot run with, or None."""
    if args.group and (args.count or args.repeated or args.all_repeated or args.unique):
        return "--group is mutually exclusive with -c/-d/-D/-u"
    if args.all_repeated and args.count:
        return "printing all duplicated lines and repeat counts is meaningless"
    if args.skip_fields < 0 or args.skip_chars < 0 or (
            args.check_chars is not None and args.check_chars < 0):
        for value, what in ((args.skip_fields, "fields to skip"),
                            (args.skip_chars, "bytes to skip"),
                            (args.check_chars, "bytes to compare")):
            if value is not None and value < 0:
                return f"{value}: invalid number of {what}"
    if len(args.operands) > 2:
        return f"extra operand '{args.operands[2]}'"
    return None


def _how(args: UniqArgs) -> str | bytes | bool:
    """The refusal of the options; or for a plain uniq (`_plain`) from stdin to stdout,
    the commonest, its line separator; or else whether they ask for a plain uniq."""
    refusal = _refusal(args)
    if refusal is not None:
        return refusal
    if not _plain(args):
        return False
    if _stdin_to_stdout(args.operands):
        return b"\0" if args.zero_terminated else b"\n"
    return True


def _stdin_to_stdout(names: tuple[str, ...]) -> bool:
    """Whether uniq's operands read stdin and write stdout (none, `-`, `/dev/stdin`)."""
    return all(n == "-" or n in STDIN_DEVICES for n in names[:1]) and names[1:] in (
        (), ("-",))


_how_of = by_args(_how)


def _uniq_filter(a: UniqArgs, data: bytes) -> bytes | None:
    """ToolFilter: uniq from stdin to stdout, what `uniq` writes for these options."""
    how = _how_of(a)
    if type(how) is str:
        return None
    sep = b"\0" if a.zero_terminated else b"\n"
    if type(how) is bytes:  # plain: each run's first line
        return joined_lines(list(map(_FIRST, itertools.groupby(whole_lines(data, sep)))), sep)
    if not _stdin_to_stdout(a.operands):
        return None
    out = io.BytesIO()
    _uniq_stream(a, io.BytesIO(data), out, None)
    return out.getvalue()


@tool(
    "uniq", kind="read",
    args=UniqArgs,
    description=(
        "report or omit repeated adjacent lines; --json gives an array of lines, "
        'with -c an array of {"count","line"}'
    ),
    examples=[
        ("count occurrences", "sort words.txt | uniq -c"),
        ("only duplicated lines", "sort names.txt | uniq -d"),
    ],
    operations=["fs.overwrite"],
    filter=_uniq_filter,
)
def uniq(args: UniqArgs, ctx: Context) -> ToolReturn:
    how = _how_of(args)
    if type(how) is bytes and not ctx.json:
        # what the general path below does for a plain uniq from stdin to stdout
        if ctx.keeps_value:
            kept = Kept(ctx.stdout)
            _uniq_plain(ctx.stdin, kept, how, ctx)  # type: ignore[arg-type]  # (a stream)
            return kept_value(kept, None)  # (status 0)
        _uniq_plain(ctx.stdin, ctx.stdout, how, ctx)
        return 0
    if type(how) is str:
        ctx.error(how)
        return 1
    status = InputStatus()
    f = open_input(ctx, args.operands[0] if args.operands else "-", status)
    if f is None:
        return 1
    json_rows: list[Any] | None = [] if ctx.json else None
    out: IO[bytes] = ctx.stdout
    sink: IO[bytes] | None = None
    try:
        if len(args.operands) == 2 and args.operands[1] != "-":
            try:
                sink = open_output(ctx, args.operands[1])
            except FsError as e:
                ctx.error(f"{args.operands[1]}: {e.reason}")
                return 1
            out = sink
        elif ctx.json:
            out = io.BytesIO()
        elif ctx.keeps_value:
            out = kept = Kept(ctx.stdout)  # type: ignore[assignment]
        if how:
            _uniq_plain(f, out, b"\0" if args.zero_terminated else b"\n", ctx)
        else:
            _uniq_stream(args, f, out, json_rows, ctx)
    finally:
        if f is not ctx.stdin:
            f.close()
        if sink is not None:
            sink.close()
    if ctx.json and sink is None and isinstance(out, io.BytesIO):
        text = out.getvalue().decode("utf-8", "replace")
        data = json_rows if args.count else split_lines_text(text)
        return Outcome(code=0, output=OutputData.text(text, rich_json=data))
    if sink is None and ctx.keeps_value:
        sep = "\0" if args.zero_terminated else "\n"
        return Outcome(code=0, output=kept_value(
            kept, (lambda text: _count_rows(sep, text)) if args.count else None))
    return 0


def _count_rows(sep: str, text: str) -> list[dict[str, Any]]:
    """`uniq -c`'s value read back from its text: a count right-aligned in seven
    columns, a space, the line."""
    rows = text.split(sep)
    if rows[-1] == "":
        rows.pop()
    out: list[dict[str, Any]] = []
    for row in rows:
        n, _, line = row.lstrip(" ").partition(" ")
        out.append({"count": int(n), "line": line})
    return out


TOOLS = [uniq]
