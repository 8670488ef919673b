"""envsubst (GNU gettext 0.21): substitute exported variables into standard input.

Only `$NAME` and `${NAME}` are references (no `${NAME:-x}` or other shell forms, which
pass through as written). The values come from the session's exported environment, not
the host's. Input streams line by line as bytes, so non-UTF-8 text passes unchanged."""

from __future__ import annotations

from tysh.builtins._common.operands import iter_lines
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.text.literal import lazy_bytes
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

_REF = lazy_bytes(rb"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


@value_record
class EnvsubstArgs(Record):
    shell_format: tuple[str, ...] = param(
        positional=True, default=(),
        help="SHELL-FORMAT: substitute only the variables it references")
    variables: bool = param(default=False, aliases=["-v"],
                            help="print the variables SHELL-FORMAT references, one per line")


def _names(text: str) -> list[str]:
    """The variable names referenced in a SHELL-FORMAT, in order, with repeats."""
    raw = text.encode("utf-8", "surrogateescape")
    return [(m.group(1) or m.group(2)).decode() for m in _REF.finditer(raw)]


@tool(
    "envsubst", kind="read",
    args=EnvsubstArgs,
    description=("replace $VAR and ${VAR} in standard input with exported variables' values "
                 "(only those SHELL-FORMAT names, if given); --json with -v gives the names"),
    examples=[
        ("fill in a template", "envsubst < config.tmpl > config"),
        ("substitute only two variables", "envsubst '$HOST $PORT' < nginx.tmpl"),
        ("which variables a template uses", "envsubst -v \"$(cat t.tmpl)\""),
    ],
)
def envsubst(args: EnvsubstArgs, ctx: Context) -> ToolReturn:
    if len(args.shell_format) > 1:
        ctx.error("too many arguments")
        return 1
    if args.variables:
        if not args.shell_format:
            ctx.error("missing arguments")
            return 1
        names = _names(args.shell_format[0])
        text = "".join(n + "\n" for n in names)
        if ctx.json:
            return Outcome(code=0, output=OutputData.text(text, rich_json=names))
        ctx.write(text)
        return Outcome(code=0, output=OutputData.value(lambda: names))
    env = ctx.shell.exported_env()
    only = set(_names(args.shell_format[0])) if args.shell_format else None
    values = {k.encode("utf-8", "surrogateescape"): v.encode("utf-8", "surrogateescape")
              for k, v in env.items()}

    def sub(m: re.Match[bytes]) -> bytes:
        name = m.group(1) or m.group(2)
        if only is not None and name.decode() not in only:
            return m.group(0)
        return values.get(name, b"")

    out: list[bytes] = []
    for line in iter_lines(ctx.stdin, ctx):
        out.append(_REF.sub(sub, line) if b"$" in line else line)
        if len(out) >= 1024:
            ctx.stdout.write(b"".join(out))
            out.clear()
    ctx.stdout.write(b"".join(out))
    return 0


TOOLS = [envsubst]
