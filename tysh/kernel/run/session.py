"""The session protocol: what the shell's own builtins may use of the interpreter.

An ordinary tool sees the session only through the narrow `ctx.shell` (ShellAPI). The
builtins that are part of the shell itself (`cd`, `declare`, `source`, `command`, …)
read and change its state, run scripts and call other tools; such a tool says so with
`@tool(..., session=True)` and is called as `func(args, ctx, sh)` with `sh` a
`Session`. The interpreter is its implementation; nothing else reaches past ShellAPI."""

from __future__ import annotations

# the shell API's Protocol as context.py has it (a plain class at run time)
from tysh.kernel.base.hints import Protocol
from tysh.kernel.run.lookup import BASH_BUILTINS as BASH_BUILTINS
from tysh.kernel.run.lookup import DEFAULT_PATH as DEFAULT_PATH
from tysh.kernel.tools.context import ShellAPI

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

if TYPE_CHECKING:
    from tysh.kernel.base.argv import Arg
    from tysh.kernel.base.streams import Fds
    from tysh.kernel.fs.api import FileSystem
    from tysh.kernel.run.jobs import Job as Job
    from tysh.kernel.run.jobs import JobTable as JobTable
    from tysh.kernel.run.state import State
    from tysh.kernel.syntax import ast
    from tysh.kernel.tools.tool import Tool


class Session(ShellAPI, Protocol):
    """The running shell as its builtins see it (a ShellAPI, and more)."""

    source_depth: int  # scripts being sourced: `return` is allowed inside one

    @property
    def state(self) -> State:
        """Variables, functions, options, positional parameters, cwd, aliases."""
        ...

    @property
    def fs(self) -> FileSystem: ...

    @property
    def cur_fds(self) -> Fds:
        """The open descriptors of the command being run (`read -u FD`)."""
        ...

    @property
    def decl_arrays(self) -> dict[str, ast.ArrayLit] | None:
        """`declare a=(…)`: the array literals of the declaration being run, keyed by
        their argument's text (the builtin sees only text)."""
        ...

    def abspath(self, p: str) -> str: ...

    def eval_arith_text(self, text: str) -> int: ...

    def expand_source_word(self, src: str) -> str:
        """Expand one word given as source text as an assignment's value is expanded
        (tilde, parameters, substitutions; no splitting, no globbing). Raises
        TyshSyntaxError or the expansion's error."""
        ...

    def array_value(self, name: str, lit: ast.ArrayLit, merge: bool = False) -> Any:
        """The value `name=(…)` stores for the literal `lit` (a list or a dict); `merge`:
        the array's elements with the literal's assigned into them (`name+=([k]=v)`)."""
        ...

    def parse(self, src: str) -> ast.Script: ...

    def run_script(self, script: ast.Script, fds: Fds) -> int: ...

    @property
    def jobs(self) -> JobTable:
        """This shell's background jobs (`jobs`, `wait`, `kill`, `disown`)."""
        ...

    @property
    def host_session(self) -> bool:
        """Whether the session runs on the host's own files with the host's identity
        (the CLI, `Kernel.repl()`) rather than in a sandbox: what it may do to things
        outside itself (other processes, resource limits) depends on it."""
        ...

    def signal_self(self, sig: int) -> bool:
        """`kill -SIG $$`: deliver a signal to the shell itself. Signals a process
        ignores by default (and 0) do nothing; the others end the shell with 128+sig.
        False (with nothing done) for a signal that would stop it."""
        ...

    def set_trap(self, key: str, action: str | None) -> None:
        """`trap ACTION KEY`; KEY is EXIT, ERR, DEBUG, RETURN or SIGNAME; None resets."""
        ...

    def trap_listing(self, keys: list[str] | None = None) -> str:
        """`trap -p [KEY…]`: the traps as `trap -- 'ACTION' KEY` lines."""
        ...

    def run_trap(self, key: str) -> None:
        """Run the trap for KEY now, if one is set (`source` runs RETURN's)."""
        ...

    def deliver_signal(self, sig: int) -> bool:
        """A signal sent to the shell itself (`kill -SIG $$`): True when a trap takes it
        (it runs before the next statement; an ignored one does nothing), False when
        the signal's default action applies (the caller ends the shell)."""
        ...

    def builtin(self, name: str) -> Tool | None:
        """The builtin tool of that name, or None."""
        ...

    def call_tool(self, tool: Tool, name: str, args: list[Arg], fds: Fds) -> int:
        """Bind `args` to `tool` and run it as the command `name` with these fds."""
        ...

    def invoke(self, name: str, args: list[Arg], fds: Fds, *, functions: bool = True) -> int:
        """Run a command by name with expanded arguments: a function (unless
        `functions` is False), else a builtin or tool, else a program on PATH."""
        ...
