"""The archive family: gzip gunzip zcat tar — compression and archives in-process, read
and written only through the session's filesystem, so they work in a sandbox.

TOOL_MODULES maps a tool to its module so that running `zcat` imports only archive_gzip
(tysh.builtins.get_builtin uses it); the whole family is family_tools("archive")."""

from __future__ import annotations

TOOL_MODULES: dict[str, str] = {
    "gzip": "archive_gzip", "gunzip": "archive_gzip", "zcat": "archive_gzip",
    "tar": "archive_tar",
}
