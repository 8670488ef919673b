"""The misc family: readlink shuf join fmt envsubst id tty nohup nice.

Each tool lives in a `misc_*` module of its own concern; TOOL_MODULES maps a tool to
its module so running `join` imports only misc_join (tysh.builtins.get_builtin uses it)."""

from __future__ import annotations

TOOL_MODULES: dict[str, str] = {
    "readlink": "misc_readlink",
    "shuf": "misc_shuf",
    "join": "misc_join",
    "fmt": "misc_fmt",
    "envsubst": "misc_envsubst",
    "id": "misc_sys", "tty": "misc_sys",
    "nohup": "misc_exec", "nice": "misc_exec",
}
