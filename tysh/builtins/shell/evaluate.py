"""eval and let: run text as shell code, or as arithmetic, in the current shell.

`eval` parses its joined arguments and runs them in the same interpreter, with the same
sandbox, variables and descriptors: it reaches nothing the script could not write
directly. A syntax error is reported as bash reports it (status 2) and nothing of the
text runs."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins.shell.common import command_fds, err
from tysh.kernel.base.errors import ExpansionError, TyshSyntaxError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool

TYPE_CHECKING = False

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session


@tool("eval", kind="shell", raw_argv=True, session=True,
      description="run the arguments, joined by spaces, as shell code in this shell",
      examples=[("build a command", "eval \"echo \\$$name\""),
                ("run a stored command line", "eval \"$cmd\"")])
def eval_(args: RawArgs, ctx: Context, sh: Session) -> int:
    words = texts(args.positional)
    if words and words[0] == "--":  # as bash: `eval -- "$code"`
        words = words[1:]
    elif words and words[0][:1] == "-" and len(words[0]) > 1:
        err(ctx, f"{words[0][:2]}: invalid option")
        ctx.error("usage: eval [arg ...]")
        return 2
    src = " ".join(words)
    if not src.strip():
        return 0
    from tysh.kernel.syntax.parser import parse

    try:
        script = parse(src, sh.state.alias_table())
    except TyshSyntaxError as e:
        ctx.stderr.write(("tysh: eval: " + e.format()[6:] + "\n").encode(
            "utf-8", "surrogateescape"))
        return 2
    except RecursionError:
        err(ctx, "the code nests too deeply")
        return 2
    return sh.run_script(script, command_fds(sh, ctx))


@tool("let", kind="shell", raw_argv=True, session=True, glob_passthrough=True,
      description="evaluate each argument as arithmetic; status 1 when the last is 0",
      examples=[("count", "let i++"), ("several", "let 'x = 2 * y' z=x+1")])
def let(args: RawArgs, ctx: Context, sh: Session) -> int:
    exprs = texts(args.positional)
    if not exprs:
        err(ctx, "expression expected")
        return 1
    value = 0
    for e in exprs:
        try:
            value = sh.eval_arith_text(e)
        except ExpansionError as x:
            err(ctx, x.message)
            return 1
    return 0 if value else 1


TOOLS: list[Tool] = [eval_, let]
