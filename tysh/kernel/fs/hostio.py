"""File objects over host file descriptors, shared by the host and confined kinds.

Three things every host file a script opens needs, whatever resolved it:
- a FIFO must not freeze the session: it is opened without blocking and read and written
  through `poll`, in slices, stopping at the filesystem's checkpoint (the kernel's time
  limit and `cancel()`);
- a write that fails (a full disk, a quota) is a value the tool reports
  (`No space left on device`), not a raw OSError;
- a directory is refused at open, as Python's `open()` does."""

from __future__ import annotations

import _thread
import errno
import io
import os
import stat as stat_mod
import time

from tysh.kernel.base.lazymod import LazyModule, contextmanager
from tysh.kernel.base.streams import NOT_TERMINALS
from tysh.kernel.fs.api import FsError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import select
    from collections.abc import Callable, Iterator
    from typing import IO, Any

    Checkpoint = Callable[[], None]
else:  # only a FIFO waits on poll: loaded when the first one is opened
    select = LazyModule(globals(), "select", "select")

# how long one wait on a FIFO lasts before the checkpoint runs again (milliseconds)
SLICE_MS = 50

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def reason(e: OSError) -> str:
    """The message GNU tools print for an OS error (`No such file or directory`)."""
    return e.strerror or str(e)


def mode_flags(mode: str) -> int:
    """os.open flags for a Python open() mode ("rb", "wb", "ab", "xb", "r+b", …); every
    open is close-on-exec and non-blocking (a FIFO is then polled, see FifoIO)."""
    known = _MODE_FLAGS.get(mode)
    if known is not None:
        return known
    flags = _mode_flags(mode)
    if len(_MODE_FLAGS) < 64:
        _MODE_FLAGS[mode] = flags
    return flags


# the flags of the modes seen: every open asks, and there are a handful of modes
_MODE_FLAGS: dict[str, int] = {}


def _mode_flags(mode: str) -> int:
    plus = "+" in mode
    c = mode[:1]
    if c == "r":
        flags = os.O_RDWR if plus else os.O_RDONLY
    elif c == "w":
        flags = (os.O_RDWR if plus else os.O_WRONLY) | os.O_CREAT | os.O_TRUNC
    elif c == "a":
        flags = (os.O_RDWR if plus else os.O_WRONLY) | os.O_CREAT | os.O_APPEND
    elif c == "x":
        flags = (os.O_RDWR if plus else os.O_WRONLY) | os.O_CREAT | os.O_EXCL
    else:
        raise ValueError(f"invalid mode: {mode!r}")
    return flags | _CLOEXEC | _NONBLOCK


class HostFile(io.FileIO):
    """A host file whose failed writes raise FsError with the OS's reason (a full disk
    ends the command with its message, as GNU tools report it)."""

    tysh_path = ""
    # set once a write failed and was reported: closing then retries the data still
    # buffered, and that second failure is the same error, not a new one to report
    tysh_failed = False

    def write(self, b: Any) -> int:
        try:
            return super().write(b)
        except OSError as e:
            self.tysh_failed = True
            raise FsError(self.tysh_path, reason(e)) from None


class HostReader:
    """A regular host file opened for reading: what `io.BufferedReader` over a HostFile
    answers, made for less. The text tools read a file by `read1` and `read` to its
    end, and those go to the descriptor directly; anything else (a line, a seek, the
    descriptor for a program) makes that BufferedReader on first use, at the position
    reached, and hands it everything from then on. Until then no object of io's is
    made, so an open costs one fstat (wrap_fd's) where FileIO adds another and
    BufferedReader a seek.

    As BufferedReader's, a lock orders the reads and the close: a file shared with a
    job in the background is never read after its descriptor is closed (and its number
    perhaps given to another file)."""

    __slots__ = ("_fd", "_size", "_buffered", "_lock", "name", "tysh_path", "closed")

    def __init__(self, fd: int, path: str, size: int) -> None:
        # the descriptor while this object reads it itself; -1 once closed or handed to
        # `_buffered`, which then owns it
        self._fd = fd
        self._size = size  # the size fstat gave at the open, until the first read
        self._buffered: io.BufferedReader | None = None
        self._lock = _thread.allocate_lock()
        self.name = path
        self.tysh_path = path
        self.closed = False

    def read1(self, size: int = -1) -> bytes:
        if size > 0:
            got = self._direct(os.read, size)
            if got is not None:
                return got
        return self._read1(size)

    def _direct(self, read: Callable[[int, int], bytes], size: int) -> bytes | None:
        """`read(fd, size)` of the descriptor, under the lock; None when it is closed or
        handed to `_buffered` (by another thread, perhaps)."""
        lock = self._lock
        lock.acquire()  # (a `with` costs twice as much, and every read takes it)
        try:
            fd = self._fd
            if fd < 0:
                return None
            self._size = 0
            return read(fd, size)
        finally:
            lock.release()

    def _read1(self, size: int) -> bytes:
        b = self._buffered
        if b is not None:
            return b.read1(size)
        if self.closed:
            raise ValueError("read of closed file")
        if size == 0:
            return b""
        if size < 0:
            size = io.DEFAULT_BUFFER_SIZE  # BufferedReader.read1(-1)'s size
        got = self._direct(os.read, size)
        # (None: closed, or handed over, by another thread meanwhile)
        return self._read1(size) if got is None else got

    def read(self, size: int | None = -1) -> bytes:
        b = self._buffered
        if b is not None:
            return b.read(size)
        if size is None:
            size = -1
        elif size < -1:
            raise ValueError("read length must be non-negative or -1")
        got = self._direct(_read_fd, size)
        if got is not None:
            return got
        if self.closed:
            raise ValueError("read of closed file")
        return self._io().read(size)

    def copy_to(self, out: Any, size: int) -> None:
        """Write what is left of the file to `out` (`out.write(chunk)` per read of up to
        `size` bytes), as a loop of read1 until it gives b"" would. A file not read yet
        and smaller than `size` at the open is read by one read of its size and a byte
        more: when that gives the size, the read stopped at the end (a regular file's
        read is short only there), so a small file costs one read — and no buffer of
        `size` bytes, whose allocation is a mapping of its own. A file that grew
        meanwhile is read on to its end; one whose reported size is 0 (/proc) is read
        until a read gives nothing."""
        whole = self._size
        if 0 < whole < size:
            lock = self._lock
            lock.acquire()
            try:
                fd = self._fd
                # (not read meanwhile, by another thread)
                chunk = os.read(fd, whole + 1) if fd >= 0 and self._size else None
                self._size = 0
            finally:
                lock.release()
            if chunk:
                out.write(chunk)
                if len(chunk) == whole:
                    return
            elif chunk is not None:
                return
        read = self.read1
        while True:
            chunk = read(size)
            if not chunk:
                return
            out.write(chunk)

    def _io(self) -> io.BufferedReader:
        """The BufferedReader that answers from here on (made on first use)."""
        b = self._buffered
        if b is None:
            with self._lock:
                b = self._buffered
                if b is None:
                    if self.closed:  # closed before one was made: answer as a closed one
                        return _closed_reader()
                    raw = HostFile(self._fd, "r", closefd=True)
                    raw.name = self.name
                    raw.tysh_path = self.tysh_path
                    b = self._buffered = io.BufferedReader(raw)
                    self._fd = -1
        return b

    def close(self) -> None:
        lock = self._lock
        lock.acquire()
        fd = self._fd
        self._fd = -1
        was = self.closed
        self.closed = True
        lock.release()
        # (outside the lock: a read that takes it from here on finds no descriptor)
        if fd >= 0:
            os.close(fd)
        elif not was and self._buffered is not None:
            self._buffered.close()

    def __getattr__(self, name: str) -> Any:
        if name in _OWN:  # (a slot not yet set: never the BufferedReader's)
            raise AttributeError(name)
        return getattr(self._io(), name)

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._io())

    def __next__(self) -> bytes:
        return next(self._io())

    def __enter__(self) -> HostReader:
        if self.closed:
            raise ValueError("I/O operation on closed file.")
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        # as a FileIO let go of without close(): its descriptor is closed (a
        # BufferedReader made meanwhile owns it and closes it itself)
        if self._fd >= 0:
            self.close()

    def __repr__(self) -> str:
        return f"<HostReader name={self.name!r}>"


# what one read of a whole file asks for at a time (HostReader.read())
_READ_ALL = 1 << 18
_OWN = frozenset(HostReader.__slots__)
_CLOSED: list[io.BufferedReader] = []


def _read_fd(fd: int, size: int) -> bytes:
    """`size` bytes of `fd` (all of it for -1), or fewer at its end: BufferedReader.read."""
    if size < 0:
        parts: list[bytes] = []
        while True:
            chunk = os.read(fd, _READ_ALL)
            if not chunk:
                return b"".join(parts)
            parts.append(chunk)
    data = os.read(fd, size) if size else b""
    if len(data) < size and data:  # a short read: go on to `size` bytes or the end
        parts = [data]
        got = len(data)
        while got < size:
            chunk = os.read(fd, size - got)
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
        data = b"".join(parts)
    return data


def _closed_reader() -> io.BufferedReader:
    """A closed BufferedReader over a closed HostFile: what a closed HostReader's other
    calls are answered by (each raises as on any closed file)."""
    if not _CLOSED:
        r, w = os.pipe()
        os.close(w)
        b: io.BufferedReader = io.BufferedReader(HostFile(r, "r", closefd=True))
        b.close()
        _CLOSED.append(b)
    return _CLOSED[0]


class FifoIO(io.RawIOBase):
    """A FIFO read or written through poll, a slice at a time, running `checkpoint`
    between slices: the kernel's time limit and cancel() stop a reader waiting for a
    writer (or the reverse) as they stop any other command."""

    def __init__(self, fd: int, path: str, readable: bool, checkpoint: Checkpoint) -> None:
        super().__init__()
        self._fd = fd
        self.name = path
        self._readable = readable
        self._checkpoint = checkpoint
        self._poll = select.poll()
        self._poll.register(fd, select.POLLIN if readable else select.POLLOUT)

    def fileno(self) -> int:
        return self._fd

    def readable(self) -> bool:
        return self._readable

    def writable(self) -> bool:
        return not self._readable

    def _wait(self) -> None:
        while not self._poll.poll(SLICE_MS):
            self._checkpoint()

    def readinto(self, b: Any) -> int:
        while True:
            self._wait()
            try:
                data = os.read(self._fd, len(b))
            except BlockingIOError:
                continue
            n = len(data)
            b[:n] = data
            return n

    def write(self, b: Any) -> int:
        view = memoryview(b)
        done = 0
        while done < len(view):
            self._wait()
            try:
                done += os.write(self._fd, view[done:])
            except BlockingIOError:
                continue
        return done

    def close(self) -> None:
        if not self.closed:
            try:
                os.close(self._fd)
            finally:
                super().close()


def open_fifo_writer(open_fd: Callable[[], int], path: str, checkpoint: Checkpoint) -> int:
    """Open a FIFO for writing, waiting (a slice at a time, with checkpoints) for a
    reader to appear: a non-blocking open fails with ENXIO until one does."""
    while True:
        try:
            return open_fd()
        except OSError as e:
            if e.errno != errno.ENXIO:
                raise
        checkpoint()
        time.sleep(SLICE_MS / 1000)


def wrap_fd(fd: int, mode: str, path: str, checkpoint: Checkpoint) -> IO[bytes]:
    """A buffered file object over a freshly opened fd (owned: closed on failure)."""
    try:
        st = os.fstat(fd)
    except OSError as e:
        os.close(fd)
        raise FsError(path, reason(e)) from None
    kind = st.st_mode
    if mode == "rb" and stat_mod.S_ISREG(kind):  # the commonest open
        return HostReader(fd, path, st.st_size)  # type: ignore[return-value]  # (IO[bytes] in all it is asked)
    if stat_mod.S_ISDIR(kind):
        os.close(fd)
        raise FsError(path, "Is a directory")
    readable = mode[0] == "r" or "+" in mode
    writable = mode[0] != "r" or "+" in mode
    if stat_mod.S_ISFIFO(kind) and readable != writable:
        raw: io.RawIOBase = FifoIO(fd, path, readable, checkpoint)
        return io.BufferedReader(raw) if readable else io.BufferedWriter(raw)
    if not stat_mod.S_ISREG(kind):
        # a terminal or another device: reads and writes block as the device decides
        os.set_blocking(fd, True)
    fmode = ("r" if mode[0] == "r" else "a" if mode[0] == "a" else "w") + ("+" if "+" in mode else "")
    try:
        f = HostFile(fd, fmode, closefd=True)
    except OSError as e:
        os.close(fd)
        raise FsError(path, reason(e)) from None
    f.name = path
    f.tysh_path = path
    if readable and writable:
        return io.BufferedRandom(f)
    if readable:
        return io.BufferedReader(f)
    return io.BufferedWriter(f)


def read_whole(fd: int, limit: int, path: str, checkpoint: Checkpoint) -> bytes | IO[bytes]:
    """The whole content of a freshly opened fd (owned: closed here unless a file
    object takes it) when it is a regular file of at most `limit` bytes, else the file
    object `wrap_fd` makes of it. A read of the size and a byte more that gives the
    size stopped at the end (a regular file's read is short only there); one that gives
    less is checked with one more read, and a file that grew meanwhile is read as a
    stream from its start."""
    try:
        st = os.fstat(fd)
        size = st.st_size
        if stat_mod.S_ISREG(st.st_mode) and size <= limit:
            data = os.read(fd, size + 1)
            if len(data) == size or len(data) < size and not os.read(fd, 1):
                os.close(fd)
                return data
            os.lseek(fd, 0, os.SEEK_SET)
    except OSError as e:
        os.close(fd)
        raise FsError(path, reason(e)) from None
    except BaseException:
        os.close(fd)
        raise
    return wrap_fd(fd, "rb", path, checkpoint)


def temp_beside(dirfd: int, name: str, path: str) -> tuple[int, str]:
    """A new, private file beside `name` in the directory `dirfd` (never through a
    link: O_EXCL|O_NOFOLLOW); returns its fd and name."""
    import secrets

    for _ in range(100):
        tmp = f".{name}.tysh-{secrets.token_hex(4)}"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                         | _CLOEXEC, 0o600, dir_fd=dirfd)
        except FileExistsError:
            continue
        except OSError as e:
            raise FsError(path, reason(e)) from None
        return fd, tmp
    raise FsError(path, "File exists")


@contextmanager
def replace_in(dirfd: int, name: str, path: str, old_mode: int | None,
               checkpoint: Checkpoint) -> Iterator[IO[bytes]]:
    """FileSystem.replace for a host directory held open: the temporary file is made,
    given the original's permissions (through its own fd) and renamed over `name`, all
    relative to `dirfd`, so a path changed meanwhile cannot redirect any of it."""
    fd, tmp = temp_beside(dirfd, name, path)
    f = wrap_fd(fd, "wb", path, checkpoint)
    try:
        try:
            yield f
            f.flush()  # a write error held in the buffer surfaces here
            os.fchmod(f.fileno(), 0o644 if old_mode is None else old_mode)
        except BaseException:
            try:
                f.close()
            except Exception:
                pass
            raise
        f.close()
        try:
            os.rename(tmp, name, src_dir_fd=dirfd, dst_dir_fd=dirfd)
        except OSError as e:
            raise FsError(path, reason(e)) from None
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=dirfd)
        except OSError:
            pass
        raise


def output_file(out: object) -> tuple[int, int] | None:
    """(device, inode) of `out` when it is a regular file of the host (a redirection
    to one); None for anything else: memory, a pipe, a terminal, a capture."""
    if type(out) in NOT_TERMINALS:
        return None
    try:
        st = os.fstat(out.fileno())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino) if stat_mod.S_ISREG(st.st_mode) else None


def reads_output(src: object, out: tuple[int, int]) -> bool:
    """Whether `src` is the host file `out` (`output_file`) with bytes left after its
    position: copying it there would read what the copy writes and, past the size of
    one read, never end. GNU cat refuses such a copy (`input file is output file`)."""
    if type(src) in NOT_TERMINALS:
        return False
    try:
        # (a HostReader that reads its descriptor itself is at the descriptor's offset)
        fd = src._fd if type(src) is HostReader and src._fd >= 0 else (
            src.fileno())  # type: ignore[attr-defined]
        st = os.fstat(fd)
        return (st.st_dev, st.st_ino) == out and os.lseek(fd, 0, os.SEEK_CUR) < st.st_size
    except (AttributeError, OSError, ValueError):
        return False
