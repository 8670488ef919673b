"""alias and unalias: the session's aliases (the REPL expands them; scripts do not)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins._common.names import quote_alias
from tysh.builtins.shell.common import err
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session


@tool("alias", raw_argv=True, session=True,
      description="define or list aliases (expanded in the REPL only)")
def alias(args: RawArgs, ctx: Context, sh: Session) -> int:
    st = sh.state
    words = texts(args.positional)
    if not words or words == ["-p"]:
        for k in sorted(st.aliases):
            ctx.write(f"alias {k}={quote_alias(st.aliases[k])}\n")
        return 0
    status = 0
    for w in words:
        if "=" in w:
            k, _, v = w.partition("=")
            st.aliases[k] = v
        elif w in st.aliases:
            ctx.write(f"alias {w}={quote_alias(st.aliases[w])}\n")
        else:
            err(ctx, f"{w}: not found")
            status = 1
    return status


@tool("unalias", raw_argv=True, description="remove aliases (-a: all)", session=True)
def unalias(args: RawArgs, ctx: Context, sh: Session) -> int:
    st = sh.state
    status = 0
    for w in texts(args.positional):
        if w == "-a":
            st.aliases.clear()
        elif st.aliases.pop(w, None) is None:
            err(ctx, f"{w}: not found")
            status = 1
    return status


TOOLS: list[Tool] = [alias, unalias]
