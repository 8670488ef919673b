"""Command resolution: function → builtin → registered tool → external on PATH.

The registry holds the tools a kernel knows by name (builtins load lazily through
`tysh.builtins.get_builtin`, registered tools are added by embedders); functions live
in the session state and external commands are searched on the session's PATH through
the filesystem, only when the kernel allows external commands."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tysh.kernel.fs import FileSystem
    from tysh.kernel.tooldef import Tool

FUNCTION = "function"
BUILTIN = "builtin"
TOOL = "tool"
EXTERNAL = "external"


class Registry:
    """The named tools of one kernel (shared by its subshells and pipeline stages)."""

    def __init__(self) -> None:
        self.registered: dict[str, Tool] = {}
        self._builtins: dict[str, Tool | None] = {}

    def register(self, tool: Tool) -> None:
        self.registered[tool.name] = tool

    def builtin(self, name: str) -> Tool | None:
        try:
            return self._builtins[name]
        except KeyError:
            from tysh.builtins import get_builtin

            t = get_builtin(name)
            self._builtins[name] = t
            return t

    def tool(self, name: str) -> Tool | None:
        """A builtin or registered tool by name (no functions, no externals)."""
        t = self.builtin(name)
        if t is None:
            t = self.registered.get(name)
        return t

    def all_tools(self) -> list[Tool]:
        from tysh.builtins import all_builtins

        seen: dict[str, Tool] = {t.name: t for t in all_builtins()}
        for k, t in self.registered.items():
            seen.setdefault(k, t)
        return [seen[k] for k in sorted(seen)]


def find_external(name: str, path_var: str | None, cwd: str, fs: FileSystem) -> str | None:
    """The host path of an executable: `name` itself when it has a slash, else the first
    PATH entry holding an executable file of that name; None when there is none."""
    if "/" in name:
        p = name if name.startswith("/") else cwd.rstrip("/") + "/" + name
        return fs.real_os_path(p) or None
    for d in (path_var or "").split(":"):
        if not d:
            d = cwd
        elif not d.startswith("/"):
            d = cwd.rstrip("/") + "/" + d
        host = fs.real_os_path(d.rstrip("/") + "/" + name)
        if host and os.path.isfile(host) and os.access(host, os.X_OK):
            return host
    return None
