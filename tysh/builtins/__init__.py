"""The builtin tools, grouped by family, loaded lazily by name.

Each family module defines `TOOLS: list[Tool]`. The table below maps every builtin name
to its module so that running `echo` does not import grep, sed and jq."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tysh.kernel.tooldef import Tool

FAMILIES: dict[str, tuple[str, ...]] = {
    "shell": (
        "read", "mapfile", "readarray", "cd", "pwd", "export", "unset", "local", "declare",
        "typeset", "readonly", "shift", "set", "exit", "return", "break", "continue",
        "source", ".", "wait", "eval", "trap", "let", "getopts", "alias", "unalias", "exec",
        "command", "builtin", "shopt",
    ),
    "posix": ("echo", "printf", "test", "[", "true", "false", ":", "sleep", "env", "timeout"),
    "meta": ("help", "tools", "type"),
    "text": (
        "cat", "tac", "head", "tail", "wc", "sort", "uniq", "cut", "tr", "seq", "tee",
        "xargs", "rev", "nl", "paste",
    ),
    "grep": ("grep",),
    "sed": ("sed",),
    "awk": ("awk",),
    "files": (
        "ls", "find", "glob", "mkdir", "rm", "rmdir", "cp", "mv", "touch", "stat",
        "basename", "dirname", "realpath", "ln", "chmod",
    ),
    "jsontools": ("jq", "fromjson", "tojson", "keys", "values", "typeof", "split"),
    "utils": (
        "diff", "md5sum", "sha1sum", "sha256sum", "sha512sum", "base64", "du", "mktemp", "date",
        "which", "tree", "comm", "column", "fold", "expand", "unexpand", "yes", "printenv",
        "nproc", "uname", "whoami", "hostname",
    ),
    "calc": ("expr", "bc", "factor", "numfmt"),
    "bytes": ("od", "xxd", "cmp", "cksum", "sha224sum", "sha384sum", "b2sum", "strings",
              "truncate"),
    "archive": ("gzip", "gunzip", "zcat", "tar"),
    "misc": ("readlink", "shuf", "join", "fmt", "envsubst", "id", "tty", "nohup", "nice"),
}

MODULE_OF: dict[str, str] = {n: fam for fam, names in FAMILIES.items() for n in names}

_loaded: dict[str, dict[str, Tool]] = {}


def family_tools(fam: str) -> list[Tool]:
    """Every tool of a family: its module's TOOLS, or, for a family split into one module
    per tool (`TOOL_MODULES`, name -> submodule), the TOOLS of each submodule."""
    mod = importlib.import_module(f"tysh.builtins.{fam}")
    subs: dict[str, str] | None = getattr(mod, "TOOL_MODULES", None)
    if subs is None:
        return list(mod.TOOLS)
    tools: list[Tool] = []
    for sub in dict.fromkeys(subs.values()):
        tools.extend(importlib.import_module(f"tysh.builtins.{sub}").TOOLS)
    return tools


def _family(fam: str) -> dict[str, Tool]:
    tools = _loaded.get(fam)
    if tools is None:
        tools = {t.name: t for t in family_tools(fam)}
        _loaded[fam] = tools
    return tools


_single: dict[str, Tool] = {}


def _single_tool(fam: str, name: str) -> Tool | None:
    """A family module may map tool names to submodules (`TOOL_MODULES`), so one tool
    loads without importing the whole family."""
    mod = importlib.import_module(f"tysh.builtins.{fam}")
    sub = getattr(mod, "TOOL_MODULES", {}).get(name)
    if sub is None:
        return None
    for t in importlib.import_module(f"tysh.builtins.{sub}").TOOLS:
        _single[t.name] = t
    return _single.get(name)


def get_builtin(name: str) -> Tool | None:
    fam = MODULE_OF.get(name)
    if fam is None:
        return None
    if fam not in _loaded:
        got = _single.get(name) or _single_tool(fam, name)
        if got is not None:
            return got
    return _family(fam).get(name)


def all_builtins() -> list[Tool]:
    out: list[Tool] = []
    for fam in FAMILIES:
        out.extend(_family(fam).values())
    return out
