"""Small stream helpers: the null device, closing quietly, and an fd table type.

Commands see their open files as a dict fd -> binary stream; redirections build a new
dict, so restoring after a command is just dropping it."""

from __future__ import annotations

import io

from tysh.kernel.base.hints import Protocol, cast
from tysh.kernel.base.weak import WeakMembers

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import IO, Any

Fds = dict[int, "IO[bytes]"]


class NullIO(io.RawIOBase):
    """`/dev/null` without touching the filesystem: reads give EOF, writes vanish."""

    def readable(self) -> bool:
        return True

    def writable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        return 0

    def write(self, b: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        return len(b)

    def close(self) -> None:  # shared: never really closed
        pass


NULL = NullIO()
NULL_IO: IO[bytes] = cast("IO[bytes]", NULL)  # the same object, typed as a stream


def fileno_of(stream: IO[bytes] | None) -> int | None:
    """The OS fd behind a stream, or None for in-memory streams."""
    if stream is None or isinstance(stream, NullIO):
        return None
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None


# pipes whose reader went away while a program's output was still in the buffer: the
# program ended (status 141); the bytes left behind are nobody's to report again
ABANDONED = WeakMembers()

# stream types that are never a terminal, so a command's Context need not ask: memory
# buffers, and the in-memory streams of other modules (which add their own types)
NOT_TERMINALS: set[type] = {io.BytesIO}


def flush_quietly(stream: IO[bytes] | None) -> None:
    if stream is None:
        return
    try:
        stream.flush()
    except (OSError, ValueError):
        pass


def close_quietly(stream: IO[bytes] | None) -> None:
    if stream is None:
        return
    try:
        stream.close()
    except (OSError, ValueError):
        pass


class Stoppable(Protocol):
    """What a checked stream asks: has the run been cancelled or its deadline passed?"""

    deadline: float | None

    @property
    def control(self) -> Any: ...

    def check_boundary(self) -> None: ...


class Budget(Protocol):
    """What a metered capture charges (limits.Meter)."""

    def charge(self, n: int, what: str, tool: bool = True) -> None: ...

    def release(self, n: int) -> None: ...


class CheckedBytesIO(io.BytesIO):
    """An in-memory capture (`$(…)`, `execute()`'s stdout) that stops a builtin producing
    output without end at a cancel or a deadline: `write` raises the interpreter's
    Cancelled / TimedOut then. Never used for stderr: error reports must get through.

    With a `meter`, what it holds is charged to the memory budget as it grows (the
    write that would pass the budget raises MemoryLimitExceeded naming `what`); the
    owner calls `release()` once it is done with the content."""

    def __init__(self, interp: Stoppable | None, meter: Budget | None = None,
                 what: str = "output", tool: bool = False) -> None:
        super().__init__()
        self.interp = interp
        self.meter = meter
        self.what = what
        self.tool = tool
        self.charged = 0

    def write(self, b: Any) -> int:
        it = self.interp
        if it is not None and (it.control.cancelled or it.deadline is not None):
            it.check_boundary()
        m = self.meter
        if m is not None:
            n = len(b) if type(b) is bytes else memoryview(b).nbytes
            m.charge(n, self.what, self.tool)
            self.charged += n
        return io.BytesIO.write(self, b)

    def writelines(self, lines: Iterable[Any]) -> None:
        # (io.BytesIO's own would write each line without passing through `write`)
        for line in lines:
            self.write(line)

    def release(self) -> None:
        m = self.meter
        if m is not None and self.charged:
            m.release(self.charged)
            self.charged = 0


NOT_TERMINALS.add(CheckedBytesIO)


class CheckedWriter(io.BufferedWriter):
    """The write end of a pipe between pipeline stages, with the same check."""

    def __init__(self, fd: int, size: int, interp: Stoppable) -> None:
        super().__init__(io.FileIO(fd, "w"), size)
        self.interp = interp
        self._control = interp.control

    def write(self, b: Any) -> int:
        if self._control.cancelled or self.interp.deadline is not None:
            self.interp.check_boundary()
        return io.BufferedWriter.write(self, b)


class CheckedReader(io.BufferedReader):
    """The read end of a pipe between pipeline stages, with the same check on every
    read: a stage that reads without writing (a tool gathering one endless line) still
    stops at a cancel or a deadline."""

    def __init__(self, fd: int, interp: Stoppable) -> None:
        super().__init__(io.FileIO(fd, "r"))
        self.interp = interp
        self._control = interp.control

    def _check(self) -> None:
        if self._control.cancelled or self.interp.deadline is not None:
            self.interp.check_boundary()

    def read(self, size: int | None = -1) -> bytes:
        self._check()
        return io.BufferedReader.read(self, size)

    def read1(self, size: int = -1) -> bytes:
        self._check()
        return io.BufferedReader.read1(self, size)

    def readline(self, size: int | None = -1) -> bytes:
        self._check()
        return io.BufferedReader.readline(self, size)

    def readinto(self, b: Any) -> int:
        self._check()
        return io.BufferedReader.readinto(self, b)
