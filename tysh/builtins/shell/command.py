"""command and builtin: run a command skipping functions (or only a builtin), and
`command -v/-V`, which say how a name would run."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins._common.names import describe, quote_alias
from tysh.builtins.shell.common import command_fds, err
from tysh.kernel.run.session import BASH_BUILTINS, DEFAULT_PATH
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session


def _run_named(ctx: Context, sh: Session, words: list[Any], *, builtin_only: bool,
               default_path: bool = False) -> int:
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
        if t is None or name not in BASH_BUILTINS or name in sh.state.disabled:
            err(ctx, f"{name}: not a shell builtin")
            return 1
        return sh.call_tool(t, name, args, fds)
    if default_path and "/" not in name:
        # `command -p`: bash's builtins still run; anything else is looked for along
        # the standard PATH, as bash does
        got = sh.resolve_all(name, functions=False, path=DEFAULT_PATH)
        kind = got[0][0] if got else ""
        if kind == "file":
            return sh.run_argv([got[0][1], *argv[1:]], ctx.stdin, ctx.stdout, ctx.stderr)
        if kind not in ("builtin", "tool") and sh.allow_external:
            err(ctx, f"{name}: command not found")
            return 127
    return sh.invoke(name, args, fds, functions=False)


@tool("command", kind="shell", raw_argv=True, operations=["proc.exec"], session=True,
      description="run a command skipping functions; -v/-V say how a name would run; "
                  "-p uses the standard PATH")
def command(args: RawArgs, ctx: Context, sh: Session) -> int:
    words = list(args.positional)
    say = ""
    default_path = False
    while words and isinstance(words[0], str) and words[0].startswith("-") \
            and len(words[0]) > 1:
        w = words.pop(0)
        if w == "--":
            break
        for c in w[1:]:
            if c in "vV":
                say = "-" + c
            elif c == "p":
                default_path = True
            else:
                err(ctx, f"-{c}: invalid option")
                ctx.stderr.write(b"command: usage: command [-pVv] command [arg ...]\n")
                return 2
    if not words:
        return 0
    if say:
        found_any = False
        for n in texts(words):
            got = sh.resolve_all(n, path=DEFAULT_PATH if default_path else None)
            if not got:
                if say == "-V":
                    err(ctx, f"{n}: not found")
                continue
            found_any = True
            kind, detail = got[0]
            if say == "-v":
                ctx.write((detail if kind in ("file", "hashed") else
                           f"alias {n}={quote_alias(detail)}" if kind == "alias" else n)
                          + "\n")
            else:
                ctx.write(describe(n, kind, detail) + "\n")
        return 0 if found_any else 1
    return _run_named(ctx, sh, words, builtin_only=False, default_path=default_path)


@tool("builtin", kind="shell", raw_argv=True, session=True,
      description="run a shell builtin, even when a function has its name")
def builtin(args: RawArgs, ctx: Context, sh: Session) -> int:
    words = list(args.positional)
    if words and words[0] == "--":
        words = words[1:]
    if not words:
        return 0
    return _run_named(ctx, sh, words, builtin_only=True)


TOOLS: list[Tool] = [command, builtin]
