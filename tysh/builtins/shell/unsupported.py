"""eval, trap, let and exec: bash builtins tysh leaves out on purpose. Each is a loud
usage error (status 2) naming what to write instead, so a script fails where it would
have depended on them."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool


def _unsupported(name: str, alternative: str) -> Tool:
    @tool(name, raw_argv=True, description=f"not supported in tysh: {alternative}")
    def fn(args: RawArgs, ctx: Context) -> int:
        ctx.stderr.write(
            f"tysh: {name}: not supported in tysh; {alternative}\n".encode()
        )
        return 2

    return fn


exec_ = _unsupported("exec", "run the command directly; for redirections use { …; } > file")


TOOLS: list[Tool] = [exec_]
