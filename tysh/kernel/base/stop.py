"""The stop check of the command running on this thread, for code deep inside a tool.

A tool reaches its interpreter's `check_boundary` through `ctx.shell`; code it calls
that has no context (a regex engine's sliced matching, a worker process being waited
for) asks this module instead. The kernel installs the check around each tool call, so
nested commands (awk's `system()`, `xargs`) see their own and restore the outer one."""

from __future__ import annotations

import _thread

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


class _Local(_thread._local):
    # a class default: a thread that never installed a check finds None without the
    # cost of a failed attribute lookup
    check: Callable[[], None] | None = None


# this thread's stop check is `current.check`: what `install` swaps, and what a caller
# on the path of every execute() swaps itself, without install's call
current = _Local()


def check() -> None:
    """Raise the kernel's Cancelled or TimedOut when the current command must stop; a
    no-op on a thread where no command is running."""
    fn = current.check
    if fn is not None:
        fn()


def install(fn: Callable[[], None] | None) -> Callable[[], None] | None:
    """Make `fn` this thread's stop check; returns the one it replaces, which the caller
    puts back with `install(saved)` when it is done (the hot paths' form of
    `checking`)."""
    local = current
    saved = local.check
    local.check = fn
    return saved


class _Kept:
    """What `install_new` returns when the check it was given was installed already."""

    __slots__ = ()


KEPT = _Kept()


def install_new(fn: Callable[[], None]) -> Callable[[], None] | _Kept | None:
    """`install(fn)`, unless an equal check (the same interpreter's bound method) is
    this thread's already: then nothing changes and KEPT comes back, which the caller
    does not put back. A thread-local store costs as much as a dozen plain attribute
    stores, and a command run by a shell that installed its own check (the kernel's
    run, a pipeline stage) would store the same check twice."""
    local = current
    saved = local.check
    if saved == fn:
        return KEPT
    local.check = fn
    return saved


def restore(saved: Callable[[], None] | _Kept | None) -> None:
    """Put back what `install_new` replaced (nothing, when it returned KEPT)."""
    if saved is not KEPT:
        current.check = saved  # type: ignore[assignment]


class checking:  # noqa: N801 — used as `with stop.checking(fn):`, a function's name
    """Make `fn` this thread's stop check for the duration of the block (a class rather
    than a contextlib generator: contextlib stays out of start-up)."""

    __slots__ = ("_fn", "_saved")

    def __init__(self, fn: Callable[[], None]) -> None:
        self._fn = fn
        self._saved: Callable[[], None] | None = None

    def __enter__(self) -> None:
        self._saved = install(self._fn)

    def __exit__(self, *exc: object) -> None:
        current.check = self._saved
