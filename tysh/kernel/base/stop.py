"""The stop check of the command running on this thread, for code deep inside a tool.

A tool reaches its interpreter's `check_boundary` through `ctx.shell`; code it calls
that has no context (a regex engine's sliced matching, a worker process being waited
for) asks this module instead. The kernel installs the check around each tool call, so
nested commands (awk's `system()`, `xargs`) see their own and restore the outer one."""

from __future__ import annotations

import _thread
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_local = _thread._local()


def check() -> None:
    """Raise the kernel's Cancelled or TimedOut when the current command must stop; a
    no-op on a thread where no command is running."""
    fn: Callable[[], None] | None = getattr(_local, "check", None)
    if fn is not None:
        fn()


@contextmanager
def checking(fn: Callable[[], None]) -> Iterator[None]:
    """Make `fn` this thread's stop check for the duration of the block."""
    saved = getattr(_local, "check", None)
    _local.check = fn
    try:
        yield
    finally:
        _local.check = saved
