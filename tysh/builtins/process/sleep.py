"""sleep, and the GNU durations (NUMBER[smhd]) that sleep and timeout take."""

from __future__ import annotations

from tysh.builtins._common.cancel import interruptible_sleep
from tysh.kernel.base.lazyre import IGNORECASE, LazyRegex
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Tool, tool

_DURATION = LazyRegex(r"((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity)([smhd]?)", IGNORECASE)
_UNIT = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


def parse_duration(text: str) -> float | None:
    """GNU's NUMBER[smhd] (`1`, `0.5`, `1s`, `2m`, `inf`); None when it is not one."""
    m = _DURATION.fullmatch(text.strip())
    if m is None:
        return None
    return float(m.group(1)) * _UNIT[m.group(2).lower()]


@value_record
class SleepArgs(Record):
    durations: tuple[str, ...] = param(
        positional=True, default=(), help="NUMBER[smhd]; several are added up"
    )


@tool(
    "sleep", kind="shell",
    args=SleepArgs,
    description="pause for the given time (NUMBER[smhd], several are summed)",
    examples=[("half a second", "sleep 0.5"), ("a minute and a half", "sleep 1m 30s")],
)
def sleep(args: SleepArgs, ctx: Context) -> int:
    if not args.durations:
        ctx.error("missing operand")
        return 1
    total = 0.0
    for d in args.durations:
        secs = parse_duration(d)
        if secs is None:
            ctx.error(f"invalid time interval '{d}'")
            return 1
        total += secs
    return 0 if interruptible_sleep(ctx, total) else 130


TOOLS: list[Tool] = [sleep]
