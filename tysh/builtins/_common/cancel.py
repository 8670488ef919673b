"""Stop points for tools that run for a while on their own.

The kernel stops a run at statement boundaries and at stream writes; a tool that loops
without either (bc's `while`, factor's Pollard rho) calls `checkpoint` now and then, and
one that waits (`sleep`, `tail -f`) sleeps in slices, so `Kernel.cancel()` and a time
limit stop it too."""

from __future__ import annotations

import time

from tysh.kernel.tools.context import Context

SLICE = 0.05  # seconds between two looks at the cancel switch while sleeping


def checkpoint(ctx: Context) -> None:
    """Raise the kernel's Cancelled or TimedOut when the run was cancelled or its
    deadline passed."""
    ctx.shell.check_boundary()


def interruptible_sleep(ctx: Context, seconds: float) -> bool:
    """Sleep in small slices so the shell can cancel; False when cancelled."""
    deadline = time.monotonic() + seconds
    while True:
        if ctx.shell.cancelled():
            return False
        left = deadline - time.monotonic()
        if left <= 0:
            return True
        time.sleep(min(SLICE, left))
