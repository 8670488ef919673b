"""`tail -f` / `tail -F`: print the end of each file, then what is appended to it.

Everything goes through the session's FileSystem, so following works on the host, the
confined, the in-memory and the overlay filesystem alike: each poll stats the file
(size, and in `name` mode its identity, device and inode) and reads the new bytes by
seeking to where the last read ended. On the host filesystem the file stays open, which
gives GNU's `descriptor` semantics (a renamed or deleted file is still followed); an
in-memory file is re-opened by name when it has grown, as it has no descriptor to keep.

The loop polls every `-s` seconds in short slices so a cancel, a time limit or Ctrl-C
(KeyboardInterrupt, which the kernel turns into 130) ends it at once. Messages and exit
statuses are GNU coreutils 9.x's."""

from __future__ import annotations

import os
import select

from tysh.builtins._common.cancel import interruptible_sleep
from tysh.builtins._common.fileinfo import q
from tysh.builtins._common.filenames import quotef
from tysh.builtins._common.lines import BIG, Headers
from tysh.builtins._common.operands import InputStatus, open_input
from tysh.kernel.base.record import Record, frozen, mutable
from tysh.kernel.base.streams import fileno_of
from tysh.kernel.fs.api import FsError
from tysh.kernel.fs.local import LocalFileSystem
from tysh.kernel.tools.context import Context

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import IO

    Body = Callable[[IO[bytes], IO[bytes]], None]

CANCELLED = 130
MIN_SLEEP = 0.001  # `-s 0` would spin; GNU does, but the machine is shared


@frozen
class FollowSpec(Record):
    """How to follow: by name (re-open on rotation) or descriptor, retrying missing
    files, the poll interval in seconds and the writer whose death ends the loop."""

    by_name: bool
    retry: bool
    sleep: float
    pid: int | None = None


@mutable
class Watch:
    """One operand being followed: where reading stopped and what the file was."""

    name: str
    path: str | None  # None for standard input
    pos: int = 0
    ident: tuple[int, int] | None = None
    handle: IO[bytes] | None = None  # kept open on the host filesystem and for stdin
    missing: bool = False  # could not be opened / stat'ed at the last look
    ignore: bool = False  # never look again (a pipe, an untailable file)


def follow(
    ctx: Context, files: tuple[str, ...], show: bool, body: Body, spec: FollowSpec
) -> int:
    """Print the tail of each file as plain `tail` does, then follow them until the
    command is cancelled, times out or the `--pid` writer has died."""
    names = list(files) or ["-"]
    if spec.by_name and "-" in names:
        ctx.error(f"cannot follow {q('-')} by name")
        return 1
    status = InputStatus()
    headers = Headers(ctx, show)
    watches: list[Watch] = []
    try:
        for name in names:
            watches.append(_start(ctx, name, headers, body, spec, status))
        code = 1 if status.failed else 0
        if all(w.ignore and not w.missing for w in watches):
            return code  # only pipes: -f is ignored, as POSIX asks
        ctx.stdout.flush()
        return _loop(ctx, watches, headers, spec, code)
    finally:
        for w in watches:
            if w.handle is not None and w.handle is not ctx.stdin:
                w.handle.close()


def _keeps_handles(ctx: Context) -> bool:
    """Whether an open file sees later writes: true on the host filesystem only (an
    in-memory open is a snapshot; an overlay's writes land in another layer)."""
    return isinstance(ctx.fs, LocalFileSystem)


def _has_fd(f: IO[bytes]) -> bool:
    try:
        f.fileno()
    except (OSError, ValueError, AttributeError):
        return False
    return True


def _seekable(f: IO[bytes]) -> bool:
    try:
        return f.seekable()
    except (OSError, ValueError, AttributeError):
        return False


def _start(
    ctx: Context, name: str, headers: Headers, body: Body, spec: FollowSpec,
    status: InputStatus,
) -> Watch:
    """Open one operand, print its tail and remember where the next read begins."""
    path = None if name == "-" else ctx.path(name)
    w = Watch(name, path)
    f = open_input(ctx, name, status)
    if f is None:
        w.missing = True
        w.ignore = not spec.retry
        return w
    keep = False
    try:
        headers.emit(name)
        if not _seekable(f) or (path is None and not _has_fd(f)):
            body(f, ctx.stdout)
            # a pipe, a terminal, or bytes handed to execute(): nothing will be appended
            w.ignore = True
            return w
        start = f.tell()
        end = f.seek(0, 2)
        f.seek(start)
        body(f, ctx.stdout)
        w.pos = max(end, f.tell())
        if path is None:
            keep = True
        else:
            w.ident = _ident(ctx, path)
            keep = _keeps_handles(ctx) and _has_fd(f)
        if keep:
            w.handle = f
        return w
    finally:
        if not keep and f is not ctx.stdin:
            f.close()


def _ident(ctx: Context, path: str) -> tuple[int, int] | None:
    try:
        st = ctx.fs.stat(path)
    except FsError:
        return None
    return (st.dev, st.ino)


def _loop(
    ctx: Context, watches: list[Watch], headers: Headers, spec: FollowSpec, code: int
) -> int:
    last = len(watches) - 1
    interval = max(spec.sleep, MIN_SLEEP)
    writer_dead = False
    while True:
        if ctx.shell.cancelled():
            return CANCELLED
        wrote = False
        for i, w in enumerate(watches):
            if w.ignore:
                continue
            for chunk in _poll(ctx, w, spec):
                if i != last:
                    headers.emit(w.name)
                    last = i
                ctx.stdout.write(chunk)
                wrote = True
        if wrote:
            ctx.stdout.flush()
        if not _any_live(watches, spec):
            ctx.error("no files remaining")
            return code
        if wrote:
            continue
        if writer_dead:
            return code
        if _output_gone(ctx):
            raise BrokenPipeError  # the reader left (`tail -f log | head -n 1`)
        # once the writer is gone, read the files once more before stopping
        writer_dead = spec.pid is not None and not _alive(spec.pid)
        if not writer_dead and not interruptible_sleep(ctx, interval):
            return CANCELLED


def _any_live(watches: list[Watch], spec: FollowSpec) -> bool:
    if spec.by_name and spec.retry:
        return True
    return any(not w.ignore and (not w.missing or spec.retry) for w in watches)


def _output_gone(ctx: Context) -> bool:
    """Whether stdout is a pipe whose reader has gone, as GNU's check_output_alive asks,
    so a follow with nothing to write does not outlive its reader."""
    fd = fileno_of(ctx.stdout)
    if fd is None or not hasattr(select, "poll"):
        return False
    p = select.poll()
    p.register(fd, 0)  # POLLERR / POLLHUP are always reported
    try:
        return any(ev & (select.POLLERR | select.POLLHUP) for _, ev in p.poll(0))
    except OSError:
        return False


def _alive(pid: int) -> bool:
    """Whether process `pid` exists (signal 0 only asks; nothing is sent)."""
    try:
        os.kill(pid, 0)
    except PermissionError:
        return True
    except (OSError, OverflowError):
        return False
    return True


def _poll(ctx: Context, w: Watch, spec: FollowSpec) -> Iterator[bytes]:
    """The bytes appended to one file since the last poll, after reporting a truncation,
    a replacement or a disappearance the way GNU does."""
    if w.path is None:
        if w.handle is None:
            return
        size = w.handle.seek(0, 2)
    elif spec.by_name or w.missing:
        try:
            st = ctx.fs.stat(w.path)
        except FsError as e:
            yield from _drain(ctx, w)
            if not w.missing:
                w.missing = True
                w.ident = None
                if spec.retry:
                    ctx.error(f"{q(w.name)} has become inaccessible: {e.reason}")
                else:
                    ctx.error(f"{quotef(w.name)}: {e.reason}")
            return
        if st.kind != "file":
            yield from _drain(ctx, w)
            w.ignore = True
            ctx.error(
                f"{q(w.name)} has been replaced with an untailable file; "
                "giving up on this name"
            )
            return
        ident = (st.dev, st.ino)
        if w.missing or ident != w.ident:
            yield from _drain(ctx, w)
            verb = "appeared" if w.missing else "been replaced"
            ctx.error(f"{q(w.name)} has {verb};  following new file")
            w.missing = False
            w.ident = ident
            w.pos = 0
            if _keeps_handles(ctx):
                try:
                    w.handle = ctx.fs.open(w.path, "rb")
                except FsError:
                    w.handle = None
        size = st.size
    elif w.handle is not None:
        size = w.handle.seek(0, 2)
    else:
        try:
            size = ctx.fs.stat(w.path).size
        except FsError:
            return  # by descriptor: the file we followed is gone, and stays silent
    if size < w.pos:
        ctx.error(f"{quotef(w.name)}: file truncated")
        w.pos = 0
    if size > w.pos:
        yield from _read_on(ctx, w)


def _read_on(ctx: Context, w: Watch) -> Iterator[bytes]:
    """Read from the last position to the end of the file (through the kept handle, or
    by opening the file again), advancing the position."""
    f = w.handle
    opened = False
    if f is None:
        assert w.path is not None
        try:
            f = ctx.fs.open(w.path, "rb")
        except FsError:
            return
        opened = True
    try:
        f.seek(w.pos)
        while chunk := f.read(BIG):
            w.pos += len(chunk)
            yield chunk
    finally:
        if opened:
            f.close()


def _drain(ctx: Context, w: Watch) -> Iterator[bytes]:
    """What is left in the file we are about to let go of (a rotated log's last lines),
    then close it."""
    f = w.handle
    if f is None:
        return
    w.handle = None
    try:
        f.seek(w.pos)
        while chunk := f.read(BIG):
            w.pos += len(chunk)
            yield chunk
    finally:
        f.close()
