"""`mcp connect NAME -- CMD ARGS…`, `mcp connect NAME --http URL`, `mcp list`,
`mcp disconnect NAME`: a server's tools become the two-level command NAME.

The builtin reaches the connections only through the session's `tool_servers()` (the
narrow ToolServers protocol); the SDK loads at the first connect. Starting a server runs
a host program and reaching one opens a network connection, so a script may connect one
only when the session runs external commands; an embedder connects its own servers with
`Kernel(mcp_servers=…)` whatever the sandbox."""

from __future__ import annotations

from tysh.kernel.base.record import Record, frozen, value_record
from tysh.kernel.tools.context import Context, ToolServerError, ToolServers
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolGroup

group = ToolGroup(
    "mcp", kind="shell",
    description="connect MCP servers: their tools become commands (NAME TOOL ARGS…)",
    examples=[
        ("a server over stdio", "mcp connect gh -- gh-mcp --stdio"),
        ("a server over HTTP", "mcp connect docs --http http://127.0.0.1:8000/mcp"),
        ("call one of its tools", "gh search_issues 'is:open label:bug' 5"),
    ],
)


def _servers(ctx: Context) -> ToolServers | None:
    hub = ctx.shell.tool_servers()
    if hub is None:
        ctx.error("this session cannot connect MCP servers")
    return hub


@value_record
class ConnectArgs(Record):
    name: str = param(positional=True, help="the command the server's tools become")
    command: tuple[str, ...] = param(
        positional=True, default=(), help="after --: the server's program and arguments")
    http: str | None = param(None, help="the server's streamable HTTP URL")


@group.command(
    "connect", args=ConnectArgs, operations=["proc.exec", "net"],
    description="start a server (after --) or reach one (--http URL); register its tools",
)
def connect(args: ConnectArgs, ctx: Context) -> int:
    if not ctx.shell.allow_external:
        ctx.error("connect: MCP servers are host programs or network services, and "
                  "external commands are disabled in this session")
        return 1
    if bool(args.command) == (args.http is not None):
        ctx.error("connect: give the server's command after -- or its URL with --http")
        return 2
    hub = _servers(ctx)
    if hub is None:
        return 1
    try:
        if args.http is not None:
            names, problems = hub.connect(args.name, url=args.http)
        else:
            names, problems = hub.connect(args.name, command=list(args.command))
    except ToolServerError as e:
        ctx.error(f"connect: {e.message}")
        return 1
    for p in problems:
        ctx.error(p)
    if ctx.isatty:
        ctx.write(f"{args.name}: {len(names)} tools: {' '.join(names)}\n")
    return 0


@frozen
class ListArgs(Record):
    pass


@group.command("list", args=ListArgs, description="the connected servers and their tools")
def list_(args: ListArgs, ctx: Context) -> int | Outcome:
    hub = _servers(ctx)
    if hub is None:
        return 1
    rows = [[name, target, " ".join(tools)] for name, target, tools in hub.servers()]
    rich = [{"name": n, "server": t, "tools": list(tools)} for n, t, tools in hub.servers()]
    return Outcome(0, OutputData.table(["name", "server", "tools"], rows, rich_json=rich))


@value_record
class DisconnectArgs(Record):
    name: str = param(positional=True, help="a connected server's command name")


@group.command("disconnect", args=DisconnectArgs,
               description="close a server and remove its command")
def disconnect(args: DisconnectArgs, ctx: Context) -> int:
    hub = _servers(ctx)
    if hub is None:
        return 1
    try:
        hub.disconnect(args.name)
    except ToolServerError as e:
        ctx.error(f"disconnect: {e.message}")
        return 1
    return 0


mcp = group.tool
