"""env: print the exported environment, or run a command with a modified one.

raw_argv: the command's own options must not be bound as env's."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs, texts
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.values import to_json_text
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.tool import Outcome, Tool, tool

_ASSIGN = LazyRegex(r"[^=]+=")


def _env_usage(ctx: Context, msg: str) -> int:
    ctx.error(msg)
    ctx.error("usage: env [-i] [-u NAME] [-0] [--json] [NAME=VALUE]… [COMMAND [ARG]…]")
    return 125


@tool(
    "env", kind="execute",
    raw_argv=True,
    operations=["proc.exec"],
    description="print the exported environment, or run a command with a modified one",
    examples=[
        ("list exported variables", "env"),
        ("run with an extra variable", "env LANG=C sort names.txt"),
        ("run with an empty environment", "env -i PATH=/usr/bin printenv"),
    ],
)
def env(args: RawArgs, ctx: Context) -> int | Outcome:
    """GNU env: options stop at the first NAME=VALUE or command word."""
    argv = texts(args.positional)
    clear = False
    unset: list[str] = []
    nul = False
    as_json = ctx.json
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if a in ("-", "-i", "--ignore-environment"):
            clear = True
        elif a in ("-0", "--null"):
            nul = True
        elif a == "--json":
            as_json = True
        elif a in ("-u", "--unset"):
            if i + 1 >= len(argv):
                return _env_usage(ctx, f"option requires an argument -- '{a.lstrip('-')[:1]}'")
            unset.append(argv[i + 1])
            i += 1
        elif a.startswith("--unset="):
            unset.append(a[len("--unset="):])
        elif a.startswith("-u") and len(a) > 2:
            unset.append(a[2:])
        elif a.startswith("-") and len(a) > 1:
            if len(a) > 2 and a[0] == "-" and a[1] != "-" and set(a[1:]) <= {"i", "0"}:
                clear = clear or "i" in a
                nul = nul or "0" in a
            else:
                return _env_usage(ctx, f"invalid option '{a}'")
        else:
            break
        i += 1
    environ = {} if clear else dict(ctx.shell.exported_env())
    for name in unset:
        environ.pop(name, None)
    while i < len(argv) and _ASSIGN.match(argv[i]):
        name, _, value = argv[i].partition("=")
        environ[name] = value
        i += 1
    command = argv[i:]
    if not command:
        if ctx.json:
            return Outcome(0, OutputData.text("", rich_json=environ))
        if as_json:  # `--json` reaches a raw_argv tool as a word
            ctx.write(to_json_text(environ) + "\n")
        else:
            end = "\0" if nul else "\n"
            ctx.write("".join(f"{k}={v}{end}" for k, v in environ.items()))
        return Outcome(0, OutputData.value(lambda: environ))
    if nul:
        return _env_usage(ctx, "cannot specify --null (-0) with command")
    return ctx.shell.run_argv(command, ctx.stdin, ctx.stdout, ctx.stderr, env=environ)


TOOLS: list[Tool] = [env]
