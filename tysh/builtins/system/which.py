"""which: where a command name would come from, in tysh's meaning of "command".

A name tysh runs in-process (builtin, function, keyword, registered tool) prints as
itself, the way bash's `command -v` prints it; an alias prints `alias NAME='VALUE'`;
a program on PATH prints its host path, and only when the session runs externals (the
answer comes from `ctx.shell.resolve`, the same lookup `type` and `command -v` use).
-a adds every further PATH match. A name found nowhere prints nothing on stdout
(like GNU/debianutils which) and makes the status 1."""

from __future__ import annotations

from tysh.builtins._common.names import quote_alias
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@value_record
class WhichArgs(Record):
    names: tuple[str, ...] = param(positional=True, default=(), help="command names to look up")
    all: bool = param(default=False, aliases=["-a"],
                      help="print every match: the in-process one and each PATH match")


def _path_matches(name: str, ctx: Context) -> list[str]:
    """Every executable called `name` along $PATH, in PATH order, duplicates dropped."""
    path = ctx.shell.get_var("PATH")
    found: list[str] = []
    for d in (path if isinstance(path, str) else "").split(":"):
        host = ctx.shell.find_external(name, d or ".")
        if host is not None and host not in found:
            found.append(host)
    return found


def _lookup(name: str, ctx: Context, every: bool) -> list[tuple[str, str | None]]:
    """(kind, host path) for each way `name` would run, first the one that wins."""
    kind, detail = ctx.shell.resolve(name)
    if kind == "file":
        if ctx.shell.resolve_all(name, path="")[:1] == [("builtin", "")]:
            kind, detail = "builtin", ""  # tysh runs its own tool, not the program
        else:
            detail = ctx.shell.find_external(name) or detail
    if not kind:
        return []
    hits: list[tuple[str, str | None]] = [(kind, detail if kind in ("file", "alias") else None)]
    if every and "/" not in name and (kind == "file" or ctx.shell.allow_external):
        hits.extend(("file", p) for p in _path_matches(name, ctx) if p != hits[0][1])
    return hits


def _line(name: str, kind: str, path: str | None) -> str:
    if kind == "file":
        return f"{path}\n"
    if kind == "alias":
        return f"alias {name}={quote_alias(path or '')}\n"
    return f"{name}\n"


@tool(
    "which", kind="shell",
    args=WhichArgs,
    description=(
        "show how each command name would run: a builtin or function prints its name, a "
        'program on PATH its path; --json gives [{"name","kind","path"}]'
    ),
    examples=[
        ("is grep a builtin or a program?", "which grep"),
        ("every match, builtin first then PATH", "which -a ls"),
    ],
)
def which(args: WhichArgs, ctx: Context) -> ToolReturn:
    status = 0
    rows: list[dict[str, Any]] = []
    out: list[str] = []
    for name in args.names:
        hits = _lookup(name, ctx, args.all)
        if not hits:
            status = 1
            rows.append({"name": name, "kind": None, "path": None})
            continue
        for kind, path in hits:
            rows.append({"name": name, "kind": kind,
                         "path": path if kind == "file" else None})
            out.append(_line(name, kind, path))
    if not args.names:
        status = 1
    if ctx.json:
        return Outcome(code=status, output=OutputData.text("", rich_json=rows))
    ctx.write("".join(out))
    return Outcome(code=status, output=OutputData.value(lambda: rows))


TOOLS = [which]
