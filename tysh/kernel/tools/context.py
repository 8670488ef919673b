"""What a running tool sees: its streams, the filesystem door and the shell session.

Builtins never print and never touch `os` directly: they read `stdin`, write `stdout`
and `stderr` (binary streams; bytes pass through unchanged), reach files through `fs`
and the session (variables, cwd, running other commands) through `shell`."""

from __future__ import annotations

from tysh.kernel.base.hints import Protocol
from tysh.kernel.base.limits import NO_CHARGES, Charges
from tysh.kernel.base.paths import abspath
from tysh.kernel.base.record import MutableRecord, mutable
from tysh.kernel.base.values import encode_text
from tysh.kernel.fs.api import FileSystem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

    from tysh.kernel.tools.tool import Tool


class ToolServers(Protocol):
    """The tool servers (MCP) a session is connected to, as the `mcp` builtin drives them:
    connecting registers a server's tools as one two-level command named after it,
    disconnecting removes it. Failures raise ToolServerError with a message a person can
    act on."""

    def connect(self, name: str, command: list[str] | None = None,
                url: str | None = None) -> tuple[list[str], list[str]]:
        """Start (`command`) or reach (`url`, streamable HTTP) a server and register its
        tools as the command `name`; returns the tools' names and one message for each
        tool that could not be made a command (its schema is unusable)."""
        ...

    def servers(self) -> list[tuple[str, str, list[str]]]:
        """Each connected server: (name, what it runs or where it is, its tools)."""
        ...

    def disconnect(self, name: str) -> None:
        """Close the server `name` and unregister its command."""
        ...


class ToolServerError(Exception):
    """A tool server could not be connected, called or closed; `message` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


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

    def check_boundary(self) -> None:
        """Raise the kernel's Cancelled or TimedOut when the run was cancelled or its
        deadline passed: a stop point for a tool that computes for a long time without
        reading or writing (see builtins/_common/cancel.py)."""
        ...

    def fork(self) -> ShellAPI:
        """A copy of the session, as a subshell gets: what runs in it (`xargs -P`'s
        commands, awk's `system()`) changes nothing here."""
        ...

    def run_source(self, src: str, stdin: IO[bytes], stdout: IO[bytes],
                   stderr: IO[bytes]) -> int:
        """Parse `src` and run it in this session (use a `fork()` to keep the session
        unchanged); returns its status. Raises TyshSyntaxError for source that does not
        parse, and lets `exit` (ExitShell) and the other control flow through."""
        ...

    def assign_word(self, word: str, value: str) -> bool:
        """Assign `value` to the variable or array element `word` names (`NAME`,
        `NAME[INDEX]`), as `read` and `printf -v` do; False when `word` is neither.
        Raises VarError when the variable is readonly."""
        ...

    @property
    def allow_external(self) -> bool:
        """Whether the session runs programs from PATH."""
        ...

    def var_is_set(self, name: str) -> bool:
        """`test -v`: whether the variable `NAME` or the element `NAME[KEY]` is set (an
        array's name alone is its element 0; a key is expanded as a subscript)."""
        ...

    def byte_locale(self) -> bool:
        """Whether the shell's locale has one byte per character (`LC_ALL=C`: the first
        of LC_ALL, LC_CTYPE, LANG set names no UTF-8 locale), where bash's builtins count
        bytes; False for a UTF-8 locale, where they count characters."""
        ...

    def find_external(self, name: str, path: str | None = None) -> str | None:
        """The host path of the program `name` along `path` (colon-separated, as $PATH;
        None: the session's $PATH), or None; found whether or not externals may run."""
        ...

    def resolve(self, name: str) -> tuple[str, str]:
        """What a command name means in this session, for `type`: (kind, detail) with
        kind one of `alias` (detail: its value), `keyword`, `function` (detail: its
        source text, or ""), `builtin`, `tool` (a registered tool), `file` (detail: the
        host path), or `""` when nothing by that name can run."""
        ...

    def resolve_all(self, name: str, *, functions: bool = True, path: str | None = None,
                    every: bool = False) -> list[tuple[str, str]]:
        """Every meaning of `name`, the winning one first (`type -a`): (kind, detail)
        as `resolve` gives them, plus "hashed" (bash's hash table's path); `functions`
        False skips functions (`type -f`), `path` replaces $PATH (`command -p`),
        `every` asks for all of them rather than the first."""
        ...

    def all_tools(self) -> list[Tool]:
        """Every tool the session knows (builtins and registered tools, `Tool`s), by
        name, for `help` and `tools`."""
        ...

    def tool_servers(self) -> ToolServers | None:
        """The session's tool servers (created on first use), or None when the kernel
        offers none."""
        ...

    @property
    def umask(self) -> int:
        """The session's umask (`umask`; the process's until a script sets one): the
        bits tools that compute modes themselves (`chmod +x`, `cp`, `tar`) mask off."""
        ...


# (operand, cwd) → its absolute path: a pure function of the two, asked at every open
_PATHS: dict[tuple[str, str], str] = {}


@mutable
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
    # what this command charges to the kernel's memory budget (released by the kernel
    # when the command ends)
    charges: Charges = NO_CHARGES
    # whether this command's typed value can be read (False in a pipeline stage before
    # the last): a tool that copies its output for its value skips the copy when not
    keeps_value: bool = True

    @property
    def cwd(self) -> str:
        return self.shell.cwd

    def path(self, p: str) -> str:
        """An absolute, normalised path for a user-given one, relative to the cwd. A
        trailing `/` is kept: it says the path must name a directory, and the
        filesystem answers `Not a directory` when it does not (`rm file/`)."""
        cwd = self.shell.cwd
        known = _PATHS.get((p, cwd))
        if known is not None:
            return known
        out = abspath(p, cwd)
        if len(p) > 1 and p.endswith("/") and out != "/" and p.strip("/"):
            out += "/"
        if len(_PATHS) >= 512:
            _PATHS.clear()
        _PATHS[p, cwd] = out
        return out

    def hold(self, n: int) -> None:
        """Charge `n` more bytes this command keeps (a buffer of its whole input, a
        table) to the memory budget; past the budget MemoryLimitExceeded ends the
        command with `NAME: memory limit of … exceeded`, status 1. Released when the
        command ends."""
        self.charges.hold(n, self.name)

    def release(self) -> None:
        """Give back everything this command has charged (its buffers are gone)."""
        self.charges.release()

    def unhold(self, n: int) -> None:
        """Give back `n` bytes of what `hold` charged (a buffer that was freed)."""
        self.charges.release(n)

    def need(self, n: int) -> None:
        """Refuse, as `hold` would, an allocation of `n` bytes about to be made (a
        width or a padding a user gave), without keeping a charge."""
        self.charges.need(n, self.name)

    def error(self, message: str) -> None:
        """Write `NAME: message` to stderr, the way GNU tools report problems."""
        self.stderr.write(encode_text(f"{self.name}: {message}\n"))

    def write(self, text: str) -> None:
        self.stdout.write(encode_text(text))


_new_object = object.__new__


def new_context(name: str, stdin: IO[bytes], stdout: IO[bytes], stderr: IO[bytes],
                fs: FileSystem, shell: ShellAPI, json: bool, isatty: bool,
                path_prefix: tuple[str, ...], charges: Charges,
                keeps_value: bool) -> Context:
    """`Context(…)` of a tool call (`stdin_is_terminal` False), made without the class
    call, which costs as much again as the fields' stores: the kernel makes one for
    every tool it runs."""
    ctx: Context = _new_object(Context)
    ctx.name = name
    ctx.stdin = stdin
    ctx.stdout = stdout
    ctx.stderr = stderr
    ctx.fs = fs
    ctx.shell = shell
    ctx.json = json
    ctx.isatty = isatty
    ctx.stdin_is_terminal = False
    ctx.path_prefix = path_prefix
    ctx.charges = charges
    ctx.keeps_value = keeps_value
    return ctx
