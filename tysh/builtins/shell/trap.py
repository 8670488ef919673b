"""trap: commands the shell runs on EXIT, ERR, DEBUG, RETURN and signals.

The builtin only records and lists traps; the interpreter runs them (kernel/run/traps.py).
A trap's text runs in the same sandboxed interpreter as the script itself."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins.shell.common import err
from tysh.kernel.base.signals import listing, signal_name, signal_number
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool

TYPE_CHECKING = False

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session

_PSEUDO = {"EXIT": "EXIT", "0": "EXIT", "ERR": "ERR", "DEBUG": "DEBUG", "RETURN": "RETURN"}
_USAGE = "usage: trap [-lp] [[arg] signal_spec ...]"


def trap_key(spec: str) -> str | None:
    """The name a trap is kept under: EXIT, ERR, DEBUG, RETURN or SIGNAME; None when
    `spec` names nothing."""
    key = _PSEUDO.get(spec.upper() if not spec.isdigit() else str(int(spec)))
    if key is not None:
        return key
    num = signal_number(spec)
    if num is None:
        return None
    name = signal_name(num)
    return None if name is None else "SIG" + name


@tool("trap", kind="shell", raw_argv=True, session=True,
      description="run a command when the shell exits (EXIT), a command fails (ERR), "
                  "before each command (DEBUG), or on a signal; -p lists, -l names signals",
      examples=[("clean up at the end", "trap 'rm -f \"$tmp\"' EXIT"),
                ("report failures", "trap 'echo failed at line $LINENO' ERR"),
                ("list the traps", "trap -p")])
def trap(args: RawArgs, ctx: Context, sh: Session) -> int:
    words = texts(args.positional)
    show = False
    while words and words[0].startswith("-") and words[0] != "-":
        w = words.pop(0)
        if w == "--":
            break
        for c in w[1:]:
            if c == "l":
                ctx.write(listing())
                return 0
            if c == "p":
                show = True
            else:
                err(ctx, f"-{c}: invalid option")
                ctx.error(_USAGE)
                return 2
    if not words or show:
        keys: list[str] = []
        status = 0
        for w in words:
            k = trap_key(w)
            if k is None:
                err(ctx, f"{w}: invalid signal specification")
                status = 1
            else:
                keys.append(k)
        ctx.write(sh.trap_listing(keys if words else None))
        return status
    action: str | None = words[0]
    specs = words[1:]
    if action == "-":
        action = None
    elif not specs or words[0].isdigit():
        # `trap SIG` and `trap 0 2`: every operand is a signal to reset
        action, specs = None, words
    status = 0
    for w in specs:
        k = trap_key(w)
        if k is None:
            err(ctx, f"{w}: invalid signal specification")
            status = 1
            continue
        sh.set_trap(k, action)
    return status


TOOLS: list[Tool] = [trap]
