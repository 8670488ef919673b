"""Small stream helpers: the null device, closing quietly, and an fd table type.

Commands see their open files as a dict fd -> binary stream; redirections build a new
dict, so restoring after a command is just dropping it."""

from __future__ import annotations

import io
from typing import IO, cast

Fds = dict[int, IO[bytes]]


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
