"""timeout: run a command, stopping it after a time limit; the shell enforces the deadline.

raw_argv: the command's own options must not be bound as timeout's."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins.process.sleep import parse_duration
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool

_SIGNALS = {"HUP": 1, "INT": 2, "QUIT": 3, "KILL": 9, "USR1": 10, "USR2": 12, "TERM": 15}


def _signal_number(text: str) -> int | None:
    t = text.upper().removeprefix("SIG")
    if t.isdigit():
        return int(t)
    return _SIGNALS.get(t)


@tool(
    "timeout", kind="execute",
    raw_argv=True,
    description="run a command, stopping it after a time limit (status 124 when it expires)",
    examples=[("give up after 5 seconds", "timeout 5 long-task"), ("two minutes", "timeout 2m make")],
    operations=["proc.exec"],
)
def timeout(args: RawArgs, ctx: Context) -> int:
    """GNU timeout's options, then DURATION COMMAND…; the shell enforces the deadline."""
    argv = texts(args.positional)
    signum = 15
    preserve = verbose = False
    i = 0
    while i < len(argv) and argv[i].startswith("-") and len(argv[i]) > 1:
        a = argv[i]
        value: str | None = None
        if a == "--":
            i += 1
            break
        if a in ("--preserve-status",):
            preserve = True
        elif a in ("--foreground",):
            pass
        elif a in ("-v", "--verbose"):
            verbose = True
        elif a in ("-s", "--signal", "-k", "--kill-after"):
            if i + 1 >= len(argv):
                ctx.error(f"option requires an argument -- '{a.lstrip('-')[:1]}'")
                return 125
            value = argv[i + 1]
            i += 1
        elif a.startswith(("--signal=", "--kill-after=")):
            a, _, value = a.partition("=")
        elif a[:2] in ("-s", "-k"):
            a, value = a[:2], a[2:]
        else:
            ctx.error(f"invalid option '{a}'")
            return 125
        if a in ("-s", "--signal"):
            n = _signal_number(value or "")
            if n is None:
                ctx.error(f"{value}: invalid signal")
                return 125
            signum = n
        elif a in ("-k", "--kill-after") and parse_duration(value or "") is None:
            ctx.error(f"invalid time interval '{value}'")
            return 125
        i += 1
    if i >= len(argv):
        ctx.error("missing operand")
        return 125
    secs = parse_duration(argv[i])
    if secs is None:
        ctx.error(f"invalid time interval '{argv[i]}'")
        return 125
    command = argv[i + 1:]
    if not command:
        ctx.error("missing operand")
        return 125
    code = ctx.shell.run_argv(
        command, ctx.stdin, ctx.stdout, ctx.stderr, timeout=secs if secs > 0 else None
    )
    if code == 124 and secs > 0:
        if verbose:
            name = next((k for k, v in _SIGNALS.items() if v == signum), str(signum))
            ctx.error(f"sending signal {name} to command '{command[0]}'")
        if preserve or signum == 9:
            # GNU: KILL can't be caught, so the status is 128+9, never 124
            return 128 + signum
    return code


TOOLS: list[Tool] = [timeout]
