"""Threads that run shell code (pipeline stages, `&` jobs, xargs -P), with a stack sized
to what shell code needs, leaving the process default alone.

Shell recursion is Python recursion, which CPython 3.11+ runs without deepening the C
stack: a 1 MiB thread reaches the function-depth limit and Python's recursion limit
cleanly. What does use the C stack is native recursion bounded by the recursion limit
(the JSON scanner over `[[[[…`, nested reprs), which needs a few MiB — the 8 MiB a
process's main thread has runs all of it. Shell threads get twice that, SHELL_STACK:
enough, and small enough that a 9-stage pipeline or a dozen jobs stay far inside
`ulimit -v`. `threading.stack_size` is process-wide, so it is set only for the moment a
tysh thread starts: an application that embeds tysh keeps its own threads' size."""

from __future__ import annotations

import threading

from tysh.kernel.base.limits import LimitExceeded

SHELL_STACK = 16 * 1024 * 1024
# tried when SHELL_STACK cannot be had (an address-space limit nearly reached)
SMALL_STACK = 2 * 1024 * 1024

_lock = threading.Lock()


class NoThread(LimitExceeded):
    """The OS refused a new thread (address space or thread count exhausted): the
    script ends with status 1, as at the other limits."""

    def __init__(self) -> None:
        super().__init__("tysh: cannot start a thread: the process's resource limit is reached")


def start_deep(thread: threading.Thread) -> None:
    """Start `thread` with a SHELL_STACK stack (where the platform allows setting it),
    falling back to SMALL_STACK when the OS refuses that much; raises NoThread when no
    thread can be started at all."""
    with _lock:
        try:
            old = threading.stack_size(SHELL_STACK)
        except (ValueError, RuntimeError):
            old = None
        try:
            try:
                thread.start()
                return
            except RuntimeError:
                if old is None:
                    raise NoThread() from None
            threading.stack_size(SMALL_STACK)
            try:
                thread.start()
            except RuntimeError:
                raise NoThread() from None
        finally:
            if old is not None:
                threading.stack_size(old)
