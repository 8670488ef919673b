"""`Kernel`: the embedding API (DESIGN §6) — a session that runs scripts.

A kernel owns one session (variables, functions, cwd, options persist across calls),
one filesystem (the single door to files) and one tool registry. `execute()` never
raises for anything in the script: syntax errors, limits and internal faults come back
as an ExecResult with their status and message. The kernel never reads `os.environ`;
the `repl()` preset (used by the CLI) passes the real environment explicitly."""

from __future__ import annotations

import io
import os
import sys
import threading
from typing import IO, Any

from tysh.kernel import ast
from tysh.kernel.control import BreakLoop, ContinueLoop, ExitShell, ReturnFromFunction
from tysh.kernel.errors import TyshError, TyshSyntaxError
from tysh.kernel.fs import FileSystem, LocalFileSystem
from tysh.kernel.interpreter import Interpreter, LimitExceeded, Limits
from tysh.kernel.output import ExecResult
from tysh.kernel.registry import Registry
from tysh.kernel.state import State
from tysh.kernel.streams import Fds, flush_quietly

_RECURSION_READY = False


def _prepare_recursion() -> None:
    """Deep shell recursion needs deep Python recursion; the function-depth limit ends it
    cleanly long before the interpreter's own limit would."""
    global _RECURSION_READY
    if _RECURSION_READY:
        return
    _RECURSION_READY = True
    if sys.getrecursionlimit() < 40000:
        sys.setrecursionlimit(40000)
    try:
        threading.stack_size(256 * 1024 * 1024)
    except (ValueError, RuntimeError):
        pass


class Kernel:
    """A tysh session. `Kernel()` runs builtins and functions only; `allow_external=True`
    adds commands on PATH; `Kernel.repl()` is the real environment with externals on."""

    def __init__(
        self,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        allow_external: bool = False,
        fs: FileSystem | None = None,
        *,
        limits: Limits | None = None,
        tools: list[Any] | tuple[Any, ...] = (),
        arg0: str = "tysh",
        args: list[str] | tuple[str, ...] = (),
    ) -> None:
        _prepare_recursion()
        self.fs = fs if fs is not None else LocalFileSystem()
        cwd = cwd if cwd is not None else os.getcwd()
        cwd = os.path.abspath(cwd) if isinstance(self.fs, LocalFileSystem) else cwd
        env = dict(env) if env is not None else {"HOME": cwd}
        self.state = State(cwd, env)
        self.state.pid = os.getpid()
        self.state.arg0 = arg0
        self.state.positional = list(args)
        self.registry = Registry()
        for t in tools:
            self.registry.register(t)
        self.allow_external = allow_external
        self.cancel_event = threading.Event()
        self.interp = Interpreter(
            self.state,
            self.registry,
            self.fs,
            allow_external=allow_external,
            limits=limits,
            cancel=self.cancel_event,
        )

    # ---------------------------------------------------------------- presets
    @classmethod
    def repl(cls, cwd: str | None = None, **kw: Any) -> Kernel:
        """The real filesystem, the real environment and external commands."""
        env = dict(os.environ)
        cwd = cwd or os.getcwd()
        return cls(cwd=cwd, env=env, allow_external=True, fs=LocalFileSystem(), **kw)

    # ---------------------------------------------------------------- parsing
    def parse(self, src: str) -> ast.Script:
        """The syntax tree; raises TyshSyntaxError."""
        from tysh.kernel.parser import parse

        return parse(src)

    def validate(self, src: str) -> list[Any]:
        """Problems found before running (syntax errors included), as values."""
        from tysh.kernel.validate import syntax_problem, validate_script

        try:
            script = self.parse(src)
        except TyshSyntaxError as e:
            return [syntax_problem(e)]
        return validate_script(
            script,
            self.resolve_kind,
            allow_external=self.allow_external,
            known_functions=set(self.state.functions),
        )

    def resolve_kind(self, name: str) -> tuple[str | None, Any]:
        """What a command name means now: (kind, target) with kind one of
        "function" "builtin" "tool" "external", or (None, None)."""
        from tysh.kernel.registry import find_external

        fn = self.state.functions.get(name)
        if fn is not None:
            return "function", fn
        t = self.registry.builtin(name)
        if t is not None:
            return "builtin", t
        t = self.registry.registered.get(name)
        if t is not None:
            return "tool", t
        if self.allow_external:
            path = self.state.get("PATH")
            host = find_external(name, path if isinstance(path, str) else None,
                                 self.state.cwd, self.fs)
            if host is not None:
                return "external", host
        return None, None

    # ---------------------------------------------------------------- tools
    def register(self, tool: Any) -> None:
        self.registry.register(tool)

    def tools(self) -> list[Any]:
        return self.registry.all_tools()

    def schema(self, name: str) -> Any:
        t = self.registry.tool(name)
        return t.schema if t is not None else None

    # ---------------------------------------------------------------- session
    @property
    def cwd(self) -> str:
        return self.state.cwd

    def get_var(self, name: str) -> Any:
        return self.state.get(name)

    def set_var(self, name: str, value: Any, export: bool = False) -> None:
        self.state.set(name, value, export=export or None)

    def cancel(self) -> None:
        """Ask the running script to stop (loops and cooperative tools check it)."""
        self.cancel_event.set()

    # ---------------------------------------------------------------- running
    def execute(self, src: str, stdin: bytes | str = b"", *, binary: bool = False) -> ExecResult:
        """Run a script; stdout comes back as text (surrogateescape) or bytes."""
        if isinstance(stdin, str):
            stdin = stdin.encode("utf-8", "surrogateescape")
        out = io.BytesIO()
        err = io.BytesIO()
        fds: Fds = {0: io.BytesIO(stdin), 1: out, 2: err}
        code = self.run(src, fds)
        return self._result(code, out, err, binary)

    def execute_argv(
        self, name: str, argv: list[str], stdin: bytes | str = b"", *, binary: bool = False
    ) -> ExecResult:
        """Run one command with argv as given: no parsing, no expansion."""
        from tysh.kernel.argv import classify
        from tysh.kernel.simple import invoke

        if isinstance(stdin, str):
            stdin = stdin.encode("utf-8", "surrogateescape")
        out = io.BytesIO()
        err = io.BytesIO()
        fds: Fds = {0: io.BytesIO(stdin), 1: out, 2: err}
        interp = self.interp
        interp.cur_fds = fds
        interp.last_data = None
        code = self._guard(lambda: invoke(interp, name, classify(list(argv)), fds, None), fds)
        return self._result(code, out, err, binary)

    def run(self, src: str, fds: Fds) -> int:
        """Run a script on the given streams (the CLI's real fds); returns the status."""
        try:
            script = self.parse(src)
        except TyshSyntaxError as e:
            _write(fds.get(2), e.format() + "\n")
            self.state.last_status = 2
            return 2
        except RecursionError:
            _write(fds.get(2), "tysh: syntax error: nesting too deep\n")
            return 2
        except Exception as e:  # noqa: BLE001
            _write(fds.get(2), f"tysh: internal error: {e!r}\n")
            return 70
        return self.run_script(script, fds)

    def run_script(self, script: ast.Script, fds: Fds) -> int:
        interp = self.interp
        interp.last_data = None
        interp.last_typed = False
        return self._guard(lambda: interp.run_script(script, fds), fds)

    def _guard(self, fn: Any, fds: Fds) -> int:
        interp = self.interp
        st = self.state
        depth = (len(st.frames), st.func_depth, st.loop_depth, list(st.positional))
        try:
            status = int(fn())
        except ExitShell as e:
            status = e.status
        except ReturnFromFunction as e:
            status = e.status
        except (BreakLoop, ContinueLoop):
            status = st.last_status
        except LimitExceeded as e:
            _write(fds.get(2), e.message + "\n")
            status = 1
        except RecursionError:
            _write(fds.get(2), "tysh: maximum nesting exceeded\n")
            status = 1
        except BrokenPipeError:
            status = 141
        except KeyboardInterrupt:
            status = 130
        except TyshError as e:
            msg = e.message
            _write(fds.get(2), (msg if msg.startswith("tysh:") else "tysh: " + msg) + "\n")
            status = e.status
        except Exception as e:  # noqa: BLE001 — never a traceback
            _write(fds.get(2), f"tysh: internal error: {type(e).__name__}: {e}\n")
            status = 70
        finally:
            # a limit or fault may have unwound function calls without their cleanup
            del st.frames[depth[0]:]
            st.func_depth = depth[1]
            st.loop_depth = depth[2]
            if st.func_depth == 0:
                st.func_names.clear()
            interp.suppress_errexit = 0
            flush_quietly(fds.get(1))
            flush_quietly(fds.get(2))
        st.last_status = status
        self.cancel_event.clear()
        return status

    def _result(self, code: int, out: io.BytesIO, err: io.BytesIO, binary: bool) -> ExecResult:
        raw = out.getvalue()
        err_text = err.getvalue().decode("utf-8", "surrogateescape")
        if err_text:
            err_text = err_text.rstrip("\n") + "\n"
        return ExecResult(
            code=code,
            out=raw if binary else raw.decode("utf-8", "surrogateescape"),
            err=err_text,
            data=self.interp.last_data,
        )


def _write(stream: IO[bytes] | None, text: str) -> None:
    if stream is None:
        return
    try:
        stream.write(text.encode("utf-8", "surrogateescape"))
    except (OSError, ValueError):
        pass
