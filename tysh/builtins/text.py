"""The text family: cat tac head tail wc sort uniq cut tr seq tee xargs rev nl paste.

Each tool lives in a `text_*` module of its own concern. TOOL_MODULES maps a tool to its
module so that running `wc` imports only text_wc (tysh.builtins.get_builtin uses it);
TOOLS, the whole family, is built on first access."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tysh.kernel.tooldef import Tool

TOOL_MODULES: dict[str, str] = {
    "cat": "text_cat", "tac": "text_cat", "rev": "text_cat", "tee": "text_cat",
    "head": "text_headtail", "tail": "text_headtail",
    "wc": "text_wc",
    "sort": "text_sort",
    "uniq": "text_uniq",
    "cut": "text_cut", "paste": "text_cut",
    "tr": "text_tr",
    "seq": "text_seq",
    "xargs": "text_xargs",
    "nl": "text_nl",
}


def _all_tools() -> list[Tool]:
    tools: list[Tool] = []
    for mod_name in dict.fromkeys(TOOL_MODULES.values()):
        mod = importlib.import_module(f"tysh.builtins.{mod_name}")
        tools.extend(mod.TOOLS)
    return tools


def __getattr__(name: str) -> Any:
    if name == "TOOLS":
        tools = _all_tools()
        globals()["TOOLS"] = tools
        return tools
    raise AttributeError(name)
