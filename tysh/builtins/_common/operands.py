"""Stream helpers shared by the text builtins: open operands the GNU way, stream lines.

Inputs are binary streams; text tools work on bytes (or decode with surrogateescape)
so input that is not UTF-8 passes through unchanged."""

from __future__ import annotations

from tysh.builtins._common.lines import BIG, LineSplit, unkept
from tysh.kernel.base.hints import cast
from tysh.kernel.base.record import MutableRecord, mutable
from tysh.kernel.fs.api import FsError
from tysh.kernel.fs.hostio import HostReader, output_file, reads_output
from tysh.kernel.tools.context import Context

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import IO, TypeVar

    T = TypeVar("T")

IS_DIR = "Is a directory"

CHUNK = 1 << 16

# How GNU words a file that cannot be opened, for the tools that do not use the plain
# `TOOL: NAME: reason` ({q} is the quoted name, as coreutils quotes it).
OPEN_ERRORS: dict[str, str] = {
    "head": "cannot open {q} for reading: {reason}",
    "tail": "cannot open {q} for reading: {reason}",
    "tac": "failed to open {q} for reading: {reason}",
    "sort": "cannot read: {name}: {reason}",
    "rev": "cannot open {name}: {reason}",
}


# The device names scripts use for the command's own streams. They name the session's
# streams, not the host's: in a pipeline stage `/dev/stdin` is the pipe from the stage
# before (the host's fd 0 is something else), and a sandbox has no /dev at all.
STDIN_DEVICES = frozenset(("/dev/stdin", "/dev/fd/0"))
_OUT_DEVICES = {"/dev/stdout": 1, "/dev/fd/1": 1, "/dev/stderr": 2, "/dev/fd/2": 2}


class _Borrowed:
    """The session's stdout or stderr lent to a tool as if it were a file it opened:
    closing it only flushes, since the stream outlives the tool."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._s = stream

    def write(self, data: bytes) -> int:
        return self._s.write(data)

    def flush(self) -> None:
        self._s.flush()

    def close(self) -> None:
        try:
            self._s.flush()
        except (OSError, ValueError):
            pass

    def __enter__(self) -> _Borrowed:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __getattr__(self, name: str) -> object:
        return getattr(self._s, name)


def is_stdin(name: str) -> bool:
    """Whether an operand means the command's standard input (`-`, `/dev/stdin`, `/dev/fd/0`)."""
    return name == "-" or name in STDIN_DEVICES


def open_output(ctx: Context, name: str, append: bool = False) -> IO[bytes]:
    """Open a file a tool writes (`tee`, `sed w`, `sort -o`…): `/dev/stdout`,
    `/dev/stderr` and `/dev/fd/1|2` are the command's own streams. Raises FsError."""
    fd = _OUT_DEVICES.get(name)
    if fd is not None:
        return _Borrowed(ctx.stdout if fd == 1 else ctx.stderr)  # type: ignore[return-value]
    return ctx.fs.open(ctx.path(name), "ab" if append else "wb")


def rewrites_input(ctx: Context, name: str, inputs: tuple[str, ...] | list[str]) -> bool:
    """Whether the output file `name` is one of the tool's input files (`sort -o f f`):
    the tool then writes it through FileSystem.replace, so a failed write (a full disk)
    leaves the input whole instead of truncated."""
    if name in _OUT_DEVICES:
        return False
    try:
        out = ctx.fs.stat(ctx.path(name))
    except FsError:
        return False
    if out.kind != "file":
        return False
    for i in inputs:
        if is_stdin(i):
            continue
        try:
            st = ctx.fs.stat(ctx.path(i))
        except FsError:
            continue
        if (st.dev, st.ino) == (out.dev, out.ino) and (st.ino or i == name):
            return True
    return False


@mutable
class InputStatus(MutableRecord):
    """Whether any operand failed to open, for the tool's exit status."""

    failed: bool = False


def open_input(ctx: Context, name: str, status: InputStatus) -> IO[bytes] | None:
    """Open one operand (`-` and `/dev/stdin` are stdin); reports `TOOL: NAME: reason`
    and returns None on failure."""
    if name == "-" or name in STDIN_DEVICES:  # is_stdin, inline: every read passes here
        return ctx.stdin
    path = ctx.path(name)
    try:
        # one resolution: every filesystem refuses to open a directory for reading
        return ctx.fs.open(path, "rb")
    except FsError as e:
        _cannot_open(ctx, name, e)
        status.failed = True
        return None


def is_output(ctx: Context, name: str, f: IO[bytes], target: tuple[int, int]) -> bool:
    """Whether the operand `name`, open as `f`, is the output file `target`
    (hostio.output_file) with bytes left to read: copying it would read its own output,
    without end for a file larger than a read. Reported as GNU cat reports it."""
    if reads_output(f, target):
        ctx.error(f"{name}: input file is output file")
        return True
    return False


def _cannot_open(ctx: Context, name: str, e: FsError) -> None:
    """Report, the tool's way, that the operand `name` could not be opened."""
    fmt = OPEN_ERRORS.get(ctx.name)
    if fmt is None or e.reason == IS_DIR:
        ctx.error(f"{name}: {e.reason}")
    else:
        from tysh.builtins._common.fileinfo import q

        ctx.error(fmt.format(q=q(name), name=name, reason=e.reason))


def read_operand(ctx: Context, name: str, fn: Callable[[IO[bytes]], T]) -> T | None:
    """`fn` applied to one operand's stream (closed after, unless it is stdin), or None
    after reporting, GNU's way, why the operand could not be opened or read."""
    f = open_input(ctx, name, InputStatus())
    if f is None:
        return None
    try:
        return fn(f)
    except (FsError, OSError) as e:
        ctx.error(f"{name}: {e.reason if isinstance(e, FsError) else e.strerror}")
        return None
    finally:
        if f is not ctx.stdin:
            f.close()


def open_all(ctx: Context, names: list[str], status: InputStatus) -> list[IO[bytes]] | None:
    """Open every operand or none (`comm`, `join` read theirs side by side): on the first
    failure, reported as open_input reports it, the ones already open are closed."""
    streams: list[IO[bytes]] = []
    for name in names:
        f = open_input(ctx, name, status)
        if f is None:
            for s in streams:
                if s is not ctx.stdin:
                    s.close()
            return None
        streams.append(f)
    return streams


def iter_inputs(
    ctx: Context, files: tuple[str, ...] | list[str], status: InputStatus
) -> Iterator[tuple[str, IO[bytes]]]:
    """Yield (display name, stream) for each operand, stdin when there are none; files
    are closed after use, errors reported and skipped so processing continues."""
    names = list(files) or ["-"]
    for name in names:
        f = open_input(ctx, name, status)
        if f is None:
            continue
        try:
            yield name, f
        finally:
            if f is not ctx.stdin:
                f.close()


def copy_inputs(ctx: Context, files: tuple[str, ...], out: IO[bytes]) -> int:
    """Each operand's bytes written to `out` as they arrive (stdin when there are none),
    as `iter_inputs` with `chunks` over each stream would, in one loop for plain `cat`:
    1 when an operand could not be opened or is the output itself (`is_output`;
    reported), else 0."""
    stdin = ctx.stdin
    failed = 0
    target = output_file(unkept(out))
    for name in files or ("-",):
        if name == "-" or name in STDIN_DEVICES:
            f = stdin
        else:
            try:  # (open_input, without its status)
                if target is None:  # a small file comes whole: one open, one read
                    got = ctx.fs.read_small(ctx.path(name), BIG)
                    if type(got) is bytes:
                        if got:
                            out.write(got)
                        continue
                    f = cast("IO[bytes]", got)
                else:
                    f = ctx.fs.open(ctx.path(name), "rb")
            except FsError as e:
                _cannot_open(ctx, name, e)
                failed = 1
                continue
        if target is not None and is_output(ctx, name, f, target):
            failed = 1
            if f is not stdin:
                f.close()
            continue
        try:
            if isinstance(f, HostReader):  # a host file: a small one is read in one go
                f.copy_to(out, BIG)
                continue
            read = getattr(f, "read1", None) or f.read
            while True:
                chunk = read(BIG)
                if not chunk:
                    break
                out.write(chunk)
        finally:
            if f is not stdin:
                f.close()
    return failed


def iter_lines(f: IO[bytes], ctx: Context | None = None) -> Iterator[bytes]:
    """Lines including their terminator (the last may lack one), read in large chunks;
    with `ctx`, a long line is charged to its memory budget as it gathers."""
    split = LineSplit(f, size=CHUNK, ctx=ctx)
    for lines in split:
        for line in lines:
            yield line + b"\n"
    if split.rest:
        yield split.rest
