"""What a running tool sees: its streams, the filesystem door and the shell session.

Builtins never print and never touch `os` directly: they read `stdin`, write `stdout`
and `stderr` (binary streams; bytes pass through unchanged), reach files through `fs`
and the session (variables, cwd, running other commands) through `shell`."""

from __future__ import annotations

import posixpath
from typing import IO, TYPE_CHECKING, Any, Protocol

import attrs

from tysh.kernel.base.record import MutableRecord
from tysh.kernel.fs.api import FileSystem

if TYPE_CHECKING:
    from tysh.kernel.tools.tool import Tool


class ShellAPI(Protocol):
    """The part of the interpreter's session a tool may use."""

    @property
    def cwd(self) -> str: ...

    def get_var(self, name: str) -> Any: ...

    def set_var(self, name: str, value: Any) -> None: ...

    def exported_env(self) -> dict[str, str]: ...

    def run_argv(
        self,
        argv: list[str],
        stdin: IO[bytes],
        stdout: IO[bytes],
        stderr: IO[bytes],
        *,
        env: dict[str, str] | None = None,
        timeout: float | None = None,
    ) -> int:
        """Run one command (builtin, function, tool or external) as `xargs`, `find -exec`
        and `timeout` need; returns its exit status.

        `env`, when given, is the whole exported environment the command sees (`env -i
        A=1 cmd`): an external gets exactly it; a builtin or function runs with those
        variables set as exported for the duration of the command. `timeout` is a
        deadline in seconds: when it passes, the shell kills an external command or sets
        `cancelled()` for an in-process one, and returns 124."""
        ...

    def cancelled(self) -> bool: ...

    def resolve(self, name: str) -> tuple[str, str]:
        """What a command name means in this session, for `type`: (kind, detail) with
        kind one of `alias` (detail: its value), `keyword`, `function` (detail: its
        source text, or ""), `builtin`, `tool` (a registered tool), `file` (detail: the
        host path), or `""` when nothing by that name can run."""
        ...

    def all_tools(self) -> list[Tool]:
        """Every tool the session knows (builtins and registered tools, `Tool`s), by
        name, for `help` and `tools`."""
        ...


@attrs.define(slots=True, repr=False, eq=False)
class Context(MutableRecord):
    name: str
    stdin: IO[bytes]
    stdout: IO[bytes]
    stderr: IO[bytes]
    fs: FileSystem
    shell: ShellAPI
    json: bool = False
    isatty: bool = False
    stdin_is_terminal: bool = False
    path_prefix: tuple[str, ...] = ()  # the subcommand path chosen by select_leaf

    @property
    def cwd(self) -> str:
        return self.shell.cwd

    def path(self, p: str) -> str:
        """An absolute, normalised path for a user-given one, relative to the cwd."""
        if not p.startswith("/"):
            p = self.shell.cwd.rstrip("/") + "/" + p
        out = posixpath.normpath(p)
        return "/" + out.lstrip("/") if out.startswith("//") else out

    def error(self, message: str) -> None:
        """Write `NAME: message` to stderr, the way GNU tools report problems."""
        self.stderr.write(f"{self.name}: {message}\n".encode("utf-8", "surrogateescape"))

    def write(self, text: str) -> None:
        self.stdout.write(text.encode("utf-8", "surrogateescape"))
