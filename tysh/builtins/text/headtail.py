"""head and tail (GNU coreutils 9.1): counts in lines or bytes, from the start or the end.

Counts are strings in the schema because GNU spells them with signs and suffixes
(`-n -2`, `-n +3`, `-c 1K`); the obsolete forms `head -5`, `tail -20`, `tail +3` arrive
as the first operand and are recognised here. head stops reading as soon as it has
enough, so `seq 1 100000000 | head -n 1` returns at once. `tail -f` / `-F` (follow
mode) lives in text.tailfollow and is imported only when asked for."""

from __future__ import annotations

import io

from tysh.builtins._common.args import by_args
from tysh.builtins._common.lines import (
    BIG,
    Headers,
    Kept,
    chunks,
    display_name,
    kept_return,
    line_batches,
    parse_count,
    split_lines_text,
)
from tysh.builtins._common.operands import STDIN_DEVICES, InputStatus, iter_inputs, open_input
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import Record, frozen, value_record
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import STREAMED, OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections import deque
    from collections.abc import Callable
    from typing import IO, Any
else:
    # the C type `collections.deque` is, without the Python half of collections
    from _collections import deque


@frozen
class Count(Record):
    """What to select: `n` lines (or bytes) from the start (`from_start`) or the end.

    head: from_start=False with `all_but` means all but the last n.
    tail: from_start=True means starting at item n (1-based)."""

    n: int
    in_bytes: bool
    sign: str  # "", "-" or "+"


# counts already read, by (text, in bytes): a script repeats the same few (`head -n 1`)
_SPECS: dict[tuple[str, bool], Count] = {}


def _parse_spec(text: str, in_bytes: bool) -> Count | str:
    """The count a spec asks for, or the message refusing it."""
    known = _SPECS.get((text, in_bytes))
    if known is not None:
        return known
    sign = text[:1] if text[:1] in "+-" else ""
    n = parse_count(text[len(sign):])
    what = "bytes" if in_bytes else "lines"
    if n is None:
        return f"invalid number of {what}: '{text}'"
    if n > MAX_COUNT:
        return f"invalid number of {what}: '{text}': Value too large for defined data type"
    count = Count(n, in_bytes, sign)
    if len(_SPECS) >= 256:
        _SPECS.clear()
    _SPECS[text, in_bytes] = count
    return count


MAX_COUNT = (1 << 63) - 1
_HEAD_OBSOLETE = LazyRegex(r"-(\d+)([bkm]?)([cl]?)")
_TAIL_OBSOLETE = LazyRegex(r"([-+])(\d*)([bkm]?)([cl]?)")
_OBS_MULT = {"": 1, "b": 512, "k": 1024, "m": 1024 * 1024}


def _resolve(
    lines: str | None, nbytes: str | None, files: tuple[str, ...], head: bool
) -> tuple[Count | str, tuple[str, ...]]:
    """The count to use (or the message refusing it) and the remaining file operands."""
    if files and lines is None and nbytes is None:
        m = (_HEAD_OBSOLETE if head else _TAIL_OBSOLETE).fullmatch(files[0])
        if m is not None and files[0] != "-":
            if head:
                sign, digits, mult, unit = "", m.group(1), m.group(2), m.group(3)
            else:
                sign, digits, mult, unit = m.group(1), m.group(2), m.group(3), m.group(4)
                sign = "+" if sign == "+" else ""
            n = min(int(digits or "10") * _OBS_MULT[mult], MAX_COUNT)
            return Count(n, unit == "c" or bool(mult), sign), files[1:]
    if nbytes is not None:
        return _parse_spec(nbytes, True), files
    if lines is not None:
        return _parse_spec(lines, False), files
    return Count(10, False, ""), files


def _lines_value(per_file: list[tuple[str, list[str]]], show: bool) -> object:
    """The lines written, or with headers shown one {"path", "lines"} per file."""
    if show:
        return [{"path": name, "lines": lines} for name, lines in per_file]
    return [line for _, lines in per_file for line in lines]


class _Spans:
    """Where each file's output lies in a Kept copy, for the value `--json` would give;
    a result holds its bound `value` (fewer objects than a closure)."""

    __slots__ = ("kept", "show", "spans")

    def __init__(self, kept: Kept, show: bool) -> None:
        self.kept = kept
        self.show = show
        self.spans: list[tuple[str, int, int]] = []

    def value(self) -> object:
        per: list[tuple[str, list[str]]] = []
        for name, start, end in self.spans:
            text = self.kept.text(start, end)
            if text is None:
                return None
            per.append((name, split_lines_text(text)))
        return _lines_value(per, self.show)


def _one_input(ctx: Context, name: str, body: _Body) -> ToolReturn:
    """`_per_file_json` in text mode for one operand without a header, the commonest
    call: its value is the lines of everything written, as Kept's own value gives."""
    func, args = body.func, body.args  # (`body(f, out)`, one call less)
    if ctx.keeps_value:
        kept = Kept(ctx.stdout)
        out: Any = kept
    else:
        kept = None
        out = ctx.stdout
    code = 0
    if name == "-" or name in STDIN_DEVICES:  # (open_input's answer for these)
        func(ctx.stdin, out, *args)
    else:
        f = open_input(ctx, name, InputStatus())
        if f is None:
            code = 1
        else:
            try:
                func(f, out, *args)
            finally:
                f.close()
    if kept is None:
        return code
    return kept_return(code, kept)


def _per_file_json(
    ctx: Context, files: tuple[str, ...], show: bool, run: _Body
) -> ToolReturn:
    """Run the per-file body; `--json` gives an array of lines, or with several files
    an array of {"path", "lines"}."""
    if not ctx.json and not show and len(files) <= 1:
        return _one_input(ctx, files[0] if files else "-", run)
    status = InputStatus()
    if not ctx.json and not ctx.keeps_value:  # nobody can read a value: the text only
        headers = Headers(ctx, show)
        for name, f in iter_inputs(ctx, files, status):
            headers.emit(name)
            run(f, ctx.stdout)
        return 1 if status.failed else 0
    if not ctx.json:
        # the text streams out; a bounded copy, split at each file's start, gives the
        # same value `--json` builds
        kept = Kept(ctx.stdout)
        shown = Headers(ctx.evolve(stdout=kept), True) if show else None
        spans = _Spans(kept, show)
        for name, f in iter_inputs(ctx, files, status):
            if shown is not None:
                shown.emit(name)
            start = kept.mark()
            run(f, kept)  # type: ignore[arg-type]
            spans.spans.append((display_name(name), start, kept.mark()))
        kept.detach()
        return Outcome(1 if status.failed else 0, OutputData(None, STREAMED, spans.value))
    per_file: list[tuple[str, list[str]]] = []
    texts: list[str] = []
    for name, f in iter_inputs(ctx, files, status):
        buf = io.BytesIO()
        run(f, buf)
        text = buf.getvalue().decode("utf-8", "replace")
        texts.append((f"==> {display_name(name)} <==\n" if show else "") + text)
        per_file.append((display_name(name), split_lines_text(text)))
    data = _lines_value(per_file, show)
    return Outcome(
        code=1 if status.failed else 0,
        output=OutputData.text("\n".join(texts), rich_json=data),
    )


# ---------------------------------------------------------------------------- head


def _head_lines(f: IO[bytes], out: IO[bytes], n: int, sep: bytes) -> None:
    if n <= 0:
        return
    left = n
    read = getattr(f, "read1", None) or f.read  # (`chunks`, without a generator)
    while True:
        chunk = read(BIG)
        if not chunk:
            return
        k = chunk.count(sep)
        if k < left:
            out.write(chunk)
            left -= k
            continue
        pieces = chunk.split(sep, left)
        out.write(chunk[: len(chunk) - len(pieces[-1])])
        return


def _head_all_but_lines(f: IO[bytes], out: IO[bytes], n: int, sep: bytes) -> None:
    if n <= 0:
        for chunk in chunks(f):
            out.write(chunk)
        return
    # a final unterminated line counts as a line too (it arrives as a batch of its own)
    window: deque[bytes] = deque()
    for lines in line_batches(f, sep):
        window.extend(lines)
        if len(window) > n:
            release = [window.popleft() for _ in range(len(window) - n)]
            out.write(sep.join(release) + sep)


def _head_bytes(f: IO[bytes], out: IO[bytes], n: int) -> None:
    left = n
    while left > 0:
        read = getattr(f, "read1", None) or f.read
        chunk = read(min(left, BIG))
        if not chunk:
            return
        out.write(chunk)
        left -= len(chunk)


def _head_all_but_bytes(f: IO[bytes], out: IO[bytes], n: int) -> None:
    held = b""
    for chunk in chunks(f):
        held += chunk
        if len(held) > n:
            cut = len(held) - n
            out.write(held[:cut])
            held = held[cut:]


@value_record
class HeadArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="files to read; - is stdin")
    lines: str | None = param(
        default=None, aliases=["-n"],
        help="print the first N lines; -N prints all but the last N",
    )
    bytes: str | None = param(
        default=None, aliases=["-c"],
        help="print the first N bytes; -N prints all but the last N",
    )
    quiet: bool = param(default=False, aliases=["-q", "--silent"], help="never print headers")
    verbose: bool = param(default=False, aliases=["-v"], help="always print headers")
    zero_terminated: bool = param(
        default=False, aliases=["-z"], help="lines end with NUL, not newline"
    )


def _filtered(made: MadeOne | str, data: bytes) -> bytes | None:
    """ToolFilter of head and tail: what `_one_input` writes for stdin."""
    if type(made) is not tuple:
        return None
    one = made[3]
    if one is None or not (one == "-" or one in STDIN_DEVICES):
        return None
    out = io.BytesIO()
    made[0](io.BytesIO(data), out)
    return out.getvalue()


def _head_filter(args: HeadArgs, data: bytes) -> bytes | None:
    return _filtered(_head_made(args), data)


def _tail_filter(args: TailArgs, data: bytes) -> bytes | None:
    if args.follow is not False or args.follow_name_retry or args.retry or (
            args.pid is not None):
        return None  # (a warning to give, or following)
    return _filtered(_tail_made(args), data)


@tool(
    "head", kind="read",
    args=HeadArgs,
    description=(
        "output the first part of files; --json gives an array of lines "
        "(with several files, an array of {file, lines})"
    ),
    examples=[
        ("first 5 lines", "head -n 5 notes.txt"),
        ("all but the last 2 lines", "head -n -2 notes.txt"),
        ("first 100 bytes", "head -c 100 data.bin"),
    ],
    filter=_head_filter,
)
def head(args: HeadArgs, ctx: Context) -> ToolReturn:
    made = _head_made(args)
    if type(made) is tuple and made[3] is not None and not ctx.json:
        return _one_input(ctx, made[3], made[0])  # (what `_run` does with it)
    return _run(args, ctx, head=True)


# ---------------------------------------------------------------------------- tail


def _tail_lines(f: IO[bytes], out: IO[bytes], n: int, sep: bytes) -> None:
    if n <= 0:
        return
    data = _tail_window(f, n, sep)
    # the last n lines: an unterminated final line is one of them
    k = n + 1 if data.endswith(sep) else n
    parts = data.rsplit(sep, k)
    if len(parts) > k:
        data = data[len(parts[0]) + 1:]
    out.write(data)


def _tail_window(f: IO[bytes], n: int, sep: bytes) -> bytes:
    """Enough of the end of the stream to hold its last n lines: read backwards on a
    seekable file, keep a sliding window of chunks on a pipe."""
    if _seekable(f):
        start = f.tell()
        pos = f.seek(0, 2)
        got: list[bytes] = []
        seen = 0
        while pos > start and seen <= n:
            step = min(BIG, pos - start)
            pos -= step
            f.seek(pos)
            block = f.read(step)
            got.append(block)
            seen += block.count(sep)
        got.reverse()
        return b"".join(got)
    window: deque[tuple[bytes, int]] = deque()
    total = 0
    for chunk in chunks(f):
        c = chunk.count(sep)
        window.append((chunk, c))
        total += c
        while len(window) > 1 and total - window[0][1] > n:
            total -= window.popleft()[1]
    return b"".join(c for c, _ in window)


def _seekable(f: IO[bytes]) -> bool:
    try:
        return f.seekable()
    except (OSError, ValueError, AttributeError):
        return False


def _tail_from_line(f: IO[bytes], out: IO[bytes], n: int, sep: bytes) -> None:
    skip = max(n - 1, 0)
    it = chunks(f)
    for chunk in it:
        if skip:
            k = chunk.count(sep)
            if k < skip:
                skip -= k
                continue
            pieces = chunk.split(sep, skip)
            chunk = pieces[-1]
            skip = 0
        out.write(chunk)


def _tail_bytes(f: IO[bytes], out: IO[bytes], n: int) -> None:
    if n <= 0:
        return
    if _seekable(f):
        start = f.tell()
        end = f.seek(0, 2)
        f.seek(max(start, end - n))
        for chunk in chunks(f):
            out.write(chunk)
        return
    held: deque[bytes] = deque()
    total = 0
    for chunk in chunks(f):
        held.append(chunk)
        total += len(chunk)
        while total - len(held[0]) >= n:
            total -= len(held.popleft())
    out.write(b"".join(held)[-n:])


def _tail_from_byte(f: IO[bytes], out: IO[bytes], n: int) -> None:
    skip = max(n - 1, 0)
    for chunk in chunks(f):
        if skip:
            if len(chunk) <= skip:
                skip -= len(chunk)
                continue
            chunk = chunk[skip:]
            skip = 0
        out.write(chunk)


@value_record
class TailArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="files to read; - is stdin")
    lines: str | None = param(
        default=None, aliases=["-n"],
        help="print the last N lines; +N prints from line N on",
    )
    bytes: str | None = param(
        default=None, aliases=["-c"],
        help="print the last N bytes; +N prints from byte N on",
    )
    quiet: bool = param(default=False, aliases=["-q", "--silent"], help="never print headers")
    verbose: bool = param(default=False, aliases=["-v"], help="always print headers")
    zero_terminated: bool = param(
        default=False, aliases=["-z"], help="lines end with NUL, not newline"
    )
    follow: bool | str = param(
        default=False, aliases=["-f"], choices=["descriptor", "name"], param_type="bool",
        help="then output data as it is appended; --follow=name re-opens a file "
        "that is rotated or replaced (the default follows the open file)",
    )
    follow_name_retry: bool = param(
        default=False, aliases=["-F"], help="same as --follow=name --retry",
    )
    retry: bool = param(
        default=False, help="with --follow, keep trying to open a file that is missing",
    )
    sleep_interval: float = param(
        default=1.0, aliases=["-s"], help="with --follow, seconds between checks (0.1 works)",
        min=0, range_error="invalid number of seconds: '{value}'",
    )
    pid: int | None = param(
        default=None, help="with --follow, stop once process PID has ended",
    )
    max_unchanged_stats: int | None = param(
        default=None, help="accepted for compatibility; tysh re-checks names at every poll",
    )


@tool(
    "tail", kind="read",
    args=TailArgs,
    description=(
        "output the last part of files; --json gives an array of lines "
        "(with several files, an array of {file, lines})"
    ),
    examples=[
        ("last 20 lines", "tail -n 20 app.log"),
        ("everything from line 2 on (skip a header)", "tail -n +2 data.csv"),
        ("last 100 bytes", "tail -c 100 data.bin"),
        ("print lines as they are appended to a log (Ctrl-C stops)", "tail -f app.log"),
        ("keep following a log across rotations", "tail -F app.log"),
    ],
    filter=_tail_filter,
)
def tail(args: TailArgs, ctx: Context) -> ToolReturn:
    by_name = args.follow_name_retry or args.follow == "name"
    following = by_name or args.follow is not False
    retry = args.retry or args.follow_name_retry
    if retry and not following:
        ctx.error("warning: --retry ignored; --retry is useful only when following")
    elif retry and not by_name:
        ctx.error("warning: --retry only effective for the initial open")
    if args.pid is not None and not following:
        ctx.error("warning: PID ignored; --pid=PID is useful only when following")
    if not following:
        return _run(args, ctx, head=False)
    if args.pid is not None and args.pid < 0:
        ctx.error(f"invalid PID: '{args.pid}'")
        return 1
    if args.sleep_interval < 0:
        ctx.error(f"invalid number of seconds: '{args.sleep_interval:g}'")
        return 1
    if ctx.json:
        ctx.error("--json cannot be combined with --follow, which never ends")
        return 1
    made = _body(args, ctx, head=False)
    if made is None:
        return 1
    body, files, show = made
    from tysh.builtins.text.tailfollow import FollowSpec, follow

    spec = FollowSpec(by_name, retry, args.sleep_interval, args.pid)
    return follow(ctx, files, show, body, spec)


# Bodies by (head, flipped): the sign that flips the direction is head's `-N` (all but
# the last N) and tail's `+N` (from item N on).
_BYTE_BODIES: dict[tuple[bool, bool], Callable[..., None]] = {
    (True, True): _head_all_but_bytes, (True, False): _head_bytes,
    (False, True): _tail_from_byte, (False, False): _tail_bytes,
}
_LINE_BODIES: dict[tuple[bool, bool], Callable[..., None]] = {
    (True, True): _head_all_but_lines, (True, False): _head_lines,
    (False, True): _tail_from_line, (False, False): _tail_lines,
}


def _run(args: HeadArgs | TailArgs, ctx: Context, head: bool) -> ToolReturn:
    made = _head_made(args) if head else _tail_made(args)
    if isinstance(made, str):
        ctx.error(made)
        return 1
    body, files, show, one = made
    if one is not None and not ctx.json:  # `_per_file_json`'s commonest call, directly
        if head or body.args[0] or body.func not in (_tail_bytes, _tail_lines):
            return _one_input(ctx, one, body)
    if not head and not ctx.json and body.args[0] == 0 \
            and body.func in (_tail_bytes, _tail_lines):
        # GNU: tail -n 0 (not +0) outputs nothing at all, so opens nothing; its value
        # is no lines
        return Outcome(0, OutputData.value(lambda: _lines_value(
            [(display_name(n), []) for n in files or ("-",)], show)))
    return _per_file_json(ctx, files, show, body)


class _Body:
    """One file's head or tail: a body of `_BYTE_BODIES` or `_LINE_BODIES` with its count
    (and line separator) bound, called with the input and the output."""

    __slots__ = ("func", "args")

    def __init__(self, func: Callable[..., None], *args: Any) -> None:
        self.func = func
        self.args = args  # (n,) or (n, sep)

    def __call__(self, f: IO[bytes], out: IO[bytes]) -> None:
        self.func(f, out, *self.args)


Made = tuple[_Body, tuple[str, ...], bool]
# and the one operand (`-` for none) when there is at most one and no header is shown
MadeOne = tuple[_Body, tuple[str, ...], bool, "str | None"]


def _body(args: HeadArgs | TailArgs, ctx: Context, head: bool) -> Made | None:
    """The per-file body, the file operands and whether to print headers; None after
    reporting a bad count."""
    made = _made(args, head)
    if isinstance(made, str):
        ctx.error(made)
        return None
    return made[:3]


def _made(args: HeadArgs | TailArgs, head: bool) -> MadeOne | str:
    """`_body`'s answer and the one operand, or the message refusing the count."""
    count, files = _resolve(args.lines, args.bytes, args.files, head=head)
    if isinstance(count, str):
        return count
    flipped = count.sign == ("-" if head else "+")
    if count.in_bytes:
        body = _Body(_BYTE_BODIES[head, flipped], count.n)
    else:
        sep = b"\0" if args.zero_terminated else b"\n"
        body = _Body(_LINE_BODIES[head, flipped], count.n, sep)
    show = args.verbose or (len(files) > 1 and not args.quiet)
    one = None if show or len(files) > 1 else files[0] if files else "-"
    return body, files, show, one


TOOLS = [head, tail]


# each args object's `_made` answer (head's, tail's): its options are read once
def _head_answer(args: HeadArgs | TailArgs) -> MadeOne | str:
    return _made(args, True)


def _tail_answer(args: HeadArgs | TailArgs) -> MadeOne | str:
    return _made(args, False)


_head_made = by_args(_head_answer)
_tail_made = by_args(_tail_answer)
