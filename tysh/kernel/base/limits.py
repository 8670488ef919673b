"""Limits, cancellation and bounded output: what keeps a hostile or runaway script from
taking the embedding process down with it.

`Limits` is the kernel's configuration of bounds; `RunControl` is the one cancellation
switch shared by a kernel's interpreter and all its forks (pipeline stages, subshells,
jobs), which also knows the external processes running so `cancel()` can kill them at
once; `Meter` budgets the memory a script's data takes (`max_memory`); `CappedOutput`
keeps the head and the tail of a stream that grows past its limit."""

from __future__ import annotations

import _thread
import io
import os
import sys

from tysh.kernel.base.control import ExitShell
from tysh.kernel.base.errors import TyshError
from tysh.kernel.base.record import Record, frozen
from tysh.kernel.base.streams import NOT_TERMINALS
from tysh.kernel.base.values import AssocArray, SparseList
from tysh.kernel.base.weak import WeakMembers

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from collections.abc import Callable, Iterable
    from typing import Any

DEFAULT_OUTPUT_BYTES = 1 << 20
MIB = 1 << 20
# what the sandboxed presets allow a script's in-process data (variables, captures,
# tool buffers) and the in-memory filesystem's content, unless told otherwise
DEFAULT_MAX_MEMORY = 512 * MIB
DEFAULT_MAX_FS_BYTES = 256 * MIB
# background jobs running at once in one kernel, nested ones included: each is a thread
# (with more for its pipeline stages), so a fork bomb stops here, not at the host's limit
DEFAULT_MAX_JOBS = 64
# a sandboxed program's rlimits: room for a compiler or a test run (runtimes such as
# node reserve gigabytes of address space they never touch), not for a runaway
DEFAULT_EXTERNAL_MEMORY = 8 << 30
DEFAULT_EXTERNAL_PROCESSES = 512
DEFAULT_EXTERNAL_FILE_SIZE = 1 << 30

# exit codes of the embedding contract (see the table in kernel.py)
OUTPUT_TRUNCATED = 3
BUSY = 75
INTERNAL_FAULT = 70
TIME_LIMIT = 124
CANCELLED = 130

# what a script too deeply nested to parse or run (Python's recursion limit) reports
NESTS_TOO_DEEPLY = "tysh: script nests too deeply"


@frozen
class Limits(Record):
    """Bounds that end runaway scripts with a clean error instead of a crash.

    `max_output_bytes` bounds what `execute()` keeps of stdout and of stderr (each; the
    head and the tail survive, None keeps everything); `timeout` is the default time
    limit in seconds of one `execute()` (None: no limit; `inf` too; it must not be
    negative or NaN, and 0 means already expired); `max_memory` bounds the bytes of
    in-process data a script holds at once — its variables and arrays, `$(…)` captures,
    here-documents and the buffers of tools that read their whole input (None: no
    bound; see `Meter`); `max_jobs` bounds the background jobs running at once in the
    kernel, nested ones included (the next `&` fails with status 1; None: no bound).

    The `external_*` bounds are rlimits each sandboxed external program starts with
    (hard and soft, so it cannot raise them): address space in bytes, processes of its
    user (not enforced by Linux for root), and the largest file it may write; its CPU
    seconds are the time left of the call. None leaves that rlimit as it is.

    A frozen record: `limits.evolve(timeout=5)` is a copy with one bound changed."""

    max_function_depth: int = 1000
    max_subshell_depth: int = 200
    max_loop_iterations: int | None = None
    max_output_bytes: int | None = DEFAULT_OUTPUT_BYTES
    timeout: float | None = None
    max_memory: int | None = DEFAULT_MAX_MEMORY
    max_jobs: int | None = DEFAULT_MAX_JOBS
    external_memory: int | None = DEFAULT_EXTERNAL_MEMORY
    external_processes: int | None = DEFAULT_EXTERNAL_PROCESSES
    external_file_size: int | None = DEFAULT_EXTERNAL_FILE_SIZE

    def __post_init__(self) -> None:
        check_timeout(self.timeout)  # refused here rather than read later as "no limit"


_INF = float("inf")


def check_timeout(secs: float | None, what: str = "timeout") -> float | None:
    """A time limit as the embedding API takes it: None or `inf` is no limit, 0 a limit
    already passed; negative, NaN or a non-number is refused (ValueError) rather than
    read as "no limit"."""
    if type(secs) is float and 0.0 <= secs < _INF:  # the common case: a plain limit
        return secs
    if secs is None:
        return None
    if isinstance(secs, bool) or not isinstance(secs, (int, float)):
        raise ValueError(f"{what} must be a number of seconds or None, not {secs!r}")
    if secs != secs or secs < 0:
        raise ValueError(f"{what} must be a non-negative number of seconds, not {secs!r}")
    return None if secs == float("inf") else float(secs)


class TimedOut(Exception):
    """A deadline (`timeout`, the kernel's time limit) passed inside an in-process command."""


class Cancelled(ExitShell):
    """`Kernel.cancel()` was called: the (sub)shell ends with status 130."""

    def __init__(self) -> None:
        super().__init__(CANCELLED)


class LimitExceeded(TyshError):
    """A nesting or iteration limit was hit; ends the script with status 1."""


def format_bytes(n: int) -> str:
    """A byte count as a person reads it: `512 MiB`, `1.5 GiB`, `1000 bytes`."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            v = n / (1 << shift)
            return f"{v:.0f} {unit}" if v == int(v) else f"{v:.1f} {unit}"
    return f"{n} bytes"


class MemoryLimitExceeded(LimitExceeded):
    """Data a script builds would pass `Limits.max_memory`.

    From the shell itself (a variable, a `$(…)` capture, a here-document, a word's
    expansion) it ends the script with status 1, as the other limits do; `tool` marks
    one raised for a tool's own buffer or a width it was given, which fails only that
    command (status 1, `NAME: memory limit of … exceeded`) and lets the script go on."""

    def __init__(self, what: str, cap: int, tool: bool = False) -> None:
        self.what = what
        self.cap = cap
        self.tool = tool
        text = f"{what}: memory limit of {format_bytes(cap)} exceeded"
        super().__init__(text if tool else "tysh: " + text)


UNBOUNDED = 1 << 62


# Sizes are what CPython holds, approximately: a string's object (sys.getsizeof), a
# list's slot array, a record's table, typed values item by item; a variable (its Var
# and its dict entry) costs VAR_BYTES more.
VAR_BYTES = 120
SLOT_BYTES = 8
_ENTRY_BYTES = 100  # a record's key slot, hash and value pointer, with the table's slack
_FLAT = frozenset((str, type(None), int, float, bool, bytes))


def value_size(v: Any) -> int:
    """Bytes a value takes in memory (a list or record with everything in it)."""
    t = type(v)
    if t is str or t is bytes:
        return sys.getsizeof(v)
    if t is SparseList:
        return value_size(list(v)) + value_size(v.far) if v.far else value_size(list(v))
    if t is list:
        n = 56 + SLOT_BYTES * len(v)
        if _FLAT.issuperset(set(map(type, v))):
            return n + sum(map(sys.getsizeof, v))
        try:
            return n + sum(map(value_size, v))
        except RecursionError:
            return n
    if t is dict or t is AssocArray:
        try:
            return 64 + sum(_ENTRY_BYTES + sys.getsizeof(k) + value_size(x)
                            for k, x in v.items())
        except RecursionError:
            return 64
    return sys.getsizeof(v)


class Meter:
    """The memory budget of one kernel, shared by its interpreter and every fork.

    Two counts, both in bytes as Python holds the data (a string's object size, eight
    bytes a slot for a list, …), checked against `cap` with one addition and one
    comparison — the hot paths pay nothing more:

    - `held`: what live buffers hold now — `$(…)` captures, `--json` captures and the
      buffers of tools that read their whole input. Each charges as it grows and
      releases when done, so this count is exact.
    - `est`: an upper estimate of what the session's variables hold. Every store adds
      the size of what it stores and nothing is subtracted when a value is replaced or
      unset, so the estimate only grows; when it would pass the cap, `census` counts
      what the variables of every live session (the kernel's and its forks') really
      hold, shared strings once, and the estimate starts again from that.

    A store or a buffer that would take the total past the cap raises
    MemoryLimitExceeded; `need` asks the same for a single allocation a tool is about
    to make (a width, a padding). Updates race only between pipeline stages, by at most
    one chunk; the census runs under a lock."""

    __slots__ = ("cap", "held", "est", "census", "_lock", "sessions")

    def __init__(self, cap: int | None = None) -> None:
        self.cap = UNBOUNDED if cap is None else max(int(cap), 0)
        self.held = 0
        self.est = 0
        # counts what the variables of the live sessions hold (set by the kernel)
        self.census: Callable[[], int] | None = None
        self._lock = _thread.allocate_lock()
        # the live sessions (weakly held) a census walks
        self.sessions = WeakMembers()

    @property
    def limited(self) -> bool:
        return self.cap < UNBOUNDED

    def track(self, session: Any) -> None:
        """Count `session`'s variables in every census while it lives (forks)."""
        if self.cap < UNBOUNDED:
            self.sessions.add(session)

    def _recount(self) -> None:
        census = self.census
        if census is not None:
            self.est = census()

    def admit(self, n: int, what: str) -> None:
        """A store of `n` bytes into variables: add it to the estimate, or raise when
        the variables and buffers would then pass the cap."""
        est = self.est + n
        if est + self.held <= self.cap:
            self.est = est
            return
        with self._lock:
            self._recount()
            if self.est + n + self.held > self.cap:
                raise MemoryLimitExceeded(what, self.cap)
            self.est += n

    def need(self, n: int, what: str, tool: bool = True) -> None:
        """Raise unless one allocation of `n` bytes fits beside what is held now."""
        if n + self.est + self.held <= self.cap:
            return
        if n > self.cap:
            raise MemoryLimitExceeded(what, self.cap, tool)
        with self._lock:
            self._recount()
            if n + self.est + self.held > self.cap:
                raise MemoryLimitExceeded(what, self.cap, tool)

    def charge(self, n: int, what: str, tool: bool = True) -> None:
        """A buffer grows by `n` bytes: count it, or raise (counting nothing) when that
        would pass the cap. The caller releases what it charged when the buffer goes."""
        lock = self._lock
        lock.acquire()  # (not `with`, which costs twice as much: every hold comes here)
        try:
            if self.held + n + self.est > self.cap:
                if n > self.cap:
                    raise MemoryLimitExceeded(what, self.cap, tool)
                self._recount()
                if self.held + n + self.est > self.cap:
                    raise MemoryLimitExceeded(what, self.cap, tool)
            self.held += n
        finally:
            lock.release()

    def release(self, n: int) -> None:
        lock = self._lock
        lock.acquire()
        try:
            self.held -= n
        finally:
            lock.release()


class Charges:
    """What one command charges to the meter (its buffers), all released when the
    command ends; shared by every copy of the command's context. Without a meter
    (no budget) holding costs nothing."""

    __slots__ = ("meter", "n")

    def __init__(self, meter: Meter | None) -> None:
        self.meter = meter
        self.n = 0

    def hold(self, n: int, what: str) -> None:
        m = self.meter
        if m is not None:
            m.charge(n, what)
            self.n += n

    def need(self, n: int, what: str) -> None:
        m = self.meter
        if m is not None:
            m.need(n, what)

    def release(self, n: int | None = None) -> None:
        """Give back `n` bytes of what was held (all of it by default)."""
        m = self.meter
        if m is not None and self.n:
            n = self.n if n is None else min(n, self.n)
            m.release(n)
            self.n -= n


NO_CHARGES = Charges(None)  # contexts without a budget (no limit, tests, completion)


class RunControl:
    """The cancellation switch of one kernel, shared by its interpreter and every fork.

    `cancelled` is a plain attribute so the interpreter can test it at each statement for
    the price of an attribute load; the running external processes are tracked so that
    `cancel()` (from any thread) kills them instead of waiting for them to end."""

    def __init__(self, process_groups: bool = True, check_streams: bool = True) -> None:
        # a background job of a non-interactive shell: the processes it starts ignore
        # SIGINT and SIGQUIT, and those signals sent to it leave it running
        self.quiet_interrupt = False
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
        self._lock = _thread.allocate_lock()
        self._procs: set[subprocess.Popen[Any]] = set()
        # the control of the kernel itself, which counts every job started under it
        self.root: RunControl = self
        # the running jobs (root only; run.jobs.Job): empty, the common case, is all a
        # caller that would stop them needs to look at
        self.live: set[Any] = set()

    def add_job(self, job: Any, cap: int | None) -> bool:
        """Count a job that is about to start (root only); False when `cap` jobs are
        already running."""
        with self._lock:
            if cap is not None and len(self.live) >= cap:
                return False
            self.live.add(job)
            return True

    def has_room(self, cap: int | None) -> bool:
        return cap is None or len(self.live) < cap

    def job_ended(self, job: Any) -> None:
        with self._lock:
            self.live.discard(job)

    def live_jobs(self) -> list[Any]:
        with self._lock:
            return list(self.live)

    def stop_jobs(self, wait: float = 1.0) -> None:
        """Stop every running job of the kernel (nested ones too) and wait up to `wait`
        seconds for their threads to end. A job stops at its next stop point (a
        statement, a loop iteration, a pipe write, a sleep); its external processes are
        killed at once."""
        if not self.live:  # most calls start no job: nothing to lock or wait for
            return
        import time

        end = time.monotonic() + wait
        while True:
            jobs = self.live_jobs()
            if not jobs:
                return
            for job in jobs:
                job.control.stop()
            for job in jobs:
                t = job.thread
                left = end - time.monotonic()
                if left <= 0:
                    return
                if t is not None and t.is_alive():
                    t.join(left)

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


# how far past `max_output_bytes` a stream keeps taking writes (for its tail) before its
# writers are stopped: 8 times the limit plus 8 MiB (16 MiB at the default limit)
OVERRUN_FACTOR = 8
OVERRUN_BYTES = 8 * MIB
# how much a run writes to a captured stream between two of its stop checks
CHECK_BYTES = 1 << 16


def marker(omitted: int, after_newline: bool = True) -> bytes:
    """The line put where output was cut out."""
    text = f"… [tysh: output truncated: {omitted} bytes omitted] …\n"
    return (text if after_newline else "\n" + text).encode()


_bytes_write = io.BytesIO.write


class CappedOutput(io.BytesIO):
    """An in-memory stdout/stderr that keeps at most `limit` bytes: the first half and
    the last half of what was written, so both the start and the final messages of a
    long output survive. Once `stop_at` bytes (OVERRUN_FACTOR times the limit plus
    OVERRUN_BYTES) have been written, every later write raises BrokenPipeError, so a
    writer that would go on (`yes`, a job's loop) stops as at a reader that went away.
    Memory stays bounded however much the script writes."""

    # slots rather than an instance dict: two are made for every execute()
    __slots__ = ("limit", "stop_at", "_lock", "total", "over", "check", "check_at", "_tail")

    # set only once the output passes its limit (see write)
    _tail: bytearray

    def __init__(self, limit: int, lock: _thread.LockType | None = None) -> None:
        self.limit = limit = limit if limit > 0 else 0
        # past this many bytes written every write raises BrokenPipeError
        self.stop_at = OVERRUN_FACTOR * limit + OVERRUN_BYTES
        # guards `total`, `over` and the tail; streams written together may share one
        self._lock = lock if lock is not None else _thread.allocate_lock()
        self.total = 0
        self.over = False
        self.check: Callable[[], None] | None = None  # see streams.CheckedBytesIO
        self.check_at = CHECK_BYTES  # `total` at which a write next calls `check`

    def clear(self) -> None:
        """Empty a stream that never passed its limit, for another run to write (its
        owner has taken `check` away when the last run ended)."""
        if self.total:
            self.seek(0)
            self.truncate()
            self.total = 0
            self.check_at = CHECK_BYTES

    def writelines(self, lines: Iterable[Any]) -> None:
        # (io.BytesIO's own would write each line without passing through `write`)
        for line in lines:
            self.write(line)

    @property
    def head_cap(self) -> int:
        return self.limit // 2

    @property
    def tail_cap(self) -> int:
        return self.limit - self.limit // 2

    def write(self, b: Any) -> int:
        if self.total >= self.check_at:
            check = self.check
            if check is not None:
                # a writer that never ends stops within CHECK_BYTES of a cancel or a
                # deadline; a script's statements are checked besides
                check()
                self.check_at = self.total + CHECK_BYTES
        lock = self._lock
        lock.acquire()  # (a `with` costs twice as much, and every write of a run takes it)
        try:
            total = self.total
            if total > self.stop_at:
                # far past the limit: the writer is stopped as by a reader that went
                # away; nothing more it writes would be shown, and it might never end
                raise BrokenPipeError(32, "output limit reached")
            self.total = total = total + len(b)
            if not self.over:
                if total <= self.limit:
                    return _bytes_write(self, b)
                self.over = True
                kept = io.BytesIO.getvalue(self) + bytes(b)
                self.seek(0)
                self.truncate()
                head_cap = self.head_cap
                io.BytesIO.write(self, kept[:head_cap])
                self._tail = bytearray(kept[head_cap:])
            else:
                self._tail += b
            if len(self._tail) > 2 * self.tail_cap + (1 << 16):
                del self._tail[: len(self._tail) - self.tail_cap]
        finally:
            lock.release()
        return len(b)

    @property
    def omitted(self) -> int:
        return max(self.total - self.limit, 0) if self.over else 0

    def result(self) -> bytes:
        """What was kept: everything, or head + marker + tail when over the limit —
        cut at line ends when a line end is near, so no line is shown half."""
        if not self.over:
            head = io.BytesIO.getvalue(self)
            if not self.over:  # `over` never goes back: `head` is all that was written
                return head
        with self._lock:
            head = io.BytesIO.getvalue(self)
            tail = bytes(self._tail[len(self._tail) - self.tail_cap :]) if self.tail_cap else b""
        cut = head.rfind(b"\n")
        if cut >= len(head) // 2:
            head = head[: cut + 1]
        start = tail.find(b"\n")
        if 0 <= start < len(tail) // 2:
            tail = tail[start + 1 :]
        omitted = self.total - len(head) - len(tail)
        return head + marker(omitted, not head or head.endswith(b"\n")) + tail


NOT_TERMINALS.add(CappedOutput)


def parse_seconds(text: str) -> float | None:
    """A duration as `timeout` takes it: a number with an optional s/m/h/d suffix."""
    mult = {"s": 1, "m": 60, "h": 3600, "d": 86400}.get(text[-1:], 0)
    num = text[:-1] if mult else text
    try:
        secs = float(num) * (mult or 1)
    except ValueError:
        return None
    return secs if secs >= 0 and secs == secs else None


def parse_size(text: str) -> int | None:
    """A byte count with an optional K, M or G suffix (powers of 1024)."""
    mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}.get(text[-1:].lower(), 0)
    num = text[:-1] if mult else text
    if not num.isascii() or not num.isdigit():
        return None
    return int(num) * (mult or 1)
