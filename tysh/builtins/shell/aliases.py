"""alias and unalias: the session's aliases (the REPL expands them, and scripts under
`shopt -s expand_aliases`, as bash does)."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins._common.names import quote_alias
from tysh.builtins.shell.common import err
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool

TYPE_CHECKING = False

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session


@tool("alias", kind="shell", raw_argv=True, session=True,
      description="define or list aliases (expanded in the REPL, and in scripts under "
                  "shopt -s expand_aliases)")
def alias(args: RawArgs, ctx: Context, sh: Session) -> int:
    st = sh.state
    words = texts(args.positional)
    if words[:1] == ["-p"]:
        words = words[1:]
    if words[:1] == ["--"]:
        words = words[1:]
    elif words and words[0].startswith("-") and len(words[0]) > 1:
        err(ctx, f"{words[0]}: invalid option")
        ctx.error("usage: alias [-p] [name[=value] ... ]")
        return 2
    if not words:
        for k in sorted(st.aliases):
            ctx.write(_listed(k, st.aliases[k]))
        return 0
    status = 0
    for w in words:
        if "=" in w:
            k, _, v = w.partition("=")
            if not k or any(c in k for c in " \t\n$`'\"\\/;&|()<>"):
                err(ctx, f"`{k}': invalid alias name")
                status = 1
                continue
            st.aliases[k] = v
        elif w in st.aliases:
            ctx.write(_listed(w, st.aliases[w]))
        else:
            err(ctx, f"{w}: not found")
            status = 1
    return status


def _listed(name: str, value: str) -> str:
    """`alias NAME='VALUE'`, as bash lists one (`alias -- -x='…'` for a name like an option)."""
    return f"alias {'-- ' if name.startswith('-') else ''}{name}={quote_alias(value)}\n"


@tool("unalias", kind="shell", raw_argv=True, description="remove aliases (-a: all)", session=True)
def unalias(args: RawArgs, ctx: Context, sh: Session) -> int:
    st = sh.state
    words = texts(args.positional)
    if words[:1] == ["--"]:
        words = words[1:]
    if not words:
        ctx.error("usage: unalias [-a] name [name ...]")
        return 2
    status = 0
    for w in words:
        if w == "-a":
            st.aliases.clear()
        elif st.aliases.pop(w, None) is None:
            err(ctx, f"{w}: not found")
            status = 1
    return status


TOOLS: list[Tool] = [alias, unalias]
