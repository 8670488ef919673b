"""nohup and nice (GNU coreutils 9.1): run a command, unchanged, through the shell.

Both take their options and then a whole command line, so they read raw argv (like
`env` and `timeout`): the command's own options must not be bound as theirs. In-process
commands share the shell's process, so there is no hangup signal to ignore for them and
no per-command priority: nohup only detaches standard input from a terminal, and nice
runs the command at the shell's own niceness (an external command still inherits it)."""

from __future__ import annotations

import io

from tysh.builtins._common.args import RawArgs, texts
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.tool import Outcome, tool

_OLD_ADJUST = LazyRegex(r"-[+-]?\d+")


def _usage(ctx: Context, message: str) -> int:
    ctx.error(message)
    ctx.stderr.write(f"Try '{ctx.name} --help' for more information.\n".encode())
    return 125


@tool(
    "nohup", kind="execute",
    raw_argv=True,
    operations=["proc.exec"],
    description=("run a command immune to hangups (in tysh: the command runs with standard "
                 "input detached from a terminal; output stays where it is)"),
    examples=[("keep a job going", "nohup ./long-task > task.log 2>&1 &")],
)
def nohup(args: RawArgs, ctx: Context) -> int:
    argv = texts(args.positional)
    if argv and argv[0] == "--":
        argv = argv[1:]
    elif argv and argv[0].startswith("-") and argv[0] != "-":
        return _usage(ctx, f"invalid option -- '{argv[0][1:2]}'"
                      if not argv[0].startswith("--") else f"unrecognized option '{argv[0]}'")
    if not argv:
        return _usage(ctx, "missing operand")
    stdin = ctx.stdin
    if ctx.stdin_is_terminal:
        # GNU replaces a terminal stdin with an unreadable one; it says so only when it
        # does not also announce nohup.out (stdout a terminal), which tysh never creates
        if not ctx.isatty:
            ctx.error("ignoring input")
        stdin = io.BytesIO()
    return ctx.shell.run_argv(argv, stdin, ctx.stdout, ctx.stderr)


def _adjustment(text: str) -> int | None:
    t = text.strip()
    try:
        return int(t)
    except ValueError:
        return None


@tool(
    "nice", kind="execute",
    raw_argv=True,
    operations=["proc.exec"],
    description=("print the niceness (0), or run a command with an adjusted niceness (tysh "
                 "runs it at the shell's own priority: in-process commands share it)"),
    examples=[("the current niceness", "nice"), ("run at lower priority", "nice -n 10 make")],
)
def nice(args: RawArgs, ctx: Context) -> int | Outcome:
    argv = texts(args.positional)
    adjust: str | None = None
    as_json = ctx.json
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if a in ("-n", "--adjustment"):
            if i + 1 >= len(argv):
                return _usage(ctx, f"option requires an argument -- '{a.lstrip('-')[:1]}'")
            adjust = argv[i + 1]
            i += 2
            continue
        if a == "--json":  # `--json` reaches a raw_argv tool as a word
            as_json = True
        elif a.startswith("--adjustment="):
            adjust = a.partition("=")[2]
        elif a.startswith("-n") and len(a) > 2:
            adjust = a[2:]
        elif _OLD_ADJUST.fullmatch(a):
            adjust = a[1:]
        elif a.startswith("-") and a != "-":
            return _usage(ctx, f"invalid option -- '{a[1:2]}'" if not a.startswith("--")
                          else f"unrecognized option '{a}'")
        else:
            break
        i += 1
    if adjust is not None and _adjustment(adjust) is None:
        ctx.error(f"invalid adjustment '{adjust}'")
        return 125
    command = argv[i:]
    if not command:
        if adjust is not None:
            return _usage(ctx, "a command must be given with an adjustment")
        if as_json:
            return Outcome(0, OutputData.text("0\n", rich_json=0))
        ctx.write("0\n")
        return Outcome(0, OutputData.value(lambda: 0))
    return ctx.shell.run_argv(command, ctx.stdin, ctx.stdout, ctx.stderr)


TOOLS = [nohup, nice]
