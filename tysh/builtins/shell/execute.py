"""exec: run a command in place of the shell, or (with only redirections) change the
shell's own descriptors — the interpreter does that part before any builtin runs.

`exec CMD ARGS` runs CMD as bash does — never a shell function: a builtin or tool, or a
program on PATH when external commands are allowed — and then ends the shell with its status:
nothing in a sandbox is replaced, so exec reaches exactly what CMD alone would."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins.shell.common import command_fds, err
from tysh.kernel.base.argv import classify
from tysh.kernel.base.control import ExitShell
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool

TYPE_CHECKING = False

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session


@tool("exec", kind="shell", raw_argv=True, session=True,
      description="run a command and end the shell with its status; with only "
                  "redirections, change the shell's own descriptors",
      examples=[("log the rest of the script", "exec >log 2>&1"),
                ("open a descriptor", "exec 3>out.txt; echo hi >&3; exec 3>&-"),
                ("hand over to a command", "exec python3 main.py")])
def exec_(args: RawArgs, ctx: Context, sh: Session) -> int:
    words = texts(args.positional)
    while words and words[0].startswith("-") and words[0] != "-":
        w = words.pop(0)
        if w == "--":
            break
        if any(c not in "cl" for c in w[1:]) or "a" in w:
            err(ctx, f"{w}: invalid option")
            ctx.error("usage: exec [-cl] [-a name] [command [argument ...]] "
                      "[redirection ...]")
            return 2
    if not words:
        return 0
    # as bash: a program (here also a builtin or tool), never a shell function
    status = sh.invoke(words[0], classify(words[1:]), command_fds(sh, ctx), functions=False)
    raise ExitShell(status)


TOOLS: list[Tool] = [exec_]
