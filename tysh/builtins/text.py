"""The text family: cat tac head tail wc sort uniq cut tr seq tee xargs rev nl paste.

Each tool lives in a `text_*` module of its own concern. TOOL_MODULES maps a tool to its
module so that running `wc` imports only text_wc (tysh.builtins.get_builtin uses it);
the whole family is tysh.builtins.family_tools("text")."""

from __future__ import annotations

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

