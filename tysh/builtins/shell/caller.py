"""caller: where the running function was called from, as bash's `caller` prints it.

`caller` gives `LINE FILE` of the current call, `caller N` gives `LINE FUNCTION FILE`
of the Nth frame up ("main" below the outermost function); outside any function it
prints nothing and fails. The frames are bash's: functions and the files `source` reads,
each with the file its code comes from; run from a script file, the bottom frame is
"main" and the file the script's name; under `-c` there is no "main" frame and bash's
placeholders (NULL, environment) stand for the file."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins.shell.common import err
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool

TYPE_CHECKING = False

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session


@tool("caller", kind="shell", raw_argv=True, session=True,
      description="print the line (and with N, function) a function was called from",
      examples=[("a stack trace", "f() { local i=0; while caller $i; do i=$((i+1)); done; }")])
def caller(args: RawArgs, ctx: Context, sh: Session) -> int:
    words = texts(args.positional)
    if words and words[0] == "--":
        words = words[1:]
    st = sh.state
    calls = st.calls  # (name, line called from, file), innermost last
    script = st.tables.script_file
    if not words:
        if not calls:
            if script is None:
                return 1
            ctx.write("0 NULL\n")  # bash's answer at a script's top level
            return 0
        where = calls[-2][2] if len(calls) > 1 else script or "NULL"
        ctx.write(f"{calls[-1][1]} {where}\n")
        return 0
    spec = words[0].strip()
    if spec.startswith("-") and len(spec) > 1:
        err(ctx, f"{spec[:2]}: invalid option")
        ctx.stderr.write(b"caller: usage: caller [expr]\n")
        return 2
    body = spec[1:] if spec[:1] == "+" else spec
    if not body.isdigit():
        err(ctx, f"{words[0]}: invalid number")
        ctx.stderr.write(b"caller: usage: caller [expr]\n")
        return 2
    n = int(body)
    frames = len(calls) if script is not None else len(calls) - 1
    if n >= frames:
        return 1
    if n + 1 < len(calls):
        func, _, where = calls[-2 - n]
    else:
        func, where = "main", script or "environment"
    ctx.write(f"{calls[-1 - n][1]} {func} {where}\n")
    return 0


TOOLS: list[Tool] = [caller]
