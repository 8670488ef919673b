"""The utils family: diff md5sum sha1sum sha256sum sha512sum base64 du mktemp date which
tree comm column fold expand unexpand yes printenv nproc uname whoami hostname —
everyday GNU tools, in-process, so they work with externals off.

Each tool lives in a `utils_*` module of its own concern. TOOL_MODULES maps a tool to
its module so that running `diff` imports only utils_diff (tysh.builtins.get_builtin
uses it); the whole family is tysh.builtins.family_tools("utils")."""

from __future__ import annotations

TOOL_MODULES: dict[str, str] = {
    "diff": "utils_diff",
    "md5sum": "utils_digest", "sha1sum": "utils_digest", "sha256sum": "utils_digest",
    "sha512sum": "utils_digest", "base64": "utils_digest",
    "du": "utils_du",
    "mktemp": "utils_mktemp",
    "date": "utils_date",
    "which": "utils_which",
    "tree": "utils_tree",
    "comm": "utils_comm",
    "column": "utils_column",
    "fold": "utils_fold", "expand": "utils_fold", "unexpand": "utils_fold",
    "yes": "utils_sys", "printenv": "utils_sys", "nproc": "utils_sys", "uname": "utils_sys",
    "whoami": "utils_sys", "hostname": "utils_sys",
}

