"""The builtins that describe the shell itself: help, tools, type.

They read the session's knowledge through `ctx.shell.all_tools()` (every tool, by name)
and `ctx.shell.resolve(name)` (what a command name means), so registered tools and
functions show up exactly as the interpreter would run them.
"""

from __future__ import annotations

from tysh.builtins._common.names import describe
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.base.values import encode_text
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.schema import ToolSchema
from tysh.kernel.tools.tool import Outcome, Tool, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _tools_by_name(ctx: Context) -> dict[str, Tool]:
    out: dict[str, Tool] = {}
    for t in ctx.shell.all_tools():
        out.setdefault(t.name, t)
    return out


def _fallback_help(schema: ToolSchema) -> str:
    """A plain rendering for when the kernel's help renderer is unavailable."""
    lines = [f"{schema.name}: {schema.description}".rstrip(": ")]
    for sub in schema.subcommands:
        lines.append(f"  {sub.name}  {sub.description}".rstrip())
    for p in schema.params:
        spell = p.name.upper() if p.positional else ", ".join(p.spellings())
        lines.append(f"  {spell}  {p.description}".rstrip())
    for ex in schema.examples:
        lines.append(f"  $ {ex.code}    # {ex.description}")
    return "\n".join(lines) + "\n"


def _render(schema: ToolSchema, path: list[str], node: ToolSchema) -> str:
    try:
        from tysh.kernel.tools.help import render_help
    except ImportError:
        return _fallback_help(node)
    text: str = render_help(schema, path)
    return text if text.endswith("\n") else text + "\n"


# -- help ------------------------------------------------------------------------------------

@value_record
class HelpArgs(Record):
    topic: tuple[str, ...] = param(
        positional=True, default=(), help="a tool name, then subcommand names"
    )


@tool(
    "help", kind="shell",
    args=HelpArgs,
    description="show how to use a tool (no argument: list every tool)",
    examples=[("options of grep", "help grep"), ("a subcommand", "help kv store get")],
)
def help_(args: HelpArgs, ctx: Context) -> int | Outcome:
    tools = _tools_by_name(ctx)
    if not args.topic:
        if ctx.json:
            rows: list[list[Any]] = [[n, tools[n].schema.description] for n in sorted(tools)]
            return Outcome(0, OutputData.table(["name", "description"], rows))
        width = max((len(n) for n in tools), default=0)
        lines = [
            "tysh: a typed, sh-shaped shell. Every command below takes --help and --json.",
            "",
            *(f"  {n.ljust(width)}  {tools[n].schema.description}".rstrip() for n in sorted(tools)),
            "",
            "Type `help NAME` for a tool's options and examples; `tools --json` for every schema.",
        ]
        ctx.write("\n".join(lines) + "\n")
        return 0
    name, *path = args.topic
    t = tools.get(name)
    if t is None:
        ctx.stderr.write(
            encode_text(f"tysh: help: no help topics match `{name}'.  Try `help' to list the tools.\n")
        )
        return 1
    schema = t.schema
    node = schema
    for i, sub in enumerate(path):
        child = next(
            (c for c in node.subcommands if c.name == sub or sub in c.aliases), None
        )
        if child is None:
            where = " ".join([name, *path[:i]])
            ctx.stderr.write(encode_text(f"tysh: help: {where}: no subcommand `{sub}'\n"))
            return 1
        path[i] = child.name
        node = child
    if ctx.json:
        return Outcome(0, OutputData.text("", rich_json=node.to_json()))
    ctx.write(_render(schema, path, node))
    return 0


# -- tools -----------------------------------------------------------------------------------

@value_record
class ToolsArgs(Record):
    names: tuple[str, ...] = param(
        positional=True, default=(), help="only these tools (default: every tool)"
    )


@tool(
    "tools", kind="shell",
    args=ToolsArgs,
    description="list the tools this session knows; --json gives each tool's schema",
    examples=[("a table of tools", "tools"), ("every schema as JSON", "tools --json")],
)
def tools(args: ToolsArgs, ctx: Context) -> int | Outcome:
    known = _tools_by_name(ctx)
    names = sorted(known)
    status = 0
    if args.names:
        names = []
        for n in args.names:
            if n in known:
                names.append(n)
            else:
                ctx.error(f"{n}: no such tool")
                status = 1
    rows: list[list[Any]] = [[n, known[n].schema.description] for n in names]
    # the schemas, with or without --json (built when the value is first read)
    return Outcome(status, OutputData.table(
        ["name", "description"], rows,
        rich_json=lambda: [known[n].schema.to_json() for n in names]))


# -- type ------------------------------------------------------------------------------------

@value_record
class TypeArgs(Record):
    names: tuple[str, ...] = param(positional=True, default=(), help="command names")
    kind: bool = param(
        False, aliases=["-t"],
        help="print only the kind: alias, keyword, function, builtin or file",
    )
    path: bool = param(False, aliases=["-p"], help="print only the path of a file command")
    force_path: bool = param(
        False, aliases=["-P"], help="print the path of the program PATH gives, even when "
                                    "a function or builtin has the name"
    )
    all: bool = param(False, aliases=["-a"], help="every meaning, not only the first")
    no_functions: bool = param(False, aliases=["-f"], help="skip functions")


@tool(
    "type", kind="shell",
    args=TypeArgs,
    description="say how a command name would be run: alias, keyword, function, builtin "
                "or file (a program on PATH is named as bash names it)",
    examples=[("what is ls?", "type ls"), ("just the kind", "type -t cd"),
              ("every meaning", "type -a echo")],
)
def type_(args: TypeArgs, ctx: Context) -> int | Outcome:
    if ctx.json:
        return _type_json(args, ctx)
    status = 0
    out: list[str] = []
    sh = ctx.shell
    for name in args.names:
        if args.force_path:
            found = sh.resolve_all(name, functions=False, every=args.all)
            files = [d for k, d in found if k in ("file", "hashed")]
            if not args.all and not files and found and found[0][0] != "file":
                files = _programs(ctx, name)
            if files:
                out.extend(files if args.all else files[:1])
            else:
                status = 1
            continue
        got = sh.resolve_all(name, functions=not args.no_functions, every=args.all)
        if not got:
            status = 1
            if not (args.kind or args.path):
                _flush(ctx, out)
                ctx.stdout.flush()
                ctx.stderr.write(f"tysh: type: {name}: not found\n"
                                 .encode("utf-8", "surrogateescape"))
            continue
        for kind, detail in got:
            if args.kind:
                out.append("file" if kind == "hashed" else kind)
            elif args.path:
                if kind in ("file", "hashed"):
                    out.append(detail)
            else:
                out.append(describe(name, kind, detail))
    _flush(ctx, out)
    return status


def _programs(ctx: Context, name: str) -> list[str]:
    """Programs on PATH with this name, even when a builtin has it (`type -P`)."""
    every = ctx.shell.resolve_all(name, functions=False, every=True)
    return [d for k, d in every if k == "file"]


def _type_json(args: TypeArgs, ctx: Context) -> Outcome:
    """`type --json`: one record per name, `kind` null when nothing by that name runs;
    `runs` says what tysh runs when it differs from what bash would (a tysh tool where
    bash would run the program on PATH)."""
    rows: list[dict[str, Any]] = []
    for name in args.names:
        kind, detail = ctx.shell.resolve(name)
        row: dict[str, Any] = {"name": name, "kind": kind or None, "detail": detail or None}
        if kind == "file" and _runs_builtin(ctx, name):
            row["runs"] = "builtin"
        rows.append(row)
    status = 0 if all(r["kind"] for r in rows) else 1
    return Outcome(status, OutputData.text("", rich_json=rows))


def _runs_builtin(ctx: Context, name: str) -> bool:
    """Whether tysh runs its builtin for a name bash would find on PATH: with no PATH
    at all, the name would still be a builtin."""
    return ctx.shell.resolve_all(name, path="")[:1] == [("builtin", "")]


def _flush(ctx: Context, lines: list[str]) -> None:
    if lines:
        ctx.write("".join(line + "\n" for line in lines))
        lines.clear()


TOOLS: list[Tool] = [help_, tools, type_]
