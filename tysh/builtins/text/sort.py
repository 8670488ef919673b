"""sort (GNU coreutils 9.1, LC_ALL=C.UTF-8 so text compares by code point = byte order).

All inputs are read, split into lines and sorted with `list.sort` and a key built once
(sort_keys); the plain case sorts the byte strings themselves.

A big input is sorted in steps so that no step holds the interpreter lock for long and
a cancel or a deadline is seen between steps: runs of STEP lines are sorted one by one,
then merged two by two (`list.sort` finds the two runs and merges them in one pass);
keys are computed once, a chunk at a time. The lines and keys held are charged to the
memory budget as they are read and built."""

from __future__ import annotations

import bisect
import itertools
import os

from tysh.builtins._common.args import by_args
from tysh.builtins._common.lines import (
    BIG,
    LINE_BYTES,
    joined_lines,
    line_batches,
    lines_json,
    split_chunk,
    whole_lines,
)
from tysh.builtins._common.operands import (
    STDIN_DEVICES,
    InputStatus,
    open_input,
    open_output,
    rewrites_input,
)
from tysh.builtins.text.sort_keys import (
    KeyOpts,
    KeySpec,
    SortKeyError,
    bytes_key,
    check_compatible,
    key_letters,
    key_passes,
    make_converter,
    make_sort_key,
    numeric_value,
    numeric_values,
    parse_key,
)
from tysh.kernel.base.record import Record, frozen, replace, value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import IO, Any


@value_record
class SortArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="files to sort; - is stdin")
    numeric_sort: bool = param(default=False, aliases=["-n"], help="compare by numeric value")
    general_numeric_sort: bool = param(
        default=False, aliases=["-g"], help="compare as floating point numbers (1e3, inf, nan)"
    )
    human_numeric_sort: bool = param(
        default=False, aliases=["-h"], help="compare human-readable sizes (2K, 1G)"
    )
    version_sort: bool = param(default=False, aliases=["-V"], help="natural sort of version numbers")
    month_sort: bool = param(default=False, aliases=["-M"], help="compare month names (JAN < DEC)")
    reverse: bool = param(default=False, aliases=["-r"], help="reverse the result")
    unique: bool = param(default=False, aliases=["-u"], help="output only the first of equal lines")
    ignore_case: bool = param(default=False, aliases=["-f"], help="fold lower case to upper case")
    ignore_leading_blanks: bool = param(default=False, aliases=["-b"], help="ignore leading blanks")
    dictionary_order: bool = param(
        default=False, aliases=["-d"], help="consider only blanks and alphanumerics"
    )
    ignore_nonprinting: bool = param(
        default=False, aliases=["-i"], help="consider only printable characters"
    )
    stable: bool = param(
        default=False, aliases=["-s"], help="keep input order of equal lines (no last-resort compare)"
    )
    field_separator: str | None = param(
        default=None, aliases=["-t"], help="fields are separated by this character"
    )
    key: tuple[str, ...] = param(
        default=(), aliases=["-k"], help="sort by a key: F[.C][OPTS][,F[.C][OPTS]]; repeatable"
    )
    output: str | None = param(default=None, aliases=["-o"], help="write the result to FILE")
    merge: bool = param(
        default=False, aliases=["-m"], help="merge already sorted files; do not sort"
    )
    random_sort: bool = param(
        default=False, aliases=["-R"], help="shuffle, but group identical keys"
    )
    check: bool = param(default=False, aliases=["-c"], help="check whether input is sorted")
    check_quiet: bool = param(default=False, aliases=["-C"], help="like -c, but report nothing")
    zero_terminated: bool = param(default=False, aliases=["-z"], help="lines end with NUL")
    buffer_size: str | None = param(default=None, aliases=["-S"], help="accepted and ignored")
    temporary_directory: str | None = param(
        default=None, aliases=["-T"], help="accepted and ignored"
    )
    parallel: int | None = param(default=None, help="accepted and ignored", min=1,
                                 range_error="number in parallel must be nonzero")


def _global_letters(a: SortArgs) -> str:
    """The global ordering options as -k letters, for GNU's compatibility check."""
    return "".join(c for flag, c in (
        (a.ignore_leading_blanks, "b"), (a.dictionary_order, "d"), (a.ignore_case, "f"),
        (a.general_numeric_sort, "g"), (a.human_numeric_sort, "h"), (a.ignore_nonprinting, "i"),
        (a.month_sort, "M"), (a.numeric_sort, "n"), (a.random_sort, "R"), (a.reverse, "r"),
        (a.version_sort, "V"),
    ) if flag)


def _global_opts(a: SortArgs) -> KeyOpts:
    letters = _global_letters(a)
    if not a.key:
        check_compatible(letters)
    for spec in a.key:
        check_compatible(key_letters(spec) or letters)
    kind = next((c for c in letters if c in "nghMV"), "")
    return KeyOpts(
        kind=kind,
        fold=a.ignore_case,
        dictionary=a.dictionary_order,
        nonprinting=a.ignore_nonprinting,
        reverse=a.reverse,
        skip_start_blanks=a.ignore_leading_blanks,
        skip_end_blanks=a.ignore_leading_blanks,
    )


def _tab(sep: str | None) -> bytes | None:
    if sep is None:
        return None
    if sep == "\\0":
        return b"\0"
    raw = sep.encode("utf-8", "surrogateescape")
    if len(sep) != 1:
        raise SortKeyError(f"multi-character tab '{sep}'")
    return raw


@frozen
class _Plan(Record):
    """How to order lines: a key function (None: the bytes themselves), the direction,
    and the key that defines equality for -u and -c."""

    key: Callable[[bytes], Any] | None
    reverse: bool
    eq_key: Callable[[bytes], Any] | None
    # the keys as one bytes string, when they allow it (text keys in the sort's direction)
    bkey: Callable[[bytes], bytes] | None = None
    last_resort: bool = True
    passes: tuple[tuple[Callable[[bytes], Any], bool], ...] = ()


# the plan of a sort with no key, no field separator and no ordering option but -r
_PLAIN = (_Plan(None, False, None), _Plan(None, True, None))


def _plan(a: SortArgs) -> _Plan:
    """`_planned(a)`, with the commonest sort (whole lines as bytes) decided at once."""
    if not a.key and a.field_separator is None and not (
            a.ignore_leading_blanks or a.dictionary_order or a.ignore_case
            or a.general_numeric_sort or a.human_numeric_sort or a.ignore_nonprinting
            or a.month_sort or a.numeric_sort or a.random_sort or a.version_sort):
        return _PLAIN[bool(a.reverse)]
    return _planned(a)


def _planned(a: SortArgs) -> _Plan:
    gopts = _global_opts(a)
    tab = _tab(a.field_separator)
    keys: list[KeySpec] = [parse_key(k, gopts) for k in a.key]
    rev = a.reverse
    last_resort = not (a.stable or a.unique)
    if not keys:
        whole = replace(gopts, reverse=rev)
        if whole == KeyOpts(reverse=rev):
            return _Plan(None, rev, None)
        keys = [KeySpec(0, 0, None, 0, whole)]
    if len(keys) == 1 and keys[0].start_field == 0 and keys[0].start_char == 0 \
            and keys[0].end_field is None and not keys[0].opts.skip_start_blanks \
            and keys[0].opts.reverse == rev:
        conv = make_converter(keys[0].opts)
        if conv is None:
            return _Plan(None, rev, None)
        c = conv
        key = (lambda line: (c(line), line)) if last_resort else c
        return _Plan(key, rev, c, bytes_key(keys, tab, rev), last_resort, ((c, rev),))
    return _Plan(
        make_sort_key(keys, tab, rev, last_resort), rev, make_sort_key(keys, tab, rev, False),
        bytes_key(keys, tab, rev), last_resort, tuple(key_passes(keys, tab)),
    )


def _read_inputs(
    ctx: Context, files: tuple[str, ...], sep: bytes
) -> tuple[list[list[bytes]], bool, bool]:
    """The lines of each input, whether an input failed, and whether any holds a NUL.
    (`iter_inputs` with `_read_lines` over each stream, as one loop without generators.)
    `sep` is one byte."""
    status: InputStatus | None = None
    inputs: list[list[bytes]] = []
    has_nul = False
    stdin = ctx.stdin
    for name in files or ("-",):
        if name == "-" or name in STDIN_DEVICES:  # (open_input's answer for these)
            f = stdin
        else:
            if status is None:
                status = InputStatus()
            opened = open_input(ctx, name, status)
            if opened is None:
                continue
            f = opened
        try:
            part, nul = _read_lines(ctx, f, sep)
        finally:
            if f is not stdin:
                f.close()
        if part:
            has_nul = has_nul or nul
            inputs.append(part)
    return inputs, status is not None and status.failed, has_nul


def _read_lines(ctx: Context, f: IO[bytes], sep: bytes) -> tuple[list[bytes], bool]:
    """The lines of one stream and whether one holds a NUL (never, when NUL is `sep`),
    split a chunk at a time as they arrive, each chunk charged to the memory budget,
    with a stop for a cancel or a deadline between chunks. `sep` is one byte."""
    stop = ctx.shell.check_boundary
    # (the separator is looked for as its byte value: `bytes in bytes` first tries the
    # needle as an integer, and the error that raises costs more than the search)
    mark = sep[0]
    lines: list[bytes] = []
    rest: list[bytes] = []  # a long line's pieces, joined once when it ends
    has_nul = False
    read = getattr(f, "read1", None) or f.read
    while True:
        chunk = read(BIG)
        if not chunk:
            break
        ctx.hold(len(chunk) + LINE_BYTES * chunk.count(sep))
        if not has_nul and mark and 0 in chunk:  # (mark 0: NUL is the separator)
            has_nul = True
        stop()
        if mark not in chunk:
            rest.append(chunk)
            continue
        got, rest = split_chunk(rest, chunk, sep)
        lines += got
    if rest:
        lines.append(b"".join(rest))
    return lines, has_nul


# lines sorted in one step: small enough that a step holds the interpreter lock for a
# few tens of milliseconds; inputs up to this size are sorted exactly as before
STEP = 1 << 16


def _stepped_sort(items: list[Any], key: Callable[[Any], Any] | None, reverse: bool,
                  stop: Callable[[], None]) -> None:
    """`items.sort(key=key, reverse=reverse)` — stable, the same result — in steps with
    a stop between them, none holding the interpreter lock for more than a few tens of
    milliseconds.

    Runs of STEP items are sorted one at a time; then the runs are merged a piece at a
    time (a sample sort's split): splitters sampled from every run cut each run by
    binary search so that a piece holds everything between two splitters — at most
    about 1.5 STEP items — and sorting a piece (its sub-runs side by side) is one
    merge in C. Ties keep input order: a splitter is a (key, run, position) triple, so
    the earlier run's equal items fall before it. `reverse` is what `list.sort` does:
    the reversed list sorted ascending, reversed back. `key` is called again in the
    merge, so it should be cheap (`keys.__getitem__`)."""
    n = len(items)
    if n <= STEP:
        items.sort(key=key, reverse=reverse)
        return
    if reverse:
        items.reverse()
    runs: list[list[Any]] = []
    for i in range(0, n, STEP):
        run = items[i:i + STEP]
        run.sort(key=key)
        runs.append(run)
        stop()
    k = key if key is not None else _same
    gap = max(STEP // (2 * len(runs)), 1)
    samples = [(k(run[p]), r, p) for r, run in enumerate(runs)
               for p in range(gap - 1, len(run), gap)]
    samples.sort()  # by key, then run, then position: the input order of equal keys
    every = max(STEP // gap, 1)
    cuts = [0] * len(runs)
    out: list[Any] = []
    for split in [*samples[every - 1::every], None]:
        piece: list[Any] = []
        for r, run in enumerate(runs):
            lo = cuts[r]
            if split is None:
                hi = len(run)
            else:
                sk, sr, sp = split
                if r < sr:
                    hi = bisect.bisect_right(run, sk, lo, key=key)
                elif r == sr:
                    hi = max(sp + 1, lo)
                else:
                    hi = bisect.bisect_left(run, sk, lo, key=key)
            if hi > lo:
                piece += run[lo:hi]
                cuts[r] = hi
        piece.sort(key=key)
        out += piece
        stop()
    if reverse:
        out.reverse()
    items[:] = out


def _same(x: Any) -> Any:
    return x


def _mapped(fn: Callable[[bytes], Any], lines: list[bytes], stop: Callable[[], None],
            hold: Callable[[int], None]) -> list[Any]:
    """`[fn(x) for x in lines]`, a step at a time, each step's results charged."""
    out: list[Any] = []
    for i in range(0, len(lines), STEP):
        got = list(map(fn, lines[i:i + STEP]))
        hold(LINE_BYTES * len(got))
        out.extend(got)
        stop()
    return out


def _merge(inputs: list[list[bytes]], plan: _Plan, stop: Callable[[], None]) -> list[bytes]:
    """-m: interleave the inputs as GNU does, taking the earlier input on ties, without
    sorting within an input (unsorted input stays out of order, as with GNU)."""
    import heapq

    merged = heapq.merge(*inputs, key=plan.key, reverse=plan.reverse)
    out: list[bytes] = []
    while True:
        got = list(itertools.islice(merged, STEP))
        out.extend(got)
        if len(got) < STEP:
            return out
        stop()


def _merge_streaming(ctx: Context, a: SortArgs, plan: _Plan, sep: bytes) -> int:
    """-m to standard output: `_merge` of the inputs as they are read, written a step at
    a time, so a merge of endless or large inputs streams (`yes | sort -m - | head -n
    1` prints at once) and holds a chunk of each input, not all of it. Every input is
    opened first: one that cannot be is reported and nothing is written (status 2)."""
    status = InputStatus()
    stdin = ctx.stdin
    streams: list[IO[bytes]] = []
    try:
        for name in a.files or ("-",):
            if name == "-" or name in STDIN_DEVICES:
                streams.append(stdin)
                continue
            f = open_input(ctx, name, status)
            if f is not None:
                streams.append(f)
        if status.failed:
            return 2
        import heapq

        lines = [itertools.chain.from_iterable(line_batches(f, sep, ctx)) for f in streams]
        merged = heapq.merge(*lines, key=plan.key, reverse=plan.reverse)
        eq = plan.eq_key
        prev: Any = _NONE
        out = ctx.stdout
        stop = ctx.shell.check_boundary
        while True:
            step = list(itertools.islice(merged, STEP))
            if not step:
                return 0
            if a.unique:
                step, prev = _firsts(step, eq, prev)
            if step:
                out.write(sep.join(step) + sep)
            stop()
    finally:
        for f in streams:
            if f is not stdin:
                f.close()


_NONE: Any = object()


def _shuffle(lines: list[bytes], plan: _Plan) -> None:
    """-R: order by a salted hash of each line's key, so equal keys stay together."""
    import hashlib

    salt = os.urandom(16)
    eq = plan.eq_key or (lambda b: b)
    blake2b = hashlib.blake2b

    def digest(line: bytes) -> bytes:
        k = eq(line)
        raw = k if isinstance(k, bytes) else repr(k).encode("utf-8", "surrogateescape")
        return blake2b(raw, digest_size=8, key=salt).digest()

    if plan.last_resort:
        lines.sort(key=lambda line: (digest(line), line))
    else:
        lines.sort(key=digest)


def _unique(lines: list[bytes], eq_key: Callable[[bytes], Any] | None,
            stop: Callable[[], None]) -> list[bytes]:
    out: list[bytes] = []
    prev: Any = _NONE
    for i in range(0, len(lines), STEP):
        got, prev = _firsts(lines[i:i + STEP], eq_key, prev)
        out += got
        stop()
    return out


def _firsts(lines: list[bytes], eq_key: Callable[[bytes], Any] | None,
            prev: Any) -> tuple[list[bytes], Any]:
    """-u over a step of sorted lines: the first of each run of equal keys, a run
    that goes on from the step before (whose last key is `prev`) left out; and the
    last key seen."""
    out: list[bytes] = []
    for line in lines:
        k = eq_key(line) if eq_key is not None else line
        if k != prev:
            out.append(line)
            prev = k
    return out, prev


def _check(ctx: Context, a: SortArgs, plan: _Plan, lines: list[bytes], name: str) -> int:
    key = plan.key or (lambda b: b)
    eq = plan.eq_key or (lambda b: b)
    for i in range(1, len(lines)):
        x, y = key(lines[i - 1]), key(lines[i])
        bad = (y > x) if plan.reverse else (y < x)
        if not bad and a.unique and eq(lines[i - 1]) == eq(lines[i]):
            bad = True
        if bad:
            if not a.check_quiet:
                text = lines[i].decode("utf-8", "surrogateescape")
                ctx.error(f"{name}:{i + 1}: disorder: {text}")
            return 1
    return 0


def _order(lines: list[bytes], plan: _Plan, has_nul: bool, stop: Callable[[], None],
           hold: Callable[[int], None]) -> None:
    """Sort in place, stopping at `stop()` between steps and charging what the keys
    take through `hold(n)`. Text keys go through one bytes string per line (`key NUL
    line`, compared in C) when no line holds a NUL; otherwise through the tuple key."""
    if plan.key is None:
        _stepped_sort(lines, None, plan.reverse, stop)
        return
    bk = plan.bkey
    if bk is not None and not plan.last_resort:
        keys = _mapped(bk, lines, stop, hold)
        _by_keys(lines, keys, plan.reverse, stop)
        return
    if bk is not None and not has_nul:
        b = bk
        dec = _mapped(lambda ln: b(ln) + b"\0" + ln, lines, stop, hold)
        hold(sum(map(len, dec)))
        _stepped_sort(dec, None, plan.reverse, stop)
        for i in range(0, len(dec), STEP):
            lines[i:i + STEP] = [d.rpartition(b"\0")[2] for d in dec[i:i + STEP]]
            stop()
        return
    # stable passes: the whole line (last resort) first, then the keys from last to first
    if plan.last_resort:
        _stepped_sort(lines, None, plan.reverse, stop)
    for fn, descending in reversed(plan.passes):
        if fn is numeric_value:
            keys = []
            for i in range(0, len(lines), STEP):
                keys.extend(numeric_values(lines[i:i + STEP]))
                hold(LINE_BYTES * min(STEP, len(lines) - i))
                stop()
        else:
            keys = _mapped(fn, lines, stop, hold)
        _by_keys(lines, keys, descending, stop)


def _by_keys(lines: list[bytes], keys: list[Any], reverse: bool,
             stop: Callable[[], None]) -> None:
    """Order `lines` by `keys` (one per line), stably."""
    order = list(range(len(lines)))
    _stepped_sort(order, keys.__getitem__, reverse, stop)
    lines[:] = map(lines.__getitem__, order)


def _own_ordering(spec: str) -> bool:
    """Whether a -k spec carries ordering letters of its own (then global -R is not
    inherited by it, as in GNU)."""
    return any(c.isalpha() and c not in "b" for c in spec)


def _plan_or_none(a: SortArgs) -> _Plan | None:
    try:
        return _plan(a)
    except SortKeyError:  # (the general path reports it)
        return None


_plan_of = by_args(_plan_or_none)


def _plain_sep(a: SortArgs) -> bytes | None:
    """The line separator of a sort that `_sort_body` runs as its commonest case — whole
    lines as bytes, in either direction, to stdout: no key, no ordering option, no -c,
    -C, -m, -u or -o (-s changes nothing there) — else None (a key it refuses too)."""
    plan = _plan_of(a)
    if plan is None or plan.key is not None or a.check or a.check_quiet or a.merge \
            or a.unique or a.random_sort or a.output is not None:
        return None
    return b"\0" if a.zero_terminated else b"\n"


_plain_of = by_args(_plain_sep)


def _sort_body(a: SortArgs, ctx: Context) -> int:
    sep = _plain_of(a)
    if sep is not None:
        # what the general path below does for such a sort, without asking again
        if a.files:
            inputs, failed, _ = _read_inputs(ctx, a.files, sep)
            if failed:
                return 2
            lines = inputs[0] if len(inputs) == 1 else list(
                itertools.chain.from_iterable(inputs))
        else:
            lines = _read_lines(ctx, ctx.stdin, sep)[0]
        if len(lines) <= STEP:
            lines.sort(reverse=a.reverse)
        else:
            # (what `_order` does with a plain plan)
            _stepped_sort(lines, None, a.reverse, ctx.shell.check_boundary)
        _write_lines(ctx.stdout, lines, sep, ctx.shell.check_boundary)
        return 0
    try:
        plan = _plan(a)
    except SortKeyError as e:
        ctx.error(str(e))
        return 2
    sep = b"\0" if a.zero_terminated else b"\n"
    if (a.check or a.check_quiet) and len(a.files) > 1:
        ctx.error(f"extra operand '{a.files[1]}' not allowed with -c")
        return 2
    if a.merge and a.output is None and not (a.check or a.check_quiet or a.random_sort):
        return _merge_streaming(ctx, a, plan, sep)
    inputs, failed, has_nul = _read_inputs(ctx, a.files, sep)
    if failed:
        return 2
    if a.check or a.check_quiet:
        lines = inputs[0] if inputs else []
        return _check(ctx, a, plan, lines, a.files[0] if a.files else "-")
    stop = ctx.shell.check_boundary
    if a.merge:
        lines = _merge(inputs, plan, stop)
    else:
        lines = inputs[0] if len(inputs) == 1 else list(itertools.chain.from_iterable(inputs))
        if a.random_sort and not any(_own_ordering(k) for k in a.key):
            _shuffle(lines, plan)
        elif plan.key is None and len(lines) <= STEP:
            lines.sort(reverse=plan.reverse)  # all `_order` does for these: one step
        else:
            _order(lines, plan, has_nul, stop, ctx.hold)
    if a.unique:
        lines = _unique(lines, plan.eq_key, stop)
    if a.output is not None:
        try:
            if rewrites_input(ctx, a.output, a.files):
                with ctx.fs.replace(ctx.path(a.output)) as f:
                    _write_lines(f, lines, sep, stop)
            else:
                with open_output(ctx, a.output) as f:
                    _write_lines(f, lines, sep, stop)
        except FsError as e:
            ctx.error(f"open failed: {a.output}: {e.reason}")
            return 2
        return 0
    _write_lines(ctx.stdout, lines, sep, stop)
    return 0


def _sort_filter(a: SortArgs, data: bytes) -> bytes | None:
    """ToolFilter: `_sort_body` of stdin to stdout, without -c, -C, -m, -R or -o."""
    if a.files or a.check or a.check_quiet or a.merge or a.random_sort or (
            a.output is not None):
        return None
    sep = _plain_of(a)
    if sep is not None:
        lines = whole_lines(data, sep)
        if len(lines) > STEP:
            return None
        lines.sort(reverse=a.reverse)
        return joined_lines(lines, sep)
    plan = _plan_of(a)
    if plan is None:
        return None
    sep = b"\0" if a.zero_terminated else b"\n"
    lines = whole_lines(data, sep)
    if plan.key is None and len(lines) <= STEP:
        lines.sort(reverse=plan.reverse)
    else:
        _order(lines, plan, sep != b"\0" and b"\0" in data, _no_stop, _no_hold)
    if a.unique:
        lines = _unique(lines, plan.eq_key, _no_stop)
    return joined_lines(lines, sep)


def _no_stop() -> None:
    """A filter's steps go on to the end: its input is small."""


def _no_hold(_n: int) -> None:
    """A filter charges nothing (the pipeline runs one only when the budget has room)."""


def _write_lines(f: Any, lines: list[bytes], sep: bytes, stop: Callable[[], None]) -> None:
    """The lines, each ended by `sep`, a step at a time (no copy of the whole output)."""
    if len(lines) <= STEP:  # one step (none for no lines), without slicing a copy
        if lines:
            f.write(sep.join(lines) + sep)
            stop()
        return
    for i in range(0, len(lines), STEP):
        f.write(sep.join(lines[i:i + STEP]) + sep)
        stop()


@tool(
    "sort", kind="read",
    args=SortArgs,
    description="sort lines of text files; --json gives the sorted lines as an array",
    examples=[
        ("sort numerically, largest first", "sort -rn counts.txt"),
        ("sort a CSV by its second column as numbers", "sort -t, -k2,2n data.csv"),
        ("unique sorted lines", "sort -u names.txt"),
        ("human sizes", "du -h | sort -h"),
    ],
    operations=["fs.overwrite"],
    filter=_sort_filter,
)
def sort(args: SortArgs, ctx: Context) -> ToolReturn:
    return lines_json(ctx, _sort_body, args)


TOOLS = [sort]
