"""The bytes family: od xxd cmp cksum sha224sum sha384sum b2sum strings truncate — tools
over raw bytes, in-process so they work with externals off.

TOOL_MODULES maps each tool to its `bytes_*` module, so running `od` imports only
bytes_od (see tysh.builtins.get_builtin)."""

from __future__ import annotations

TOOL_MODULES: dict[str, str] = {
    "od": "bytes_od",
    "xxd": "bytes_xxd",
    "cmp": "bytes_cmp",
    "cksum": "bytes_sum", "sha224sum": "bytes_sum", "sha384sum": "bytes_sum",
    "b2sum": "bytes_sum",
    "strings": "bytes_strings",
    "truncate": "bytes_truncate",
}
