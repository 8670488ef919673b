"""Command resolution: function → builtin → registered tool → external on PATH.

The registry holds the tools a kernel knows by name: the builtins, looked up through the
functions it is given (the kernel never imports the builtin table itself: the embedding
layer hands it over), and the tools embedders register. Functions live in the session
state; external commands are searched on the session's PATH through the filesystem,
only when the kernel allows external commands."""

from __future__ import annotations

import os

from tysh.kernel.base.paths import join

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import IO, Any

    from tysh.kernel.fs.api import FileSystem
    from tysh.kernel.tools.context import ToolServers
    from tysh.kernel.tools.tool import Tool

# what `_builtins` gives for a name `builtin` has not been asked about
_UNSEEN: Tool = object()  # type: ignore[assignment]


class Registry:
    """The named tools of one kernel (shared by its subshells and pipeline stages).

    `get_builtin(name)` is the builtin of that name or None (it may import the tool's
    module on first use; the answer is remembered); `all_builtins()` lists every one."""

    def __init__(
        self,
        get_builtin: Callable[[str], Tool | None],
        all_builtins: Callable[[], list[Tool]],
    ) -> None:
        self._get_builtin = get_builtin
        self._all_builtins = all_builtins
        self.registered: dict[str, Tool] = {}
        self._namespaces: dict[str, str] = {}
        # bumped by every register(), so what was derived from the names (a script's
        # validation) knows when to be recomputed
        self.version = 0
        self._builtins: dict[str, Tool | None] = {}
        # The REPL's renderer for a terminal: (kind "output"|"json", value, stdout) → handled
        self.render_output: Callable[[str, Any, IO[bytes]], bool] | None = None
        # makes the kernel's tool servers (MCP) on first use; the embedding layer sets
        # it, so a session that never connects a server never loads the client
        self.servers_factory: Callable[[Registry], ToolServers] | None = None
        self._servers: ToolServers | None = None

    def register(self, tool: Tool, namespace: str = "user") -> None:
        """Add a tool; `namespace` is where it comes from, as tool-call events say (`user`
        for an embedder's own tools, `mcp` for a connected MCP server's)."""
        self.registered[tool.name] = tool
        if namespace != "user":
            self._namespaces[tool.name] = namespace
        else:
            self._namespaces.pop(tool.name, None)
        self.version += 1

    def namespace_of(self, name: str, tool: Tool) -> str:
        """`tysh` for a builtin, else the namespace the tool was registered under."""
        if self.builtin(name) is tool:
            return "tysh"
        return self._namespaces.get(name, "user")

    def unregister(self, name: str) -> None:
        if self.registered.pop(name, None) is not None:
            self._namespaces.pop(name, None)
            self.version += 1

    def tool_servers(self) -> ToolServers | None:
        """The kernel's tool servers, made on first use; None when it offers none."""
        if self._servers is None and self.servers_factory is not None:
            self._servers = self.servers_factory(self)
        return self._servers

    def close_servers(self) -> None:
        """Disconnect every tool server (nothing is made when none was used)."""
        hub = self._servers
        if hub is not None:
            for name, _, _ in hub.servers():
                hub.disconnect(name)

    def builtin(self, name: str) -> Tool | None:
        try:
            return self._builtins[name]
        except KeyError:
            t = self._get_builtin(name)
            self._builtins[name] = t
            return t

    def tool(self, name: str) -> Tool | None:
        """A builtin or registered tool by name (no functions, no externals)."""
        t = self._builtins.get(name, _UNSEEN)
        if t is _UNSEEN:
            t = self.builtin(name)
        if t is None:
            t = self.registered.get(name)
        return t

    def all_tools(self) -> list[Tool]:
        seen: dict[str, Tool] = {t.name: t for t in self._all_builtins()}
        for k, t in self.registered.items():
            seen.setdefault(k, t)
        return [seen[k] for k in sorted(seen)]


def search_path(name: str, path_var: str | None, cwd: str, fs: FileSystem
                ) -> Iterator[tuple[str, str]]:
    """Each executable file that `name` means along PATH, in order: (the path as bash
    shows it — the PATH entry as written, then the name —, the host path). A name with
    a slash is itself, when it is an executable file."""
    if "/" in name:
        p = name if name.startswith("/") else join(cwd, name)
        host = _host_path(fs, p)
        if host and os.path.isfile(host) and os.access(host, os.X_OK):
            yield name, host
        return
    for d in (path_var or "").split(":"):
        shown = (d or ".") + ("" if d.endswith("/") else "/") + name
        full = cwd if not d else d if d.startswith("/") else join(cwd, d)
        host = _host_path(fs, join(full, name))
        if host and os.path.isfile(host) and os.access(host, os.X_OK):
            yield shown, host


def find_external(name: str, path_var: str | None, cwd: str, fs: FileSystem) -> str | None:
    """The host path of an executable: `name` itself when it has a slash, else the first
    PATH entry holding an executable file of that name; None when there is none."""
    if "/" in name:
        p = name if name.startswith("/") else join(cwd, name)
        return _host_path(fs, p) or None
    for d in (path_var or "").split(":"):
        if not d:
            d = cwd
        elif not d.startswith("/"):
            d = join(cwd, d)
        host = _host_path(fs, join(d, name))
        if host and os.path.isfile(host) and os.access(host, os.X_OK):
            return host
    return None


def _host_path(fs: FileSystem, path: str) -> str | None:
    """Where a program lives on the host. A confined filesystem refuses paths outside
    its root, but programs are host processes: when external commands are on, the
    programs of the host (`/usr/bin/…`) may run, and they run in the sandbox's cwd. A
    filesystem with no host side (in memory) has no programs."""
    from tysh.kernel.fs.api import FsError
    from tysh.kernel.fs.local import LocalFileSystem

    try:
        return fs.real_os_path(path)
    except FsError:
        return path if isinstance(fs, LocalFileSystem) else None
