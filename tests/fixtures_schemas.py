"""Fixture tools the binder, schema and help tests run against: head, grep, test, find,
cp, a map_positionals (MCP-like) tool, a verbatim tool and a two-level `kv store
get|put|list` tree with command aliases."""

from __future__ import annotations

from typing import Any, Literal

import attrs

from tysh.kernel.tools.params import param
from tysh.kernel.tools.schema import ParamSchema, ToolSchema
from tysh.kernel.tools.tool import Tool, tool, tool_group


def _noop(args: Any, ctx: Any) -> int:
    return 0


@attrs.frozen
class HeadArgs:
    files: tuple[str, ...] = param(positional=True, default=(), help="files to read")
    lines: int = param(default=10, aliases=["-n"], help="print the first N lines")
    bytes: int | None = param(default=None, aliases=["-c"], help="print the first N bytes")
    quiet: bool = param(default=False, aliases=["-q"], help="never print file headers")
    verbose: bool = param(default=False, aliases=["-v"], help="always print file headers")


HEAD: Tool = tool(
    "head", args=HeadArgs, description="output the first part of files",
    examples=[("first 5 lines", "head -n 5 notes.txt")],
)(_noop)


@attrs.frozen
class GrepArgs:
    pattern: str | None = param(positional=True, default=None, help="the pattern")
    files: tuple[str, ...] = param(positional=True, default=(), help="files to search")
    regexp: tuple[str, ...] = param(default=(), aliases=["-e"], help="a pattern (repeatable)")
    ignore_case: bool = param(default=False, aliases=["-i"])
    invert_match: bool = param(default=False, aliases=["-v"])
    line_number: bool = param(default=False, aliases=["-n"])
    count: bool = param(default=False, aliases=["-c"])
    quiet: bool = param(default=False, aliases=["-q"])
    max_count: int | None = param(default=None, aliases=["-m"])
    context: int | None = param(default=None, aliases=["-C"])
    color: Literal["auto", "always", "never"] = param(default="auto", help="when to colour")


GREP: Tool = tool("grep", args=GrepArgs, description="print lines that match patterns")(_noop)

TEST: Tool = tool("test", description="evaluate a condition", raw_argv=True)(_noop)


@attrs.frozen
class FindArgs:
    paths: tuple[str, ...] = param(positional=True, default=(), help="where to start")
    name: str | None = param(default=None, aliases=["-name"], help="base name glob")
    iname: str | None = param(default=None, aliases=["-iname"])
    type: Literal["f", "d", "l"] | None = param(default=None, aliases=["-type"])
    maxdepth: int | None = param(default=None, aliases=["-maxdepth"])
    mindepth: int | None = param(default=None, aliases=["-mindepth"])


FIND: Tool = tool("find", args=FindArgs, description="search for files",
                  glob_passthrough=True)(_noop)


@attrs.frozen
class CpArgs:
    src: tuple[str, ...] = param(positional=True, help="what to copy")
    dest: str = param(positional=True, help="where to copy it")
    recursive: bool = param(default=False, aliases=["-r", "-R"])
    force: bool = param(default=False, aliases=["-f"])


CP: Tool = tool("cp", args=CpArgs, description="copy files",
                operations=["fs.create", "fs.overwrite"])(_noop)


@attrs.frozen(kw_only=True)
class CutArgs:
    files: tuple[str, ...] = param(positional=True, default=())
    fields: str = param(aliases=["-f"], help="the fields to print")
    delimiter: str = param(default="\t", aliases=["-d"])


CUT: Tool = tool("cut", args=CutArgs, description="remove sections from lines")(_noop)

SEARCH: ToolSchema = ToolSchema(
    name="search",
    description="an MCP-like tool taking named JSON params",
    params=(
        ParamSchema("query", "string", required=True, description="what to look for"),
        ParamSchema("limit", "int", default=10),
        ParamSchema("exact", "bool"),
        ParamSchema("lang", "choice", choices=("en", "de")),
    ),
    map_positionals=True,
)

WRAP: Tool = tool("wrap", description="a wrapped CLI", verbatim=True)(_noop)
WRAP_OWN: Tool = tool("wrapown", description="a wrapped CLI rendering its own JSON",
                      verbatim=True, owns_output=True)(_noop)


# -- kv: a two-level subcommand tree --------------------------------------------------


@attrs.frozen
class KvArgs:
    verbose: bool = param(default=False, aliases=["-v"])
    db: str = param(default="kv.db", param_type="path", aliases=["-d"])


@attrs.frozen
class StoreArgs:
    namespace: str = param(default="default", aliases=["-N"])


@attrs.frozen
class GetArgs:
    key: str = param(positional=True, help="the key")
    default: str | None = param(default=None, help="value when the key is missing")
    verbose: bool = param(default=False, aliases=["-v"])
    db: str = param(default="kv.db", param_type="path")
    namespace: str = param(default="default")


@attrs.frozen
class PutArgs:
    key: str = param(positional=True)
    value: str = param(positional=True)
    ttl: int | None = param(default=None, aliases=["-t"])
    tag: tuple[tuple[str, str], ...] = param(default=(), consumes=2, repeatable=True,
                                             param_type="string", help="KEY VALUE")
    db: str = param(default="kv.db", param_type="path")


@attrs.frozen
class ListArgs:
    prefix: str | None = param(positional=True, default=None)
    limit: int | None = param(default=None, aliases=["-l"])


kv = tool_group("kv", description="a key-value store", args=KvArgs,
                examples=[("read a key", "kv store get name")])
store = kv.group("store", description="the stored keys", args=StoreArgs, aliases=["st"])


@store.command("get", args=GetArgs, aliases=["g"], description="read a key")
def kv_get(args: GetArgs, ctx: Any) -> int:
    return 0


@store.command("put", args=PutArgs, aliases=["p"], description="write a key",
               operations=["fs.overwrite"])
def kv_put(args: PutArgs, ctx: Any) -> int:
    return 0


@store.command("list", args=ListArgs, aliases=["ls"], description="list keys")
def kv_list(args: ListArgs, ctx: Any) -> int:
    return 0


KV: Tool = kv.tool

ALL_TOOLS: list[Tool] = [HEAD, GREP, TEST, FIND, CP, CUT, WRAP, WRAP_OWN, KV]
ALL_SCHEMAS: list[ToolSchema] = [t.schema for t in ALL_TOOLS] + [SEARCH]
