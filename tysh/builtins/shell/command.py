"""command and builtin: run a command skipping functions (or only a builtin), and
`command -v/-V`, which say how a name would run."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins._common.names import describe, quote_alias
from tysh.builtins.shell.common import command_fds, err
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session


def _run_named(ctx: Context, sh: Session, words: list[Any], *, builtin_only: bool) -> int:
    from tysh.kernel.base.argv import Operand, classify

    argv = texts(words)
    name = argv[0]
    args = classify(argv[1:])
    # keep typed values that came through as operands
    args = [Operand(w, True) if type(a) is Operand and type(w) is not str else a
            for a, w in zip(args, words[1:], strict=False)]
    fds = command_fds(sh, ctx)
    if builtin_only:
        t = sh.builtin(name)
        if t is None:
            err(ctx, f"{name}: not a shell builtin")
            return 1
        return sh.call_tool(t, name, args, fds)
    return sh.invoke(name, args, fds, functions=False)


@tool("command", raw_argv=True, operations=["proc.exec"], session=True,
      description="run a command skipping functions; -v/-V say how a name would run")
def command(args: RawArgs, ctx: Context, sh: Session) -> int:
    words = list(args.positional)
    say = ""
    while words and isinstance(words[0], str) and words[0] in ("-v", "-V", "-p", "--"):
        w = words.pop(0)
        if w == "--":
            break
        if w in ("-v", "-V"):
            say = w
    if not words:
        return 0
    if say:
        status = 0
        for n in texts(words):
            kind, detail = sh.resolve(n)
            if not kind:
                if say == "-V":
                    err(ctx, f"{n}: not found")
                status = 1
            elif say == "-v":
                ctx.write((detail if kind == "file" else
                           f"alias {n}={quote_alias(detail)}" if kind == "alias" else n) + "\n")
            else:
                ctx.write(describe(n, kind, detail) + "\n")
        return status
    return _run_named(ctx, sh, words, builtin_only=False)


@tool("builtin", raw_argv=True, session=True,
      description="run a builtin, even when a function has its name")
def builtin(args: RawArgs, ctx: Context, sh: Session) -> int:
    words = list(args.positional)
    if not words:
        return 0
    return _run_named(ctx, sh, words, builtin_only=True)


TOOLS: list[Tool] = [command, builtin]
