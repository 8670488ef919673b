"""A stop point for tools that compute without reading or writing.

The kernel stops a run at statement boundaries and at stream writes; a tool that loops
on its own (bc's `while`, factor's Pollard rho) calls `checkpoint` now and then, so
`Kernel.cancel()` and a time limit stop it too."""

from __future__ import annotations

from tysh.kernel.tools.context import Context


def checkpoint(ctx: Context) -> None:
    """Raise the kernel's Cancelled or TimedOut when the run was cancelled or its
    deadline passed."""
    ctx.shell.check_boundary()
