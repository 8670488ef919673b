"""exit, return, break, continue and shift: they end or steer the running script, as
the exceptions of kernel/base/control.py. Their operands may look like options (`exit
-1`), so they take raw argv."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins.shell.common import err
from tysh.kernel.base.control import BreakLoop, ContinueLoop, ExitShell, ReturnFromFunction
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool

TYPE_CHECKING = False

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session

_INTEGER = LazyRegex(r"[-+]?[0-9]+")


def _int_arg(ctx: Context, text: str) -> int | None:
    t = text.strip()
    if _INTEGER.fullmatch(t):
        return int(t)
    err(ctx, f"{text}: numeric argument required")
    return None


@tool("exit", kind="shell", raw_argv=True, description="exit the shell (or subshell) with status N", session=True)
def exit_(args: RawArgs, ctx: Context, sh: Session) -> int:
    words = texts(args.positional)
    if not words:
        raise ExitShell(sh.state.last_status)
    n = _int_arg(ctx, words[0])
    if n is None:
        raise ExitShell(2)
    if len(words) > 1:
        err(ctx, "too many arguments")
        st = sh.state
        if st.invocation == "s" or st.tables.script_file is not None:
            return 1  # as bash: a script from a file or stdin goes on
        raise ExitShell(1)  # ... and a -c (or embedded) script ends
    raise ExitShell(n & 0xFF)


@tool("return", kind="shell", raw_argv=True, session=True,
      description="return from a function or sourced script with status N")
def return_(args: RawArgs, ctx: Context, sh: Session) -> int:
    st = sh.state
    if st.func_depth == 0 and sh.source_depth == 0:
        err(ctx, "can only `return' from a function or sourced script")
        return 2
    words = texts(args.positional)
    if not words:
        raise ReturnFromFunction(st.last_status)
    n = _int_arg(ctx, words[0])
    if n is None:
        raise ReturnFromFunction(2)
    if len(words) > 1:
        err(ctx, "too many arguments")
        raise ExitShell(1)  # as bash: the script ends
    raise ReturnFromFunction(n & 0xFF)


def _leave_loops(args: RawArgs, ctx: Context, sh: Session,
                 jump: type[BreakLoop | ContinueLoop]) -> int:
    """break/continue: raise `jump` for N levels (capped at the loop depth); outside a
    loop bash only complains, with status 0."""
    depth = sh.state.loop_depth
    if depth == 0:
        err(ctx, "only meaningful in a `for', `while', or `until' loop")
        return 0
    words = texts(args.positional)
    n = 1
    if words:
        v = _int_arg(ctx, words[0])
        if v is None:
            raise ExitShell(128)  # as bash: a word that is no number ends the shell
        if len(words) > 1:
            err(ctx, "too many arguments")
            raise ExitShell(1)
        if v < 1:
            # as bash: said, and every enclosing loop is left, with status 1
            err(ctx, f"{words[0]}: loop count out of range")
            raise BreakLoop(depth, 1)
        n = v
    raise jump(min(n, depth))


@tool("break", kind="shell", raw_argv=True, description="leave N enclosing loops (default 1)", session=True)
def break_(args: RawArgs, ctx: Context, sh: Session) -> int:
    return _leave_loops(args, ctx, sh, BreakLoop)


@tool("continue", kind="shell", raw_argv=True, session=True,
      description="go to the next iteration of the Nth enclosing loop")
def continue_(args: RawArgs, ctx: Context, sh: Session) -> int:
    return _leave_loops(args, ctx, sh, ContinueLoop)


@tool("shift", kind="shell", raw_argv=True, session=True,
      description="drop the first N positional parameters (default 1)")
def shift(args: RawArgs, ctx: Context, sh: Session) -> int:
    st = sh.state
    words = texts(args.positional)
    n = 1
    if words:
        v = _int_arg(ctx, words[0])
        if v is None:
            return 1
        if len(words) > 1:
            err(ctx, "too many arguments")
            raise ExitShell(1)  # as bash: the script ends
        n = v
    if n < 0:
        err(ctx, f"{n}: shift count out of range")
        return 1
    if n > len(st.positional):
        return 1
    st.positional = st.positional[n:]
    return 0


TOOLS: list[Tool] = [exit_, return_, break_, continue_, shift]
