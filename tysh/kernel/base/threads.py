"""Threads that run shell code (pipeline stages, `&` jobs, xargs -P), with a stack sized
to what shell code needs, leaving the process default alone.

Shell recursion is Python recursion, which CPython 3.11+ runs without deepening the C
stack: a 1 MiB thread reaches the function-depth limit and Python's recursion limit
cleanly. What does use the C stack is native recursion bounded by the recursion limit
(the JSON scanner over `[[[[…`, nested reprs), which needs a few MiB — the 8 MiB a
process's main thread has runs all of it. Shell threads get twice that, SHELL_STACK:
enough, and small enough that a 9-stage pipeline or a dozen jobs stay far inside
`ulimit -v`. `threading.stack_size` is process-wide, so it is set only for the moment a
tysh thread starts: an application that embeds tysh keeps its own threads' size. (Locks
and the stack size come from `_thread`: `threading` loads only where threads start.)"""

from __future__ import annotations

import _thread
import sys
import time

from tysh.kernel.base.limits import LimitExceeded

TYPE_CHECKING = False
if TYPE_CHECKING:
    import threading

SHELL_STACK = 16 * 1024 * 1024
# tried when SHELL_STACK cannot be had (an address-space limit nearly reached)
SMALL_STACK = 2 * 1024 * 1024

_lock = _thread.allocate_lock()


class NoThread(LimitExceeded):
    """The OS refused a new thread (address space or thread count exhausted): the
    script ends with status 1, as at the other limits."""

    def __init__(self) -> None:
        super().__init__("tysh: cannot start a thread: the process's resource limit is reached")


# address space kept free beyond a new thread's stack under `ulimit -v`: a thread that
# gets its stack but then fails a small allocation while starting never reports that it
# started, and CPython's Thread.start() waits for that report forever
HEADROOM = 64 * 1024 * 1024


def _address_room() -> int | None:
    """Bytes the address-space limit still allows this process; None without a limit."""
    import resource

    soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    if soft == resource.RLIM_INFINITY:
        return None
    try:
        with open("/proc/self/statm", "rb") as f:
            pages = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    import mmap

    return soft - pages * mmap.PAGESIZE


def start_deep(thread: threading.Thread) -> None:
    """Start `thread` with a SHELL_STACK stack (where the platform allows setting it),
    falling back to SMALL_STACK when the OS refuses that much; raises NoThread when no
    thread can be started at all, or when an address-space limit leaves too little room
    to start one safely."""
    room = _address_room()
    stack = SHELL_STACK
    if room is not None and room < SHELL_STACK + HEADROOM:
        if room < SMALL_STACK + HEADROOM:
            raise NoThread()
        stack = SMALL_STACK
    with _lock:
        try:
            old = _thread.stack_size(stack)
        except (ValueError, RuntimeError):
            old = None
        try:
            try:
                thread.start()
                return
            except RuntimeError:
                if old is None:
                    raise NoThread() from None
            _thread.stack_size(SMALL_STACK)
            try:
                thread.start()
            except RuntimeError:
                raise NoThread() from None
        finally:
            if old is not None:
                _thread.stack_size(old)


# Shell recursion is Python recursion: a shell function calling itself a few hundred
# times goes deeper than CPython's default limit of 1000 frames. The limit is
# process-wide, so it is raised only while shell code runs (a call, a job still running
# after it) and put back when the last such run ends: the embedding application keeps
# its own setting.
DEEP_RECURSION = 40000

_depth_lock = _thread.allocate_lock()
_depth_users = 0
# the host's limit while it is raised (None otherwise: not raised, or no holder)
_depth_saved: int | None = None


def hold_deep() -> None:
    """Raise the recursion limit to DEEP_RECURSION (unless the host's is higher) for
    one more holder; every call is matched by one `release_deep()`."""
    global _depth_users, _depth_saved
    _depth_lock.acquire()  # (not `with`: every execute() comes here, and `with` costs more)
    try:
        if not _depth_users:
            current = _get_limit()
            if current < DEEP_RECURSION:
                _set_limit(DEEP_RECURSION)
                _depth_saved = current
        _depth_users += 1
    finally:
        _depth_lock.release()


def release_deep() -> None:
    """One holder leaves; the host's limit comes back when the last one does."""
    global _depth_users, _depth_saved
    _depth_lock.acquire()
    try:
        _depth_users -= 1
        if not _depth_users and _depth_saved is not None:
            # left alone if the host changed it meanwhile
            if _get_limit() == DEEP_RECURSION:
                try:
                    _set_limit(_depth_saved)
                except RecursionError:  # pragma: no cover — deeper than the old limit
                    pass
            _depth_saved = None
    finally:
        _depth_lock.release()


_get_limit = sys.getrecursionlimit
_set_limit = sys.setrecursionlimit


class deep_recursion:  # noqa: N801 — used as `with deep_recursion():`
    """Hold the recursion limit at DEEP_RECURSION (or the host's, if higher) while the
    block runs; the host's value comes back when the last holder leaves."""

    __slots__ = ()

    def __enter__(self) -> None:
        hold_deep()

    def __exit__(self, *exc: object) -> None:
        release_deep()


# -- turns for the embedding process's other threads --------------------------------------

TURN = 0.005  # the longest a run keeps the interpreter lock from other threads
TURN_PAUSE = 1e-5
turn_at = 0.0  # when the running shell next gives the other threads a turn


def give_turn(now: float) -> None:
    """Let the process's other threads run for a moment (called from the stop checks at
    most every TURN seconds). A loop whose commands each release and retake the
    interpreter lock for a few microseconds (RE2 searches, small reads) retakes it
    before a waiting thread has woken, again and again: a host thread was measured
    waiting over a second. A real sleep, however short, hands the lock over."""
    global turn_at
    turn_at = now + TURN
    if _thread._count():  # other Python threads exist
        time.sleep(TURN_PAUSE)
