"""egrep and fgrep: `grep -E` and `grep -F` under their old names, as the Debian and
Ubuntu packages of GNU grep ship them — scripts that run `grep -E "$@"` with nothing on
stderr (upstream's 3.8 obsolescence warning is dropped there: it is noise to a script's
reader, and scripts that check stderr break on it). Messages are grep's own (`grep: …`)."""

from __future__ import annotations

from tysh.builtins.search.grep import GrepArgs, check_grep, grep
from tysh.kernel.base.record import replace
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, ToolReturn, tool


def _check_e(args: GrepArgs) -> list[str]:
    return check_grep(replace(args, extended_regexp=True))


def _check_f(args: GrepArgs) -> list[str]:
    return check_grep(replace(args, fixed_strings=True))


def _as_grep(args: GrepArgs, ctx: Context, flag: str) -> ToolReturn:
    ctx.name = "grep"
    run = grep.func
    assert run is not None
    if flag == "-E":
        return run(replace(args, extended_regexp=True), ctx)
    return run(replace(args, fixed_strings=True), ctx)


@tool("egrep", kind="search", paths=["operands"], script_params=["regexp", "file"], args=GrepArgs, check=_check_e,
      description="grep -E under its old name",
      examples=[("prefer", "grep -E 'warn|error' app.log")])
def egrep(args: GrepArgs, ctx: Context) -> ToolReturn:
    return _as_grep(args, ctx, "-E")


@tool("fgrep", kind="search", paths=["operands"], script_params=["regexp", "file"], args=GrepArgs, check=_check_f,
      description="grep -F under its old name",
      examples=[("prefer", "grep -F 'a.b' notes.txt")])
def fgrep(args: GrepArgs, ctx: Context) -> ToolReturn:
    return _as_grep(args, ctx, "-F")


TOOLS: list[Tool] = [egrep, fgrep]
