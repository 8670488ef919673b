"""Threads that run shell code, with a deep stack, leaving the process default alone.

Deep shell recursion (a function calling itself a thousand times) is deep Python
recursion; the function-depth limit ends it cleanly, but only if the thread's C stack is
deep enough to get there. `threading.stack_size` is process-wide, so it is raised only
for the moment a tysh thread starts: an application that embeds tysh keeps its own
threads' size."""

from __future__ import annotations

import threading

DEEP_STACK = 256 * 1024 * 1024

_lock = threading.Lock()


def start_deep(thread: threading.Thread) -> None:
    """Start `thread` with a DEEP_STACK stack (where the platform allows setting it)."""
    with _lock:
        try:
            old = threading.stack_size(DEEP_STACK)
        except (ValueError, RuntimeError):
            thread.start()
            return
        try:
            thread.start()
        finally:
            threading.stack_size(old)
