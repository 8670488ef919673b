"""true, false and `:`: a status, nothing else (their arguments are still expanded)."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool


def _succeed(argv: list[str]) -> int | None:
    """The status without binding or a Context (None under `--json`, which runs the tool)."""
    return None if "--json" in argv else 0


def _fail(argv: list[str]) -> int | None:
    return None if "--json" in argv else 1


@tool("true", kind="shell", raw_argv=True, direct=_succeed,
      description="do nothing, successfully (arguments are ignored)")
def true_(args: RawArgs, ctx: Context) -> int:
    return 0


@tool("false", kind="shell", raw_argv=True, direct=_fail,
      description="do nothing, unsuccessfully (arguments are ignored)")
def false_(args: RawArgs, ctx: Context) -> int:
    return 1


@tool(":", kind="shell", raw_argv=True, direct=_succeed,
      description="do nothing, successfully; arguments are still expanded",
      examples=[("set a default", ": ${name:=world}")])
def colon(args: RawArgs, ctx: Context) -> int:
    return 0


TOOLS: list[Tool] = [true_, false_, colon]
