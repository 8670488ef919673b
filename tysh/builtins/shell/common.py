"""What the shell's builtins share: their error line, the variable-name pattern, why
a path cannot be used, and the descriptors a command they run gets."""

from __future__ import annotations

from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.tools.context import Context

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session

NAME = LazyRegex(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def err(ctx: Context, msg: str) -> None:
    """`tysh: NAME: msg` on the builtin's stderr, as bash words its builtins' errors;
    what the builtin wrote to stdout before goes first (bash writes unbuffered)."""
    try:
        ctx.stdout.flush()
    except (OSError, ValueError):
        pass
    ctx.stderr.write(f"tysh: {ctx.name}: {msg}\n".encode("utf-8", "surrogateescape"))


def missing_reason(fs: Any, path: str) -> str:
    """Why a path cannot be used: a sandbox denial says so rather than "No such file"."""
    try:
        fs.stat(path)
    except Exception as e:  # noqa: BLE001
        return str(getattr(e, "reason", "No such file or directory"))
    return "No such file or directory"


def command_fds(sh: Session, ctx: Context) -> dict[int, IO[bytes]]:
    """The shell's open descriptors with 0-2 the ones this builtin was given: what a
    script it sources or a command it runs gets. When those are the shell's own, it is
    the shell's table itself, so `eval 'exec 3>f'` changes the shell's descriptors."""
    cur = sh.cur_fds
    if cur.get(0) is ctx.stdin and cur.get(1) is ctx.stdout and cur.get(2) is ctx.stderr:
        return cur
    fds = dict(cur)
    fds[0], fds[1], fds[2] = ctx.stdin, ctx.stdout, ctx.stderr
    return fds
