"""Limits, cancellation and bounded output: what keeps a hostile or runaway script from
taking the embedding process down with it.

`Limits` is the kernel's configuration of bounds; `RunControl` is the one cancellation
switch shared by a kernel's interpreter and all its forks (pipeline stages, subshells,
jobs), which also knows the external processes running so `cancel()` can kill them at
once; `CappedOutput` keeps the head and the tail of a stream that grows past its limit."""

from __future__ import annotations

import io
import os
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from tysh.kernel.base.control import ExitShell
from tysh.kernel.base.errors import TyshError
from tysh.kernel.base.record import Record

if TYPE_CHECKING:
    import subprocess

DEFAULT_OUTPUT_BYTES = 1 << 20

# exit codes of the embedding contract (see the table in kernel.py)
OUTPUT_TRUNCATED = 3
BUSY = 75
INTERNAL_FAULT = 70
TIME_LIMIT = 124
CANCELLED = 130

# what a script too deeply nested to parse or run (Python's recursion limit) reports
NESTS_TOO_DEEPLY = "tysh: script nests too deeply"


@attrs.frozen(repr=False, eq=False)
class Limits(Record):
    """Bounds that end runaway scripts with a clean error instead of a crash.

    `max_output_bytes` bounds what `execute()` keeps of stdout and of stderr (each; the
    head and the tail survive, None keeps everything); `timeout` is the default time
    limit in seconds of one `execute()` (None: no limit)."""

    max_function_depth: int = 1000
    max_subshell_depth: int = 200
    max_loop_iterations: int | None = None
    max_output_bytes: int | None = DEFAULT_OUTPUT_BYTES
    timeout: float | None = None


class TimedOut(Exception):
    """A deadline (`timeout`, the kernel's time limit) passed inside an in-process command."""


class Cancelled(ExitShell):
    """`Kernel.cancel()` was called: the (sub)shell ends with status 130."""

    def __init__(self) -> None:
        super().__init__(CANCELLED)


class LimitExceeded(TyshError):
    """A nesting or iteration limit was hit; ends the script with status 1."""


class RunControl:
    """The cancellation switch of one kernel, shared by its interpreter and every fork.

    `cancelled` is a plain attribute so the interpreter can test it at each statement for
    the price of an attribute load; the running external processes are tracked so that
    `cancel()` (from any thread) kills them instead of waiting for them to end."""

    def __init__(self, process_groups: bool = True, check_streams: bool = True) -> None:
        self.cancelled = False
        # signals sent to the shell itself (`kill -USR1 $$`, `Kernel.signal()`, a real
        # signal to the CLI) whose trap runs at the top-level shell's next statement
        self.pending: list[int] = []
        # the top-level shell's signal traps by number ("" ignores): what a signal to the
        # shell finds, from any fork or thread
        self.trapped: dict[int, str] = {}
        # whether the INT trap ran for the current cancel
        self.int_trap_ran = False
        self.process_groups = process_groups
        self.check_streams = check_streams
        self._lock = threading.Lock()
        self._procs: set[subprocess.Popen[Any]] = set()

    def cancel(self) -> None:
        with self._lock:
            self.cancelled = True
            procs = list(self._procs)
        for p in procs:
            self.kill(p)

    def reset(self) -> None:
        self.cancelled = False
        self.int_trap_ran = False
        self.pending.clear()

    def track(self, proc: subprocess.Popen[Any]) -> None:
        with self._lock:
            self._procs.add(proc)
            late = self.cancelled
        if late:
            self.kill(proc)

    def untrack(self, proc: subprocess.Popen[Any]) -> None:
        with self._lock:
            self._procs.discard(proc)

    def kill(self, proc: subprocess.Popen[Any]) -> None:
        """Kill a child and, when it leads its own process group, everything it started."""
        try:
            if self.process_groups:
                import signal  # only externals get here; `signal` costs every start

                os.killpg(proc.pid, signal.SIGKILL)
            else:
                proc.kill()
        except (ProcessLookupError, PermissionError, OSError):
            pass


def marker(omitted: int, after_newline: bool = True) -> bytes:
    """The line put where output was cut out."""
    text = f"… [tysh: output truncated: {omitted} bytes omitted] …\n"
    return (text if after_newline else "\n" + text).encode()


class CappedOutput(io.BytesIO):
    """An in-memory stdout/stderr that keeps at most `limit` bytes: the first half and
    the last half of what was written, so both the start and the final messages of a
    long output survive. Memory stays bounded however much the script writes."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = max(limit, 0)
        self.head_cap = self.limit // 2
        self.tail_cap = self.limit - self.head_cap
        self.total = 0
        self.over = False
        self._tail = bytearray()
        self._lock = threading.Lock()
        self.check: Callable[[], None] | None = None  # see streams.CheckedBytesIO

    def write(self, b: Any) -> int:
        check = self.check
        if check is not None:
            check()
        n = len(b)
        with self._lock:
            self.total += n
            if not self.over:
                if self.total <= self.limit:
                    return super().write(b)
                self.over = True
                kept = super().getvalue() + bytes(b)
                super().seek(0)
                super().truncate()
                super().write(kept[: self.head_cap])
                self._tail += kept[self.head_cap :]
            else:
                self._tail += b
            if len(self._tail) > 2 * self.tail_cap + (1 << 16):
                del self._tail[: len(self._tail) - self.tail_cap]
        return n

    @property
    def omitted(self) -> int:
        return max(self.total - self.limit, 0) if self.over else 0

    def result(self) -> bytes:
        """What was kept: everything, or head + marker + tail when over the limit —
        cut at line ends when a line end is near, so no line is shown half."""
        with self._lock:
            head = super().getvalue()
            if not self.over:
                return head
            tail = bytes(self._tail[len(self._tail) - self.tail_cap :]) if self.tail_cap else b""
        cut = head.rfind(b"\n")
        if cut >= len(head) // 2:
            head = head[: cut + 1]
        start = tail.find(b"\n")
        if 0 <= start < len(tail) // 2:
            tail = tail[start + 1 :]
        omitted = self.total - len(head) - len(tail)
        return head + marker(omitted, not head or head.endswith(b"\n")) + tail
