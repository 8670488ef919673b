"""`Kernel`: the embedding API — a session that runs scripts.

A kernel owns one session (variables, functions, cwd, options persist across calls),
one filesystem (the single door to files) and one tool registry. `execute()` never
raises for anything in the script: syntax errors, limits and internal faults come back
as an ExecResult with their status and message. The kernel never reads `os.environ`;
the `repl()` preset (used by the CLI) passes the real environment explicitly.

Presets:
  `Kernel(cwd)`          the host filesystem confined to `cwd`, external commands off
  `Kernel.repl()`        the real filesystem and environment, external commands on (the CLI)
  `Kernel.isolated()`    an in-memory filesystem (cwd /home/user), external commands off
  `Kernel.overlay(root)` reads `root`, writes to memory; `k.fs.changes()/diff()/commit()`

Exit-code contract of `execute()` (the status of the script otherwise, as in bash):

  code  meaning                                    err says
  ----  -----------------------------------------  --------------------------------------------
  0     success
  1     a command failed; a recursion (function    `tysh: f: maximum function nesting
        nesting) or loop-iteration limit was hit   exceeded (1000)`, `… loop iteration limit …`
  2     syntax error or a script nesting too       `tysh: syntax error at L:C: …`,
        deeply (nothing ran), usage errors         `tysh: script nests too deeply`
  3     output limit: stdout or stderr exceeded    `tysh: output limit of N bytes exceeded …`
        `max_output_bytes`; head and tail kept     (`ExecResult.truncated` is True)
        with a marker line between them
  70    internal fault (a bug in tysh or a tool)   `tysh: internal error: …`
  75    the kernel is busy: `execute()` is         `tysh: kernel is busy: execute() is
        already running in another thread          already running in another thread`
  124   time limit of the call exceeded            `tysh: time limit of Ns exceeded`
        (also `timeout` when its command expires)
  125   `timeout` itself failed (bad duration)
  126   found but not executable
  127   command not found                          `tysh: NAME: command not found
                                                   (external commands are disabled)`
  130   cancelled by `Kernel.cancel()`             `tysh: cancelled`
  141   a pipeline writer whose reader went away

A full in-memory filesystem is an ordinary command failure (`No space left on device`,
status 1). After any limit or fault the session stays usable.

`execute(src, stdin, cwd=, env=, timeout=)`: `cwd` and `env` apply to that call only —
the session's cwd and variables are restored afterwards (a `cd` inside such a call does
not persist either); without them a `cd` persists as in any session."""

from __future__ import annotations

import _thread
import io
import os
import sys
import time

from tysh.builtins import all_builtins, get_builtin
from tysh.kernel.base import stop
from tysh.kernel.base.control import BreakLoop, ContinueLoop, ExitShell, ReturnFromFunction
from tysh.kernel.base.errors import TyshError, TyshSyntaxError
from tysh.kernel.base.limits import (
    BUSY,
    CANCELLED,
    DEFAULT_MAX_FS_BYTES,
    INTERNAL_FAULT,
    NESTS_TOO_DEEPLY,
    OUTPUT_TRUNCATED,
    TIME_LIMIT,
    Cancelled,
    CappedOutput,
    LimitExceeded,
    Limits,
    Meter,
    RunControl,
    TimedOut,
    check_timeout,
)
from tysh.kernel.base.streams import CheckedBytesIO, Fds, flush_quietly
from tysh.kernel.base.threads import deep_recursion, hold_deep, release_deep
from tysh.kernel.base.values import clean_text, encode_text
from tysh.kernel.fs.api import INVALID_NUL, FileSystem
from tysh.kernel.fs.local import LocalFileSystem
from tysh.kernel.run.interpreter import Interpreter
from tysh.kernel.run.registry import Registry
from tysh.kernel.run.state import NEUTRAL_PID, State, attach_census
from tysh.kernel.syntax import ast
from tysh.kernel.syntax.parser import parse as parse_source
from tysh.kernel.tools.output import ExecResult

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import IO, Any

DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"
# the sandboxed presets' time limit of one call, in seconds: long enough for a build or
# a test run an agent waits on, short enough that a hung `read` or a forgotten server
# gives the harness its kernel back within minutes (Limits(timeout=...) overrides it)
DEFAULT_SANDBOX_TIMEOUT = 120.0


class Kernel:
    """A tysh session (see the module docstring for presets and the exit-code contract).

    `Kernel(cwd)` confines files to `cwd` and runs builtins, tools and functions only;
    `allow_external` adds programs on PATH: True for every one, or a list of names (as
    the script writes them) and absolute paths. `runner` says where they run: "bwrap"
    (the default under `Kernel(cwd)`: confined to `cwd` and a read-only system, no
    network unless `network=True`; see tysh.kernel.run.sandbox), "host" (plain host
    processes, unconfined; the default of `repl()` and of a `LocalFileSystem`), or a
    callable `runner(argv, cwd, env, stdin, stdout, stderr, limits) -> status` that
    runs them elsewhere. Without a usable bwrap a sandboxed kernel refuses programs
    unless `runner="host"`; `isolated()` and `overlay()` refuse them unless the runner
    is a callable (an in-memory tree has no host directory; an overlay's writes must
    stay in memory). `env` is merged over the hermetic defaults HOME=cwd, PATH, PWD —
    `os.environ` is never read. `limits` bounds output, time, recursion and loops.
    `disable` names builtins the script may not run by any route, and `enable` cannot
    turn back on. `jobs` is the policy for background jobs a call leaves running:
    "reap" (the default; `repl()` uses "keep") stops them before `execute()` returns,
    "keep" lets them run on until `cancel()` or `close()`; either way they stop at the
    time limit of the call that started them and at most `limits.max_jobs` run.
    `compat="bash"` runs existing bash scripts unchanged: unquoted expansions split on
    IFS and glob (`set -o sh_word_split`), and bash's glob rules.
    `mcp_servers` maps command names to MCP servers (a command and its arguments, or an
    http(s) URL) whose tools become those commands (see `connect_mcp`); the embedder
    trusts them, whatever the sandbox (a script may connect one only with external
    commands on)."""

    def __init__(
        self,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        allow_external: bool | Iterable[str] = False,
        fs: FileSystem | None = None,
        *,
        runner: str | Callable[..., int] | None = None,
        network: bool = False,
        limits: Limits | None = None,
        tools: list[Any] | tuple[Any, ...] = (),
        arg0: str = "tysh",
        args: list[str] | tuple[str, ...] = (),
        process_groups: bool = True,
        validate: bool = True,
        disable: Iterable[str] = (),
        jobs: str = "reap",
        compat: str | None = None,
        on_event: Callable[[dict[str, Any]], None] | None = None,
        mcp_servers: dict[str, list[str] | str] | None = None,
    ) -> None:
        if jobs not in ("reap", "keep"):
            raise ValueError(f"Kernel: jobs must be 'reap' or 'keep', not {jobs!r}")
        # "reap": background jobs a call leaves running are stopped when it returns;
        # "keep": they run on (the REPL) until they end, cancel() or close()
        self.job_policy = jobs
        # an embedded kernel refuses a script with certain problems before running any
        # of it; the CLI and REPL (validate=False) run like bash, problems and all
        self.validate_first = validate
        if fs is None:
            from tysh.kernel.fs.scratch import ScratchFileSystem

            cwd = os.path.abspath(cwd if cwd is not None else os.getcwd())
            fs = ScratchFileSystem(cwd, DEFAULT_MAX_FS_BYTES)
        elif cwd is None:
            cwd = os.getcwd() if isinstance(fs, LocalFileSystem) else "/"
        elif isinstance(fs, LocalFileSystem):
            cwd = os.path.abspath(cwd)
        if not fs.is_dir(cwd):
            raise ValueError(f"Kernel: cwd {cwd!r} is not a directory of its filesystem")
        self.fs = fs
        if limits is None:
            # a sandboxed kernel's call ends at a time limit unless the embedder says
            # otherwise; the host's own filesystem (the CLI, the REPL) has none
            limits = Limits() if type(fs) is LocalFileSystem else Limits(
                timeout=DEFAULT_SANDBOX_TIMEOUT)
        self.limits = limits
        full_env = {"HOME": cwd, "PATH": DEFAULT_PATH}
        if env is not None:
            full_env.update(env)
        self.meter = Meter(self.limits.max_memory)
        self.state = State(cwd, full_env, self.meter)
        attach_census(self.state)
        self.state.host_facts = type(fs) is LocalFileSystem
        self.state.pid = os.getpid() if self.state.host_facts else NEUTRAL_PID
        self.state.arg0 = arg0
        self.state.positional = list(args)
        if compat is not None:
            # "bash": unquoted expansions split and glob as in bash (sh_word_split) and
            # bash's glob rules; ValueError for another name
            self.state.set_compat(compat)
        if disable:
            off = frozenset(disable)
            self.state.disabled = off
            self.state.retable(locked=off)
        self.registry = Registry(get_builtin, all_builtins)
        for t in tools:
            self.registry.register(t)
        self.registry.servers_factory = _mcp_hub
        if allow_external is True and runner in (None, "host") and \
                type(fs) is LocalFileSystem:
            # every program, as host processes (the CLI, the REPL): nothing to decide
            self.externals: Any = None
            self.allow_external = True
        else:
            self.externals = _external_policy(allow_external, runner, fs, network)
            # whether any program may run (`allow_external=[]` allows none)
            self.allow_external = self.externals is not None and (
                self.externals.allowed is None or bool(self.externals.allowed))
        # an embedded kernel checks for a cancel at every pipe write too (a REPL, whose
        # cancel is Ctrl-C, skips that cost unless a time limit is set)
        self.control = RunControl(process_groups=process_groups,
                                  check_streams=process_groups)
        self.interp = Interpreter(
            self.state,
            self.registry,
            self.fs,
            allow_external=self.allow_external,
            limits=self.limits,
            control=self.control,
            externals=self.externals,
        )
        # the run's stop check, made once: captured stdout and `stop` take it every call
        self._boundary = self.interp.check_boundary
        # a filesystem wait (a FIFO, a deep mkdir -p) stops at this kernel's limits
        self.fs.set_checkpoint(self._fs_checkpoint)
        # problems of a parsed script, by id(script), with what names meant (_refuse);
        # the script is held so its id cannot be reused while the entry lives
        self._checked: dict[int, tuple[Any, ...]] = {}
        # what `execute(reset=True)` puts back: a new session's options and traps
        self._default_options = (frozenset(self.state.options), frozenset(self.state.shopt))
        self._busy = _thread.allocate_lock()
        self._ticket_lock = _thread.allocate_lock()
        # the lock of each call's captured stdout and stderr, shared: both are written
        # under it for a moment at a time, and a call need not make one of its own
        self._streams_lock = _thread.allocate_lock()
        # the capture streams of the last call, when nothing else kept them (_call)
        self._spare: tuple[CappedOutput, CappedOutput] | None = None
        self._owner: int | None = None
        self._listeners: list[Callable[[dict[str, Any]], None]] = []
        if on_event is not None:
            self.add_listener(on_event)
        for name, target in (mcp_servers or {}).items():
            self.connect_mcp(name, target)

    def _fs_checkpoint(self) -> None:
        """The filesystem's stop point: the run's limits while a call runs, nothing
        between calls (a REPL's completion lists directories after a cancelled run)."""
        if self._owner is not None:
            self.interp.check_boundary()

    # ---------------------------------------------------------------- presets
    @classmethod
    def repl(cls, cwd: str | None = None, **kw: Any) -> Kernel:
        """The real filesystem, the real environment and external commands (the CLI).
        External commands stay in the terminal's process group so editors and pagers
        keep the terminal; no memory budget unless `limits` sets one."""
        env = host_environment()
        env.update(kw.pop("env", None) or {})
        # bash's computed ids are its own, whatever the environment says
        for name in ("UID", "EUID", "PPID"):
            env.pop(name, None)
        if kw.get("limits") is None:
            kw["limits"] = Limits(max_memory=None)
        kw.setdefault("process_groups", False)
        kw.setdefault("validate", False)
        kw.setdefault("jobs", "keep")
        k = cls(cwd=cwd or os.getcwd(), env=env, allow_external=True, fs=LocalFileSystem(), **kw)
        if "HOME" not in env:  # as bash, a shell started without HOME has none
            k.state.frames[0].pop("HOME", None)
        # as bash: with none of LC_ALL, LC_CTYPE, LANG set, the locale is C (bytes)
        k.state.default_bytes = True
        return k

    @classmethod
    def isolated(
        cls,
        cwd: str = "/home/user",
        env: dict[str, str] | None = None,
        *,
        files: dict[str, bytes | str] | None = None,
        max_fs_bytes: int | None = DEFAULT_MAX_FS_BYTES,
        **kw: Any,
    ) -> Kernel:
        """An in-memory filesystem holding only `cwd` (created) and `files` (paths
        relative to `cwd` or absolute, text or bytes); `max_fs_bytes` bounds its content
        (writes past it fail with `No space left on device`; 256 MiB unless given, None
        for no bound). No host file is reachable."""
        import posixpath

        from tysh.kernel.fs.memory import MemoryFileSystem

        mem = MemoryFileSystem(max_bytes=max_fs_bytes)
        mem.mkdir(cwd, parents=True)
        mem.mkdir("/tmp", parents=True)
        for name, content in (files or {}).items():
            path = posixpath.join(cwd, name)
            mem.mkdir(posixpath.dirname(path), parents=True)
            data = content.encode("utf-8", "surrogateescape") if isinstance(content, str) \
                else content
            mem.write_bytes(path, data)
        return cls(cwd=cwd, env=env, fs=mem, **kw)

    @classmethod
    def overlay(cls, root: str, env: dict[str, str] | None = None, **kw: Any) -> Kernel:
        """`root` (confined) as a read-only lower layer with writes kept in memory: the
        embedder reviews `k.fs.changes()` / `k.fs.diff()` and applies them with
        `k.fs.commit(target_fs)` — or throws them away. `max_fs_bytes` bounds what the
        memory layer holds (256 MiB unless given, None for no bound)."""
        from tysh.kernel.fs.confined import ConfinedFileSystem
        from tysh.kernel.fs.overlay import OverlayFileSystem

        root = os.path.abspath(root)
        max_fs_bytes = kw.pop("max_fs_bytes", DEFAULT_MAX_FS_BYTES)
        fs = OverlayFileSystem(ConfinedFileSystem(root), max_bytes=max_fs_bytes)
        return cls(cwd=root, env=env, fs=fs, **kw)

    # ---------------------------------------------------------------- parsing
    def parse(self, src: str) -> ast.Script:
        """The syntax tree; raises TyshSyntaxError."""
        return parse_source(src)

    def validate(self, src: str) -> list[Any]:
        """Problems found before running (syntax errors included), as `Problem` values
        with 1-based line and column; an empty list means nothing is known to be wrong.
        Those with severity "error" refuse the script; "warning"s are in commands that
        may not run (a branch, after `&&`, a function never called)."""
        from tysh.kernel.embed.validate import syntax_problem

        try:
            script = self.parse(src)
        except TyshSyntaxError as e:
            return [syntax_problem(e)]
        return self._problems(script)

    def _problems(self, script: ast.Script, asked: set[str] | None = None) -> list[Any]:
        """`validate_script` with what names mean in this session (`asked` receives the
        names the result depends on)."""
        from tysh.kernel.embed.validate import validate_script

        policy = self.externals
        # a policy that refuses every program says why when one runs (status 126)
        every = self.allow_external if policy is None else (
            policy.allowed is None or policy.refusal is not None)
        unknown = None
        if policy is not None and not every:
            def unknown(name: str) -> str:
                return str(policy.refused(name)).removeprefix("tysh: ")
        with deep_recursion():  # the checks recurse once per level of nesting
            return validate_script(
                script,
                self.resolve_kind,
                allow_external=every,
                known_functions=set(self.state.functions),
                unknown=unknown,
                asked=asked,
            )

    def plan(self, src: str) -> list[Any]:
        """What the script would run, one `StatementPlan` per statement; nothing runs.
        Raises TyshSyntaxError for a script that does not parse."""
        from tysh.kernel.embed.plan import plan_script

        script = self.parse(src)
        with deep_recursion():  # the plan recurses once per level of nesting
            return plan_script(script, self.resolve_kind, set(self.state.functions))

    def resolve_kind(self, name: str) -> tuple[str | None, Any]:
        """What a command name means now: (kind, target) with kind one of
        "function" "builtin" "tool" "external", or (None, None)."""
        from tysh.kernel.run.registry import find_external

        fn = self.state.functions.get(name)
        if fn is not None:
            return "function", fn
        t = self.registry.builtin(name)
        if t is not None and name not in self.state.disabled:
            return "builtin", t
        t = self.registry.registered.get(name)
        if t is not None:
            return "tool", t
        policy = self.externals
        if policy is not None and callable(policy.runner) and policy.root is None:
            # the embedder's runner finds programs where it runs them
            return ("external", name) if policy.allows_name(name) else (None, None)
        if self.allow_external:
            path = self.state.get("PATH")
            host = find_external(name, path if isinstance(path, str) else None,
                                 self.state.cwd, self.fs)
            if host is not None and self.interp.may_run(name, host):
                return "external", host
        return None, None

    # ---------------------------------------------------------------- tools
    def register(self, tool: Any, fn: Callable[..., Any] | None = None) -> None:
        """Add a tool: a Tool (from `@tool`, `define_tool`, ...), or a raw definition
        `{"name", "description", "inputSchema", "annotations"?}` with the callable that
        runs it, `fn(args, ctx)` (validated with `jsonschema`; ToolDefinitionError lists
        every problem of the definition)."""
        if isinstance(tool, dict):
            from tysh.kernel.tools.values.raw import raw_tool

            if fn is None:
                raise TypeError("Kernel.register: a raw definition needs its callable")
            tool = raw_tool(tool, fn)
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
        if isinstance(value, str):
            value = clean_text(value)
        self.state.set(name, value, export=export or None)

    def cancel(self) -> None:
        """Stop the running script, from any thread: it ends at its next statement or
        loop iteration, sleeps return at once, external commands (and their process
        groups) are killed; `execute()` returns 130. Every background job stops too
        (under `jobs="keep"` they outlive the call that started them). Harmless when
        nothing runs."""
        self.control.cancel()
        self.control.stop_jobs(wait=0)

    def close(self) -> None:
        """Stop every background job (waiting up to a second for them to end), empty
        the private /tmp and disconnect every MCP server; the kernel stays usable."""
        self.control.stop_jobs()
        clear = getattr(self.fs, "clear_scratch", None)
        if clear is not None:
            clear()
        self.registry.close_servers()

    def connect_mcp(self, name: str, target: list[str] | str) -> list[str]:
        """Connect the MCP server `target` (a command and its arguments, spoken to over
        stdio; or an `http(s)://` URL, streamable HTTP) and register its tools as the
        two-level command `name` (`name TOOL ARGS…`); returns the tools' names. Raises
        ToolServerError when the server cannot be reached or listed."""
        hub = self.registry.tool_servers()
        assert hub is not None
        if isinstance(target, str):
            return hub.connect(name, url=target)[0]
        return hub.connect(name, command=list(target))[0]

    def __enter__(self) -> Kernel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def signal(self, sig: int) -> None:
        """Send signal number `sig` to the running script, from any thread, as `kill -SIG
        $$` would: a trap set for it (`trap CMD USR1`) runs at the script's next
        statement; an ignored one (`trap '' TERM`) does nothing; any other signal stops
        the script as `cancel()` does (after its INT trap, if it set one)."""
        if not self.interp.deliver_signal(sig):
            self.cancel()

    # ---------------------------------------------------------------- events
    def add_listener(self, callback: Callable[[dict[str, Any]], None]) -> None:
        """Call `callback(update)` with every tool-call event (docs/events.md) of every
        later run; one at a time, from the thread that runs the command."""
        from tysh.kernel.run.events import Emitter

        self._listeners.append(callback)
        if self.interp.events is None:
            self.interp.events = Emitter(self._fan_out)

    def remove_listener(self, callback: Callable[[dict[str, Any]], None]) -> None:
        """Stop calling `callback`; with no listener left, events cost nothing again."""
        for i, c in enumerate(self._listeners):
            if c is callback or c == callback:
                del self._listeners[i]
                break
        if not self._listeners:
            self.interp.events = None

    def _fan_out(self, update: dict[str, Any]) -> None:
        for c in tuple(self._listeners):
            c(update)

    def events(
        self,
        src: str | bytes,
        stdin: bytes | str = b"",
        *,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        timeout: float | None = None,
    ) -> Any:
        """Run a script as `execute()` does, yielding its tool-call events as they happen
        (an `EventRun`; its `result` is the ExecResult once the iteration ends). Leaving
        the loop early cancels the run."""
        from tysh.kernel.embed.events import EventRun

        text = _script_text(src, "events")
        return EventRun(self, lambda: self.execute(text, stdin, cwd=cwd, env=env,
                                                   timeout=timeout))

    # ---------------------------------------------------------------- running
    def execute(
        self,
        src: str | bytes,
        stdin: bytes | str = b"",
        *,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        timeout: float | None = None,
        binary: bool = False,
        reset: bool = False,
    ) -> ExecResult:
        """Run a script; stdout comes back as text (surrogateescape) or bytes.

        `cwd`/`env` hold for this call only; `timeout` (seconds) overrides the kernel's
        `limits.timeout`: `inf` is no limit, 0 a limit already passed (124 unless the
        script is cancelled first); negative or NaN raises ValueError before anything
        runs. `reset`: the session's shell options and traps are a new kernel's for this
        call (see `_reset_then`). Never raises for anything in the script (see the
        table); a script that is neither `str` nor `bytes` (bytes are read as UTF-8,
        other bytes kept) is a programming error: TypeError."""
        if type(src) is not str or not src.isascii():  # ASCII text is clean as it is
            src = _script_text(src, "execute")
        return self._call(self._reset_then if reset else self._run_src, src, stdin, cwd, env,
                          timeout, binary)

    def _reset_then(self, src: str, fds: Fds) -> int:
        """`execute(reset=True)`: the session's options (`set -e -u -x -o pipefail`,
        `shopt`) and traps go back to a new kernel's before the script runs; its
        variables, functions and cwd are kept. What the script sets then persists."""
        st = self.state
        st.options = set(self._default_options[0])
        st.shopt = set(self._default_options[1])
        st.traps = {}
        st.traps_shown = None
        self.control.trapped.clear()
        return self._run_src(src, fds)

    def execute_argv(
        self,
        name: str,
        argv: list[str],
        stdin: bytes | str = b"",
        *,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        timeout: float | None = None,
        binary: bool = False,
    ) -> ExecResult:
        """Run one command with argv as given: no parsing, no expansion."""
        from tysh.kernel.base.argv import classify
        from tysh.kernel.run.simple_command import invoke

        if not isinstance(name, str):
            raise TypeError(f"execute_argv: the name must be str, not {type(name).__name__}")
        if not isinstance(argv, (list, tuple)) or not all(
                isinstance(a, (str, bytes)) for a in argv):
            raise TypeError("execute_argv: argv must be a list of str or bytes")
        name = clean_text(name)
        words = [clean_text(a) if isinstance(a, str) else a for a in argv]

        def body(_: None, fds: Fds) -> int:
            interp = self.interp
            interp.cur_fds = fds
            interp.last_data = None
            return self._guard(lambda w, f: invoke(interp, name, classify(w), f, None), words,
                               fds)

        return self._call(body, None, stdin, cwd, env, timeout, binary)

    def execute_json(
        self,
        name: str,
        args: Any,
        *,
        path: list[str] | tuple[str, ...] = (),
        stdin: bytes | str = b"",
        json_output: bool = False,
        timeout: float | None = None,
    ) -> ExecResult:
        """Run a tool (the leaf at `path`) with a JSON argument object: JSON in,
        ExecResult out. Violations are a usage error, status 2, every one listed
        (`NAME: "limit" must be an integer`), and nothing runs."""
        t = self.registry.tool(name)
        if t is None:
            return ExecResult(127, "", f"tysh: {name}: no such tool")
        try:
            t.schema.node(path)
        except KeyError as e:
            return ExecResult(2, "", f"tysh: {e.args[0]}")
        viol = t.validate(args, path)
        if viol:
            return ExecResult(2, "", "".join(f"{name}: {v.message}\n" for v in viol))
        words = t.json_argv(args, path, json_output)
        from tysh.kernel.run.simple_command import invoke

        def body(_: None, fds: Fds) -> int:
            interp = self.interp
            interp.cur_fds = fds
            interp.last_data = None
            return self._guard(
                lambda w, f: invoke(interp, name, w, f, None, functions=False), words, fds)

        return self._call(body, None, stdin, None, None, timeout, False)

    async def aexecute(
        self,
        src: str | bytes,
        stdin: bytes | str = b"",
        *,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        timeout: float | None = None,
        binary: bool = False,
    ) -> ExecResult:
        """`execute()` for asyncio: runs in the loop's default executor. Cancelling the
        awaiting task cancels the script (as `cancel()`), waits for it to stop, and
        re-raises CancelledError, so the kernel is free again when the task ends."""
        import asyncio
        import functools

        ticket = _Ticket()
        src = _script_text(src, "aexecute")
        loop = asyncio.get_running_loop()
        call = functools.partial(
            self._call, self._run_src, src, stdin, cwd, env, timeout, binary, ticket)
        fut = loop.run_in_executor(None, call)
        try:
            return await asyncio.shield(fut)
        except asyncio.CancelledError:
            with self._ticket_lock:
                ticket.cancelled = True
                if ticket.running:
                    self.control.cancel()
            try:
                await asyncio.shield(fut)
            except BaseException:  # noqa: BLE001 — the task is being cancelled anyway
                pass
            raise

    def run(self, src: str, fds: Fds, *, timeout: float | None = None) -> int:
        """Run a script on the given streams (the CLI's real fds); returns the status.
        The same contract as `execute()`, minus output capture."""
        check_timeout(timeout)
        if not self._busy.acquire(blocking=False):
            _write(fds.get(2), self._busy_message() + "\n")
            return BUSY
        try:
            self._owner = _thread.get_ident()
            self.control.reset()
            self.interp.last_data = None
            return self._limited(self._run_src_to_end, src, fds, timeout)
        finally:
            self._owner = None
            self._busy.release()

    def run_script(self, script: ast.Script, fds: Fds, *, ends: bool = False) -> int:
        interp = self.interp
        interp.last_data = None
        interp.last_typed = False
        return self._guard(interp.run_toplevel, script, fds, ends)

    # ---------------------------------------------------------------- internals
    def _run_src(self, src: str, fds: Fds, ends: bool = False) -> int:
        """Run a script (the caller has cleared the last command's typed value); `ends`:
        the shell ends with it (the CLI), so its EXIT trap runs.
        `set -n` reads the rest of this script without running it; it ends with the
        script, as bash ignores it in a shell that takes more input, so a session is
        never left unable to run anything."""
        interp = self.interp
        try:
            if interp.reads_by_command(src):
                interp.last_typed = False
                return self._guard(self._run_by_command, src, fds, ends)
            try:
                script = parse_source(src)
            except TyshSyntaxError as e:
                _write(fds.get(2), e.format() + "\n")
                self.state.last_status = 2
                return 2
            except RecursionError:
                _write(fds.get(2), NESTS_TOO_DEEPLY + "\n")
                self.state.last_status = 2
                return 2
            except Exception as e:  # noqa: BLE001 — never a traceback
                _write(fds.get(2), f"tysh: internal error: {type(e).__name__}: {e}\n")
                return INTERNAL_FAULT
            if self.validate_first:
                refused = self._refuse(script, fds)
                if refused is not None:
                    self.state.last_status = refused
                    return refused
            interp.last_typed = False
            return self._guard(interp.run_toplevel, script, fds, ends)
        finally:
            options = self.state.options
            if "noexec" in options:
                options.discard("noexec")

    def _run_by_command(self, src: str, fds: Fds) -> int:
        """The script read and run a complete command at a time, each refused as
        `_run_src` refuses a whole script."""
        return self.interp.run_commands(src, fds, self._refuse if self.validate_first else None)

    def _run_src_to_end(self, src: str, fds: Fds) -> int:
        """`_run_src` of a script the shell ends with (the CLI's `run`)."""
        return self._run_src(src, fds, ends=True)

    def _refuse(self, script: ast.Script, fds: Fds) -> int | None:
        """Refuse a script with certain problems before any of it runs: every problem
        goes to stderr and the status is the first problem's (127 for an unknown
        command, 2 for a usage error), as if that command had run.

        Problems are remembered per parsed script (the parser hands back the same
        immutable Script for the same text). They depend only on the script and on what
        its command names mean: which of the names the checks asked about are session
        functions (however many other functions the session has), the registered tools
        and whether external commands are on. Which program PATH finds never changes a
        problem (external or unknown are both fine when externals are on), so it is not
        part of the key; builtins are fixed for the process, but `enable -n` turns some
        off for the session."""
        reg = self.registry
        key = (id(reg), reg.version, len(reg.registered), self.allow_external,
               self.state.disabled)
        fns = self.state.functions
        checked = self._checked
        hit = checked.get(id(script))
        if hit is not None and hit[0] is script and hit[1] == key and hit[3] == (
                fns.keys() & hit[2] if fns else _NO_NAMES):
            found = hit[4]
            if not found:  # the common case: nothing to load or filter
                return None
        else:
            asked: set[str] = set()
            try:
                found = self._problems(script, asked)
            except RecursionError:
                return None  # the run itself reports a script that nests too deeply
            if len(checked) >= _CHECKED_MAX:
                del checked[next(iter(checked))]
            # (script, what the registry and externals were, the names asked about,
            # those of them that were functions, the problems)
            names = frozenset(asked)
            checked[id(script)] = (script, key, names, fns.keys() & names, found)
            if not found:
                return None
        from tysh.kernel.embed.validate import errors, refusal_text

        problems = errors(found)
        if not problems:
            return None
        _write(fds.get(2), refusal_text(problems))
        return int(problems[0].code)

    def _busy_message(self) -> str:
        if self._owner == _thread.get_ident():
            return "tysh: kernel is busy: execute() is already running (a re-entrant call)"
        return "tysh: kernel is busy: execute() is already running in another thread"

    def _call(
        self,
        body: Callable[[Any, Fds], int],
        arg: Any,
        stdin: bytes | str,
        cwd: str | None,
        env: dict[str, str] | None,
        timeout: float | None,
        binary: bool,
        ticket: _Ticket | None = None,
    ) -> ExecResult:
        """One `execute`, `body(arg, fds)`: refuse when busy, capture the streams under
        the output limit, apply the per-call cwd/env, run under the time limit, build the
        result."""
        if timeout is not None:
            check_timeout(timeout)
        busy = self._busy
        if not busy.acquire(False):
            return ExecResult(BUSY, "", self._busy_message())
        try:
            self._owner = _thread.get_ident()
            control = self.control
            if ticket is not None:
                with self._ticket_lock:
                    control.reset()
                    ticket.running = True
                    if ticket.cancelled:
                        control.cancelled = True
            elif control.cancelled or control.pending or control.int_trap_ran:
                control.reset()  # a cancel or signal sent between calls is dropped
            if type(stdin) is not bytes and isinstance(stdin, str):
                stdin = encode_text(stdin)
            cap = self.limits.max_output_bytes
            if cap is None:
                return self._uncapped(body, arg, stdin, cwd, env, timeout, binary)
            spare = self._spare
            if spare is not None and spare[0].limit == cap:
                self._spare = None
                out, err = spare
                del spare  # (the streams' references are counted after the run)
            else:
                lock = self._streams_lock
                out = CappedOutput(cap, lock)
                err = CappedOutput(cap, lock)
            out.check = self._boundary
            fds: Fds = {0: io.BytesIO(stdin), 1: out, 2: err}
            interp = self.interp
            interp.last_data = None
            try:
                if cwd is None and not env:
                    code = self._limited(body, arg, fds, timeout)
                else:
                    code = self._overridden(body, arg, fds, cwd, env, timeout)
            finally:
                out.check = None
            # the descriptor tables of the run end empty (the interpreter may be left
            # holding this one or a redirection's)
            fds.clear()
            interp.cur_fds = fds
            try:
                raw = out.getvalue()
                err_raw = err.getvalue()
            except ValueError:
                return self._closed_result(out, err, binary)
            # `over` is read after the content: a stream is cut by setting it first,
            # and it never goes back, so a stream not over then held all written to it
            if out.over or err.over:
                return self._cut_result(code, out, err, raw, err_raw, binary)
            res = ExecResult(
                code,
                raw if binary else raw.decode("utf-8", "surrogateescape"),
                err_raw.decode("utf-8", "surrogateescape") if err_raw else "",
                interp.last_data,
            )
            # the streams are kept for the next call when nothing else holds them:
            # making them (io subclasses, finalised when freed) costs a tenth of a short
            # command. A stream anything else still references (a job still running, a
            # tool that kept its context, a typed value reading what a tool wrote) is
            # left to that holder, and the next call makes new ones; so is one that
            # passed its limit or was closed (both above).
            if _refcount(out) == _ONLY_HERE and _refcount(err) == _ONLY_HERE:
                if out.total:
                    out.clear()
                if err.total:
                    err.clear()
                self._spare = (out, err)
            return res
        finally:
            if ticket is not None:
                with self._ticket_lock:
                    ticket.running = False
            self._owner = None
            busy.release()

    def _uncapped(self, body: Callable[[Any, Fds], int], arg: Any, stdin: bytes,
                  cwd: str | None, env: dict[str, str] | None, timeout: float | None,
                  binary: bool) -> ExecResult:
        """`_call`'s run and result without an output limit: stdout is charged to the
        memory budget (when there is one) while the result is built, then released."""
        interp = self.interp
        meter = self.meter
        out = CheckedBytesIO(interp, meter if meter.limited else None)
        err = io.BytesIO()
        fds: Fds = {0: io.BytesIO(stdin), 1: out, 2: err}
        interp.last_data = None
        try:
            try:
                if cwd is None and not env:
                    code = self._limited(body, arg, fds, timeout)
                else:
                    code = self._overridden(body, arg, fds, cwd, env, timeout)
            finally:
                out.interp = None
            try:
                raw = out.getvalue()
                err_raw = err.getvalue()
            except ValueError:
                return self._closed_result(out, err, binary)
            return ExecResult(
                code,
                raw if binary else raw.decode("utf-8", "surrogateescape"),
                err_raw.decode("utf-8", "surrogateescape") if err_raw else "",
                interp.last_data,
            )
        finally:
            out.release()

    def _overridden(self, body: Callable[[Any, Fds], int], arg: Any, fds: Fds,
                    cwd: str | None, env: dict[str, str] | None,
                    timeout: float | None) -> int:
        """`_limited` with the call's own cwd and env, put back afterwards; 2 (with the
        message on stderr, nothing run) when the cwd cannot be used."""
        restore = self._override(cwd, env)
        if isinstance(restore, str):
            _write(fds[2], restore + "\n")
            return 2
        try:
            return self._limited(body, arg, fds, timeout)
        finally:
            restore()

    def _limited(self, body: Callable[[Any, Fds], int], arg: Any, fds: Fds,
                 timeout: float | None) -> int:
        """Run `body(arg, fds)` under the time limit; turn a passed deadline or a cancel
        into 124 / 130."""
        secs = self.limits.timeout if timeout is None else timeout
        if type(secs) is not float or secs == _INF:
            secs = check_timeout(secs)  # None or `inf` is no limit; an int becomes a float
        interp = self.interp
        deadline = interp.deadline = None if secs is None else _monotonic() + secs
        if deadline is not None and deadline < interp.due:  # (Interpreter.set_deadline)
            interp.due = deadline
        hold_deep()
        try:
            code = body(arg, fds)
        finally:
            release_deep()
            interp.deadline = None
            control = self.control
            if control.live and self.job_policy == "reap":
                control.stop_jobs()
        if control.cancelled:
            _write(fds.get(2), "tysh: cancelled\n")
            code = CANCELLED
        elif deadline is not None and _monotonic() >= deadline:
            _write(fds.get(2), f"tysh: time limit of {secs:g}s exceeded\n")
            code = TIME_LIMIT
        self.state.last_status = code
        return code

    def _override(self, cwd: str | None, env: dict[str, str] | None) -> Callable[[], None] | str:
        """Apply a call's cwd/env; returns the undo (or an error message)."""
        from tysh.kernel.run.state import Var

        if cwd is None and not env:
            return _nothing
        st = self.state
        g = st.frames[0]
        saved: dict[str, Var | None] = {}
        saved_cwd = st.cwd
        names = list(env or ())
        if cwd is not None:
            if "\0" in cwd:
                return f"tysh: execute: cwd {cwd!r}: {INVALID_NUL}"
            path = self.interp.abspath(cwd)
            if not self.fs.is_dir(path):
                return f"tysh: execute: cwd {cwd}: No such directory in the sandbox"
            names += ["PWD", "OLDPWD"]
        for n in names:
            old = g.get(n)
            saved[n] = old.copy() if old is not None else None
        for k, v in (env or {}).items():
            g[k] = Var(clean_text(v) if isinstance(v, str) else v, exported=True)
        if cwd is not None:
            st.cwd = path
            g["PWD"] = Var(path, exported=True)
        if not saved:
            return _nothing

        def undo() -> None:
            st.cwd = saved_cwd
            for n, var in saved.items():
                if var is None:
                    g.pop(n, None)
                else:
                    g[n] = var

        return undo

    def _guard(self, fn: Callable[[Any, Fds], int], arg: Any, fds: Fds,
               ends: bool = False) -> int:
        """Run `fn(arg, fds)`, turning whatever it raises into a status and a message.
        When the shell ends (`exit`, `set -e`, a cancel; or the script's end when
        `ends`), its INT trap (for a cancel) and EXIT trap run first."""
        interp = self.interp
        st = self.state
        frames = len(st.frames)
        func_depth = st.func_depth
        loop_depth = st.loop_depth
        calls = len(st.calls)
        # code with no context (pattern matching during expansion, a regex engine's
        # slices, a worker process) stops on the run's own check
        here = stop.current
        saved_check = here.check
        here.check = self._boundary
        try:
            try:
                status = fn(arg, fds)
                if type(status) is not int:
                    status = int(status)
            except ExitShell as e:
                if not st.traps:
                    raise
                status = self._at_exit(e.status, fds, isinstance(e, Cancelled))
            else:
                if ends and st.traps:
                    status = self._at_exit(status, fds, False)
        except ExitShell as e:
            status = e.status
        except ReturnFromFunction as e:
            status = e.status
        except (BreakLoop, ContinueLoop):
            status = st.last_status
        except TimedOut:
            status = TIME_LIMIT
        except LimitExceeded as e:
            _write(fds.get(2), e.message + "\n")
            status = 1
        except RecursionError:
            _write(fds.get(2), NESTS_TOO_DEEPLY + "\n")
            status = 2
        except BrokenPipeError:
            status = 141
        except KeyboardInterrupt:
            status = CANCELLED
        except SystemExit as e:
            # a tool (or a registered Python function) called sys.exit(): its status
            status = _exit_status(e, fds)
        except MemoryError:
            _write(fds.get(2), "tysh: out of memory\n")
            status = 1
        except TyshError as e:
            msg = e.message
            _write(fds.get(2), (msg if msg.startswith("tysh:") else "tysh: " + msg) + "\n")
            status = e.status
        except Exception as e:  # noqa: BLE001 — never a traceback
            _write(fds.get(2), f"tysh: internal error: {type(e).__name__}: {e}\n")
            status = INTERNAL_FAULT
        finally:
            here.check = saved_check
            # a limit or fault may have unwound function calls without their cleanup
            if len(st.frames) > frames:
                del st.frames[frames:]
            st.func_depth = func_depth
            st.loop_depth = loop_depth
            if len(st.calls) > calls:
                del st.calls[calls:]
            interp.suppress_errexit = 0
            if interp.exec_opened:
                interp.close_exec_files()
            # `exec >file` may have put a file in the table (execute()'s own in-memory
            # streams need no flush)
            out = fds.get(1)
            err = fds.get(2)
            if type(out) is not CappedOutput or type(err) is not CappedOutput:
                flush_quietly(out)
                flush_quietly(err)
        st.last_status = status
        return status

    def _at_exit(self, status: int, fds: Fds, cancelled: bool) -> int:
        """The shell ends with `status`: a cancel runs the INT trap first, then the EXIT
        trap runs (a cancel is lowered while they run; a second cancel stops them)."""
        interp = self.interp
        control = self.control
        if not cancelled:
            return interp.exit_trap(status, fds)
        import _signal as signal  # type: ignore[import-not-found,unused-ignore]  # (no enum)

        control.cancelled = False
        try:
            if not control.int_trap_ran and control.trapped.get(signal.SIGINT):
                control.int_trap_ran = True
                interp.run_trap("SIGINT")
            return interp.exit_trap(status, fds)
        finally:
            control.cancelled = True

    def _closed_result(self, out: io.BytesIO, err: io.BytesIO, binary: bool) -> ExecResult:
        """The result of a call in which a command closed the call's stdout or stderr
        (a fault of that command): what the closed stream held is gone, so the call
        fails as at any internal fault, with what the other stream kept."""
        raw, err_raw = _kept(out), _kept(err)
        err_text = err_raw.decode("utf-8", "surrogateescape") if err_raw else ""
        err_text = err_text.rstrip("\n") + ("\n" if err_text else "") + (
            f"tysh: internal error: a command closed the call's "
            f"{'stdout' if out.closed else 'stderr'}; what it held is lost")
        self.state.last_status = INTERNAL_FAULT
        return ExecResult(
            INTERNAL_FAULT,
            raw if binary else raw.decode("utf-8", "surrogateescape"),
            err_text,
            self.interp.last_data,
            None,
            any(type(s) is CappedOutput and s.over for s in (out, err)),
        )

    def _cut_result(self, code: int, out: CappedOutput, err: CappedOutput, raw: bytes,
                    err_raw: bytes, binary: bool) -> ExecResult:
        """The result of a call whose stdout or stderr passed the output limit: what
        each kept, the limit's message after stderr, and status 3 unless a fault, a
        time limit or a cancel says more."""
        out_cut = err_cut = None
        if out.over:
            out_cut = out
            raw = out.result()
        if err.over:
            err_cut = err
            err_raw = err.result()
        err_text = err_raw.decode("utf-8", "surrogateescape") if err_raw else ""
        cut = out_cut if out_cut is not None else err
        if code not in _KEEP_CODE:
            omitted = sum(s.omitted for s in (out_cut, err_cut) if s is not None)
            err_text = err_text.rstrip("\n") + ("\n" if err_text else "") + (
                f"tysh: output limit of {cut.limit} bytes exceeded ({omitted} bytes "
                f"omitted; the script's own status was {code})"
            )
            code = OUTPUT_TRUNCATED
            self.state.last_status = code
        return ExecResult(
            code,
            raw if binary else raw.decode("utf-8", "surrogateescape"),
            err_text,
            self.interp.last_data,
            None,
            True,
        )

def _external_policy(allow: bool | Iterable[str], runner: str | Callable[..., int] | None,
                     fs: FileSystem, network: bool) -> Any:
    """The kernel's ExternalPolicy (None: no program may run). A filesystem confined to
    a directory (`Kernel(cwd)`, `overlay`) or held in memory (`isolated`) makes bwrap
    the default runner; the host's own filesystem (`repl()`) runs programs on the host."""
    if allow is False and runner is None:
        return None
    from tysh.kernel.fs.confined import ConfinedFileSystem
    from tysh.kernel.fs.overlay import OverlayFileSystem
    from tysh.kernel.run.sandbox import make_policy

    scratch = None
    if isinstance(fs, ConfinedFileSystem):
        root: str | None = fs.root
        from tysh.kernel.fs.scratch import ScratchFileSystem

        if isinstance(fs, ScratchFileSystem):
            scratch = fs
    elif isinstance(fs, LocalFileSystem):
        root = "/"
    elif isinstance(fs, OverlayFileSystem):
        root = "/"  # refused below: the overlay's writes must stay in memory
    else:
        root = None
    policy = make_policy(allow, runner, sandboxed=type(fs) is not LocalFileSystem, root=root,
                         network=network, overlay=isinstance(fs, OverlayFileSystem))
    if scratch is not None and policy is not None and policy.runner == "bwrap" \
            and policy.refusal is None and (policy.allowed is None or policy.allowed):
        # programs under bwrap get the kernel's own /tmp: a host directory, bound there
        scratch.use_host_dir()
        policy = policy.evolve(scratch=scratch.host_dir)
    return policy


# the names Python's start-up gives LC_CTYPE when it finds the C locale (PEP 538)
_COERCED = ("C.UTF-8", "C.utf8", "UTF-8")


def host_environment() -> dict[str, str]:
    """The process's environment as the shell that started it set it: Python, started
    in the C locale, sets LC_CTYPE to a UTF-8 locale (PEP 538) and turns on its UTF-8
    mode; a shell started there is in the C locale (bash counts bytes), so that
    LC_CTYPE is taken back out — or, when LANG names a UTF-8 locale and so only an
    LC_CTYPE naming C can have been replaced, put back to C."""
    import sys

    env = dict(os.environ)
    if (sys.flags.utf8_mode and env.get("LC_CTYPE") in _COERCED and "LC_ALL" not in env
            and "PYTHONUTF8" not in env and env.get("PYTHONCOERCECLOCALE") != "0"):
        from tysh.kernel.base.values import is_byte_locale

        lang = env.get("LANG")
        if lang and not is_byte_locale(lang):
            env["LC_CTYPE"] = "C"
        else:
            del env["LC_CTYPE"]
    return env


def _mcp_hub(registry: Registry) -> Any:
    """The kernel's MCP connections, made when a script or the embedder first connects
    one (the SDK loads only then)."""
    from tysh.mcp.client import McpHub

    return McpHub(registry)


# references to a stream held by `_call`'s local and getrefcount's own argument: a
# stream counted at that is held by nobody else
_ONLY_HERE = 2
# (without getrefcount, as on other Pythons, no stream is ever reused)
_refcount: Callable[[Any], int] = getattr(sys, "getrefcount", lambda _: 0)

_NO_NAMES: frozenset[str] = frozenset()
_INF = float("inf")
_monotonic = time.monotonic
_CHECKED_MAX = 64

# a fault, a time limit or a cancel says more than "the output was long"
_KEEP_CODE = frozenset({INTERNAL_FAULT, TIME_LIMIT, CANCELLED, BUSY})


class _Ticket:
    """One `aexecute` call's claim on cancellation (so a cancelled task never stops a
    later script, and a script whose task was cancelled before it began never runs)."""

    __slots__ = ("cancelled", "running")

    def __init__(self) -> None:
        self.cancelled = False
        self.running = False


def _nothing() -> None:
    pass


def _exit_status(e: SystemExit, fds: Fds) -> int:
    """The status `sys.exit(code)` asks for, as Python's own exit reads it: None is 0,
    an int is itself, anything else is printed and means 1."""
    code = e.code
    if code is None:
        return 0
    if isinstance(code, int) and not isinstance(code, bool):
        return code & 0xFF
    _write(fds.get(2), f"{code}\n")
    return 1


def _kept(stream: io.BytesIO) -> bytes:
    """What a capture stream kept (nothing once closed)."""
    if stream.closed:
        return b""
    return stream.result() if type(stream) is CappedOutput else stream.getvalue()


def _write(stream: IO[bytes] | None, text: str) -> None:
    if stream is None:
        return
    try:
        stream.write(encode_text(text))
    except (OSError, ValueError):
        pass


def _script_text(src: object, what: str) -> str:
    """A script as the kernel reads it: text with lone surrogates made bash's bytes, or
    bytes read as UTF-8 with undecodable bytes kept (surrogateescape)."""
    if isinstance(src, bytes):
        return src.decode("utf-8", "surrogateescape")
    if isinstance(src, str):
        return clean_text(src)
    raise TypeError(f"{what}: the script must be str or bytes, not {type(src).__name__}")
