"""The interpreter: walks the AST of ast.py against a session (state.py).

One `Interpreter` runs one (sub)shell: the kernel's top-level session, or a copy made
for a subshell, a pipeline stage, a command substitution or a background job (`fork`).
Commands receive their open files as an fd table (`Fds`); redirections build a new one.
Non-local control flow (`exit`, `return`, `break`, `continue`, `set -e`) travels as the
exceptions of control.py. The simple-command path is the hot path and stays lean:
no thread, no pipe, no copy for a single command.

The interpreter is also the `ShellAPI` a tool sees through `ctx.shell` and the host
the expansion stage reads variables from and runs `$(…)` with."""

from __future__ import annotations

import os
import time

from tysh.kernel.base import stop, threads
from tysh.kernel.base.argv import Arg
from tysh.kernel.base.control import (
    BreakLoop,
    ContinueLoop,
    ExitShell,
    ReturnFromFunction,
)
from tysh.kernel.base.errors import ExpansionError, TyshError
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.lazyre import DOTALL, LazyRegex
from tysh.kernel.base.limits import (
    NESTS_TOO_DEEPLY,
    UNBOUNDED,
    Cancelled,
    LimitExceeded,
    Limits,
    MemoryLimitExceeded,
    RunControl,
    TimedOut,
)
from tysh.kernel.base.paths import abspath
from tysh.kernel.base.record import replace
from tysh.kernel.base.streams import NULL_IO, CheckedBytesIO, Fds, flush_quietly
from tysh.kernel.base.threads import start_deep
from tysh.kernel.base.values import AssocArray, encode_text, to_text
from tysh.kernel.expand import words as expand
from tysh.kernel.fs.api import FileSystem
from tysh.kernel.run import simple_command
from tysh.kernel.run.redirects import RedirectError, apply_redirects, close_all
from tysh.kernel.run.registry import Registry, find_external
from tysh.kernel.run.simple_command import run_simple
from tysh.kernel.run.state import State
from tysh.kernel.syntax import ast

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import IO, Any

    from tysh.kernel.expand import arith, pattern
    from tysh.kernel.expand.glob import GlobOptions
    from tysh.kernel.run import cond, pipeline
    from tysh.kernel.run.filemode import MaskedFileSystem
    from tysh.kernel.run.jobs import JobControl, JobTable
    from tysh.kernel.run.plan import Plan
    from tysh.kernel.tools.tool import Tool
else:  # loaded by the first arithmetic or `case` that runs
    arith = LazyModule(globals(), "arith", "tysh.kernel.expand.arith")
    pattern = LazyModule(globals(), "pattern", "tysh.kernel.expand.pattern")
    cond = LazyModule(globals(), "cond", "tysh.kernel.run.cond")  # by the first `[[ … ]]`
    # by the first pipeline (it loads `threading`)
    pipeline = LazyModule(globals(), "pipeline", "tysh.kernel.run.pipeline")

_monotonic = time.monotonic

__all__ = ["Interpreter", "LimitExceeded", "Limits", "TimedOut"]

_NAME = LazyRegex(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_SUBSCRIPTED = LazyRegex(r"([A-Za-z_][A-Za-z0-9_]*)\[(.+)\]\Z", DOTALL)
_ELEMENT_REF = LazyRegex(r"([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]", DOTALL)


class Interpreter:
    """Runs statements against one session.

    What `__init__` takes is what a child shell inherits from its parent (`fork` passes
    it all on; the session state itself is copied); the other fields are the result of
    the command being run and start afresh in every child."""

    __slots__ = ("state", "registry", "fs", "allow_external", "limits", "control", "_parse",
                 "suppress_errexit", "cur_fds", "source_depth", "deadline", "due", "host_signals",
                 "events", "externals", "keeps_value", "last_data", "last_typed", "cmdsub_status", "_jobs",
                 "_masked", "running_traps", "exec_opened", "procsubs", "decl_arrays")

    def __init__(
        self,
        state: State,
        registry: Registry,
        fs: FileSystem,
        allow_external: bool = False,
        limits: Limits | None = None,
        control: RunControl | None = None,
        parse: Callable[[str], ast.Script] | None = None,
        suppress_errexit: int = 0,
        cur_fds: Fds | None = None,
        source_depth: int = 0,
        deadline: float | None = None,
        host_signals: bool = False,
        events: Any = None,
        externals: Any = None,
        keeps_value: bool = True,
    ) -> None:
        self.state = state
        self.registry = registry
        self.fs = fs
        self.allow_external = allow_external
        self.limits = Limits() if limits is None else limits
        self.control = RunControl() if control is None else control
        self._parse = parse
        self.suppress_errexit = suppress_errexit
        self.cur_fds: Fds = {} if cur_fds is None else cur_fds
        self.source_depth = source_depth
        self.deadline = deadline
        self.due = 0.0  # (see check_boundary)
        # a host session's top shell (the CLI): `trap` installs real OS signal handlers
        self.host_signals = host_signals
        # the tool-call events' emitter (run/events.py), or None: nobody is listening
        self.events = events
        # which programs may run and how (sandbox.ExternalPolicy); None: every program,
        # on the host, when `allow_external`
        self.externals = externals
        # False in a pipeline stage before the last, whose commands' typed values nobody
        # can read: tools skip the copy of their output they would keep for one
        self.keeps_value = keeps_value
        self.last_data: Any = None
        self.last_typed = False
        self.cmdsub_status: int | None = None
        self._jobs: JobTable | None = None
        self._masked: MaskedFileSystem | None = None
        # the traps running now (a trap never interrupts itself)
        self.running_traps: set[str] = set()
        # the files `exec 3>f` opened for this shell: open until it ends (close_exec_files)
        self.exec_opened: list[IO[bytes]] = []
        # the open process substitutions of the command being run (procsub.py)
        self.procsubs: list[Any] = []
        # `declare a=(…)` in the source: the array literals of the declaration command
        # being run, keyed by their argument's text (the builtin sees only text)
        self.decl_arrays: dict[str, ast.ArrayLit] | None = None
        state.key_text = self.subscript_text
        state.key_index = self.eval_arith_text

    # ------------------------------------------------------------------ forks
    def fork(self) -> Interpreter:
        """A child shell on a copy of the session (subshell, pipeline stage, `$(…)`)."""
        if self.state.subshell >= self.limits.max_subshell_depth:
            raise LimitExceeded("tysh: maximum subshell nesting exceeded")
        return self._child(self.state.copy())

    def fork_reading_variables(self) -> Interpreter:
        """`fork()` for a command that never assigns a variable: the child reads the
        session's variables in place instead of copies (State.copy_reading_variables)."""
        if self.state.subshell >= self.limits.max_subshell_depth:
            raise LimitExceeded("tysh: maximum subshell nesting exceeded")
        return self._child(self.state.copy_reading_variables())

    def _child(self, state: State) -> Interpreter:
        """`Interpreter(state, …)` with every argument `__init__` takes from this shell,
        made without the call (a fork is made per pipeline stage and `$(…)`): the same
        fields, as tests/unit/run/test_interpreter.py pins."""
        sub: Interpreter = _new_object(Interpreter)
        sub.state = state
        sub.registry = self.registry
        sub.fs = self.fs
        sub.allow_external = self.allow_external
        sub.limits = self.limits
        sub.control = self.control
        sub._parse = self._parse
        sub.suppress_errexit = self.suppress_errexit
        sub.cur_fds = self.cur_fds
        sub.source_depth = self.source_depth
        sub.deadline = self.deadline
        sub.due = 0.0
        sub.host_signals = self.host_signals
        sub.events = self.events
        sub.externals = self.externals
        sub.keeps_value = self.keeps_value
        sub.last_data = None
        sub.last_typed = False
        sub.cmdsub_status = None
        sub._jobs = None
        sub._masked = None
        sub.running_traps = set()
        sub.exec_opened = []
        sub.procsubs = []
        sub.decl_arrays = None
        state.key_text = sub.subscript_text
        state.key_index = sub.eval_arith_text
        return sub

    def retire(self) -> None:
        """A fork whose commands have all run lets go of what ties it into reference
        cycles (its session's callbacks into it, its descriptor table, whose streams
        may know it), so it and all it held are freed as soon as its caller lets go of
        it, not at the next run of Python's cycle collector. Nothing runs on it
        afterwards; its typed value may still be read."""
        self.cur_fds = {}
        st = self.state
        st.key_text = st.key_index = None

    def parse(self, src: str) -> ast.Script:
        if self._parse is not None:
            return self._parse(src)
        from tysh.kernel.syntax.parser import parse

        return parse(src)

    # ------------------------------------------------------------ ShellAPI
    @property
    def cwd(self) -> str:
        return self.state.cwd

    def get_var(self, name: str) -> Any:
        return self.state.get(name)

    def set_var(self, name: str, value: Any) -> None:
        self.state.set(name, value)

    def exported_env(self) -> dict[str, str]:
        return self.state.exported_env()

    def cancelled(self) -> bool:
        d = self.deadline
        return self.control.cancelled or (d is not None and time.monotonic() >= d)

    def check_boundary(self) -> None:
        """Stop here when the run was cancelled or its deadline passed (called between
        statements and loop iterations, so no script outruns `cancel()` or a limit).
        The top shell runs the traps of signals sent to it here.

        One clock read against `due`, the earlier of the deadline and the process's next
        turn for other threads: both are looked at only when it has come."""
        control = self.control
        if control.pending or control.cancelled:
            self._attend()
        now = _monotonic()
        if now >= self.due:
            self._due(now)

    def _attend(self) -> None:
        control = self.control
        if control.pending and not self.state.subshell:
            from tysh.kernel.run.traps import run_pending

            run_pending(self)
        if control.cancelled:
            raise Cancelled()

    def _due(self, now: float) -> None:
        """The deadline or the next turn has come (or the deadline changed): stop at a
        passed deadline, give a due turn, and set when to look again."""
        d = self.deadline
        if d is not None and now >= d:
            raise TimedOut()
        if now >= threads.turn_at:
            threads.give_turn(now)
        turn = threads.turn_at
        self.due = turn if d is None or turn < d else d

    def set_deadline(self, deadline: float | None) -> None:
        """Change the deadline. `due` may be earlier than the deadline and the next
        turn, which costs one early look at the clock, never later: it moves only for a
        deadline before it."""
        self.deadline = deadline
        if deadline is not None and deadline < self.due:
            self.due = deadline

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
        """Run one command for a tool (`xargs`, `find -exec`, `timeout`)."""
        from tysh.kernel.base.argv import classify
        from tysh.kernel.run.simple_command import invoke
        from tysh.kernel.run.state import Var

        if not argv:
            return 0
        fds = dict(self.cur_fds)
        fds[0], fds[1], fds[2] = stdin, stdout, stderr
        saved_deadline = self.deadline
        if timeout is not None:
            d = time.monotonic() + timeout
            self.set_deadline(d if saved_deadline is None else min(saved_deadline, d))
        st = self.state
        frame: dict[str, Var] | None = None
        if env is not None:
            # `env` is the command's whole environment (`env -i`, `env -u X`): the
            # variables left out of it are hidden from an in-process command as well
            frame = {k: Var(None) for k in st.exported_env() if k not in env}
            frame.update((k, Var(v, exported=True)) for k, v in env.items())
            st.frames.append(frame)
        try:
            status = invoke(self, argv[0], classify(argv[1:]), fds, env, exact_env=env is not None)
        except ExitShell as e:
            status = e.status
        except TimedOut:
            status = 124
        finally:
            if frame is not None:
                for k in range(len(st.frames) - 1, 0, -1):
                    if st.frames[k] is frame:
                        del st.frames[k]
                        break
            timed_out = self.deadline is not None and time.monotonic() >= self.deadline
            self.set_deadline(saved_deadline)
        if timeout is not None and timed_out:
            return 124
        return status

    def run_source(self, src: str, stdin: IO[bytes], stdout: IO[bytes],
                   stderr: IO[bytes]) -> int:
        return self.run_script(self.parse(src), {0: stdin, 1: stdout, 2: stderr})

    def assign_word(self, word: str, value: str) -> bool:
        st = self.state
        if _NAME.match(word):
            st.set(word, value)
            return True
        m = _SUBSCRIPTED.match(word)
        if m is None:
            return False
        base, index = m.group(1), m.group(2)
        var = st.lookup(base)
        # an associative array's key is text; an indexed array's is arithmetic
        key: str | int = index if var is not None and isinstance(var.value, dict) else (
            self.eval_arith_text(index))
        st.set_index(base, key, value)
        return True

    def find_external(self, name: str, path: str | None = None) -> str | None:
        if path is None:
            got = self.state.get("PATH")
            path = got if isinstance(got, str) else None
        host = find_external(name, path, self.state.cwd, self.fs)
        return host if host is None or self.may_run(name, host) else None

    def may_run(self, name: str, host: str) -> bool:
        """Whether the program `host`, found for the command word `name`, may run here
        (the kernel's allow-list); lookups (`type`, `command -v`) show only these."""
        policy = self.externals
        return policy is None or (policy.refusal is None and policy.allows(name, host))

    def all_tools(self) -> list[Any]:
        return self.registry.all_tools()

    def tool_servers(self) -> Any:
        return self.registry.tool_servers()

    @property
    def umask(self) -> int:
        mask = self.state.umask
        if mask is None:
            from tysh.kernel.run.filemode import process_umask

            return process_umask()
        return mask

    def files(self) -> FileSystem:
        """The filesystem as commands that create files see it: with the session's
        umask applied once a script has set one (run/filemode.py)."""
        mask = self.state.umask
        if mask is None:
            return self.fs
        masked = self._masked
        if masked is None or masked.umask != mask or masked.inner is not self.fs:
            from tysh.kernel.run.filemode import MaskedFileSystem

            masked = self._masked = MaskedFileSystem(self.fs, mask)
        return masked

    # ------------------------------------------------------------ Session
    # what the shell's own builtins use besides ShellAPI (see session.py)
    def builtin(self, name: str) -> Tool | None:
        return self.registry.builtin(name)

    def call_tool(self, tool: Tool, name: str, args: list[Arg], fds: Fds) -> int:
        return simple_command.call_tool(self, tool, name, args, fds)

    def invoke(self, name: str, args: list[Arg], fds: Fds, *, functions: bool = True) -> int:
        return simple_command.invoke(self, name, args, fds, None, functions=functions)

    def array_value(self, name: str, lit: ast.ArrayLit, merge: bool = False) -> Any:
        return simple_command.array_value(self, name, lit, merge)

    def resolve(self, name: str) -> tuple[str, str]:
        """How a name would be described: (kind, detail) with kind "alias" "keyword"
        "function" "builtin" "tool" "file", or ("", "") (see run/lookup.py)."""
        from tysh.kernel.run.lookup import resolve

        return resolve(self, name)

    def resolve_all(self, name: str, *, functions: bool = True, path: str | None = None,
                    every: bool = False) -> list[tuple[str, str]]:
        from tysh.kernel.run.lookup import resolve_all

        return resolve_all(self, name, functions=functions, path=path, every=every)

    def abspath(self, p: str) -> str:
        return abspath(p, self.state.cwd)

    # ------------------------------------------------------------ errors
    def error(self, fds: Fds, message: str) -> None:
        """Write one line to the command's stderr (adds the newline)."""
        s = fds.get(2)
        if s is None:
            return
        try:
            s.write(encode_text(message.rstrip("\n") + "\n"))
        except (OSError, ValueError):
            pass

    def fail_expansion(self, e: TyshError, fds: Fds) -> int:
        """Report an expansion error; fatal ones (`set -u`, `${x:?}`) end the shell."""
        if e.message:
            msg = e.message
            self.error(fds, msg if msg.startswith("tysh:") else "tysh: " + msg)
        status = e.status
        if getattr(e, "fatal", False):
            raise ExitShell(status, expansion=True)
        return status

    # ------------------------------------------------------------ expansion hooks
    # The expansion stage is reached only through these methods so its API is used
    # in one place.
    def expand_word_text(self, word: ast.Word) -> str:
        return expand.expand_text(word, self)

    def expand_heredoc(self, hd: ast.HereDoc) -> str:
        return expand.expand_heredoc(hd, self)

    def expand_value(self, word: ast.Word) -> Any:
        return expand.expand_value(word, self)

    def expand_list(self, words: tuple[ast.Word, ...]) -> list[Any]:
        return list(expand.expand_list(words, self))

    def expand_pattern(self, word: ast.Word) -> str:
        return expand.expand_pattern(word, self)

    def eval_arith(self, word: ast.Word) -> int:
        return expand.eval_arith_word(word, self)

    def eval_arith_text(self, text: str) -> int:
        return arith.evaluate(text, self)

    def expand_source_word(self, src: str) -> str:
        script = self.parse("__tysh_word=" + _escape_blanks(src))
        cmd = script.statements[0].body.first.commands[0]
        if type(cmd) is not ast.SimpleCommand or len(cmd.assigns) != 1 or cmd.words:
            raise ExpansionError(f"`{src}': not a word", 1)
        value = cmd.assigns[0].value
        if not isinstance(value, ast.Word):
            return src
        return self.expand_word_text(value)

    # ------------------------------------------------------------ expansion host
    @property
    def nounset(self) -> bool:
        return "nounset" in self.state.options

    def var_names(self) -> list[str]:
        """The names of the set variables, sorted (`${!prefix*}`)."""
        st = self.state
        return [n for n in st.all_names() if st.get(n) is not None]

    @property
    def glob_options(self) -> GlobOptions:
        """The shell options a glob reads (shopt's and GLOBIGNORE)."""
        from tysh.kernel.expand.glob import GlobOptions

        ignore = self.lookup("GLOBIGNORE")
        return GlobOptions.of(self.state.shopt, to_text(ignore) if ignore is not None else None,
                              self.state.byte_locale())

    def byte_locale(self) -> bool:
        """Whether the locale (LC_ALL, LC_CTYPE, LANG) counts bytes: lengths, slices and
        pattern matching of text that is not ASCII work on its bytes then."""
        return self.state.byte_locale()

    @property
    def nocasematch(self) -> bool:
        """`shopt -s nocasematch`: `[[ == ]]`, `case` and `${x/p/r}` ignore case."""
        return "nocasematch" in self.state.shopt

    @property
    def sh_word_split(self) -> bool:
        """`set -o sh_word_split`: unquoted expansions split on IFS and glob, as in bash."""
        return "sh_word_split" in self.state.options

    @property
    def noglob(self) -> bool:
        """`set -f`: words are not globbed (read by expand only when a word could glob)."""
        return "noglob" in self.state.options

    def lookup(self, name: str) -> Any:
        # State.get, with the one-frame case (no function running) inlined: arithmetic
        # reads every variable through here
        st = self.state
        if st.refs:
            return self._lookup_ref(name)
        frames = st.frames
        # the innermost frame first (the globals when no function runs), then the outer
        # ones (State.lookup)
        var = frames[-1].get(name)
        if var is None:
            n = len(frames)
            if n == 2:  # in a function called from the top level
                var = frames[0].get(name)
            elif n > 2:
                var = st.lookup(name)
            if var is None:
                return st.special(name)
        return var.value

    def _lookup_ref(self, name: str) -> Any:
        """`lookup` once namerefs exist: follow them, to an array element too
        (`declare -n r='a[1]'`)."""
        st = self.state
        target = st.resolve(name)
        if target != name and "[" in target:
            base, key = _ref_element(target)
            if base is not None:
                key = self.subscript_text(key)
                cur = st.get(base)
                if isinstance(cur, dict):
                    return cur.get(key)
                try:
                    i = arith.evaluate(key, self)
                except TyshError:
                    return None
                if isinstance(cur, list):
                    if i < 0:
                        i += len(cur)
                    return cur[i] if 0 <= i < len(cur) else None
                return cur if i == 0 else None
        var = st.lookup_raw(target)
        if var is not None:
            return var.value
        return st.special(target)

    def subscript_text(self, key: str) -> str:
        """A subscript written in a value (`declare -n r='m["k"]'`, `ref='m[$k]'`)
        expanded as the subscript of `m["k"]` in a script would be: quotes removed,
        `$…` expanded."""
        if not any(c in key for c in "\"'$`\\"):
            return key
        try:
            return self.expand_source_word(key)
        except TyshError:
            return key

    def nameref_target(self, name: str) -> str | None:
        """What a nameref names (`${!r}` of `declare -n r=x` is "x"); None for another
        variable."""
        st = self.state
        if not st.refs:
            return None
        var = st.lookup_raw(name)
        if var is None or not var.nameref or type(var.value) is not str:
            return None
        return var.value

    def assign(self, name: str, value: Any) -> None:
        """`name=value` from an expansion (`((x=1))`, `${x:=1}`): State.set, except that
        an array's element 0 takes the value, as bash's `a=5` does. Rewriting an existing
        writable global of text (a loop counter) is inlined."""
        st = self.state
        frames = st.frames
        if len(frames) == 1 and not st.refs:
            var = frames[0].get(name)
            if var is not None and type(var.value) is str and not var.readonly and not var.case:
                var.value = value
                return
        var = st.lookup(name)
        if var is not None:
            cur = var.value
            if isinstance(cur, list):
                st.set_index(name, 0, value)
                return
            if type(cur) is AssocArray:
                st.set_index(name, "0", value)
                return
        st.set(name, value)

    def assign_index(self, name: str, key: str | int, value: Any) -> None:
        self.state.set_index(name, key, value)

    def positional(self) -> list[str]:
        return self.state.positional

    def special(self, name: str) -> str:
        v = self.state.special(name)
        return "" if v is None else to_text(v)

    def var_attributes(self, name: str) -> str | None:
        """The attribute letters of a variable (`${x@a}`), None when there is none."""
        var = self.state.lookup(name)
        if var is None:
            return None
        from tysh.kernel.expand.declared import attr_letters

        return attr_letters(var.value, integer=var.integer, case=var.case,
                            readonly=var.readonly, exported=var.exported)

    def var_is_set(self, name: str) -> bool:
        """`test -v NAME` / `test -v 'NAME[KEY]'` (see cond.var_is_set)."""
        from tysh.kernel.run.cond import var_is_set

        try:
            return var_is_set(self, name)
        except ExpansionError:  # a subscript that is no arithmetic: not set
            return False

    def user_home(self, name: str) -> str | None:
        """`~name`: the home directory of the user `name`, None when there is none. On
        the host (the CLI) the password database says; a sandbox never reads it: the
        session's own user ($USER, else the neutral `user` whoami answers there) has
        the session's $HOME, and no other user exists."""
        st = self.state
        if not st.host_facts:
            user = self.lookup("USER")
            if name != (to_text(user) if user is not None else "user"):
                return None
            home = self.lookup("HOME")
            return None if home is None else to_text(home)
        import pwd

        try:
            return pwd.getpwnam(name).pw_dir
        except (KeyError, ValueError, UnicodeEncodeError):
            return None

    def prompt_fact(self, key: str) -> str | None:
        """What a prompt escape shows (`${x@P}`): "user", "host", "uid", "tty", "j" (jobs),
        "!" (history number), "#" (command number). A sandboxed session shows neutral
        names, as `whoami` and $HOSTNAME do there."""
        st = self.state
        if key == "user":
            if not st.host_facts:
                return "user"
            import pwd

            try:
                return pwd.getpwuid(os.getuid()).pw_name
            except KeyError:
                return None
        if key == "host":
            return os.uname().nodename if st.host_facts else "localhost"
        if key == "uid":
            return str(os.getuid()) if st.host_facts else "1000"
        if key == "tty":
            try:
                return os.path.basename(os.ttyname(0)) if st.host_facts else None
            except OSError:
                return None
        if key == "j":
            return str(len(self.jobs.running()))
        if key == "!":
            return str(len(st.tables.history) + 1)
        if key == "#":
            return str(st.commands_run + 1)
        return None

    def need_memory(self, n: int, what: str) -> None:
        """Raise MemoryLimitExceeded unless `n` more bytes fit the memory budget."""
        self.state.meter.need(n, what, tool=False)

    def command_substitution(self, body: ast.Script) -> Any:
        """`$(…)`: the body's stdout without trailing newlines, or the typed data of its
        last command when that command's tool declares typed_substitution. The capture
        is charged to the memory budget as it grows; passing the budget ends the
        script, as running out of memory would."""
        sub = self.fork()
        sub.see_jobs_of(self)
        # bash (without `shopt -s inherit_errexit`) runs `$(…)` with errexit off: only
        # the substitution's own status can stop the script, e.g. in `x=$(false)`
        sub.state.options.discard("errexit")
        sub.state.xtrace_level += 1
        meter = self.state.meter
        out = CheckedBytesIO(sub, meter if meter.cap < UNBOUNDED else None, "$(…)")
        parent = self.cur_fds
        fds: Fds = {0: parent.get(0) or NULL_IO, 1: out, 2: parent.get(2) or NULL_IO}
        try:
            try:
                only = _only_input_redirect(body)
                if only is None:
                    status = sub.run_script(body, fds)
                else:
                    status = _copy_redirected_input(sub, only, fds)
            except ExitShell as e:
                status = e.subshell_status
            except (BreakLoop, ContinueLoop):
                # `x=$(break)` in a loop ends the substitution, not the loop
                status = sub.state.last_status
            except MemoryLimitExceeded:
                raise
            except LimitExceeded as e:
                self.error(fds, e.message)
                status = 1
            if sub.state.traps:
                try:
                    status = sub.exit_trap(status, fds)
                except ExitShell as e:
                    status = e.subshell_status
            sub.close_exec_files()
            self.cmdsub_status = status
            self.state.last_status = status
            if sub.last_typed:
                return sub.last_data
            raw = out.getvalue()
            out.close()
            kept = raw.rstrip(b"\n")
            del raw  # the capture's buffer goes before the text is made
            if 0 in kept:  # (a byte value: `bytes in bytes` first tries an integer)
                # no shell value holds a NUL: bash drops them and says so
                kept = kept.replace(b"\0", b"")
                self.error(parent, "tysh: warning: command substitution: ignored null "
                           "byte in input")
            return kept.decode("utf-8", "surrogateescape")
        finally:
            out.release()
            # its typed value (returned above when typed) may keep `out`, which knows
            # `sub`: a cycle
            sub.last_data = None
            sub.retire()

    def process_substitution(self, node: ast.ProcSub) -> str:
        """`<(…)` / `>(…)`: start the body on a pipe; the name of the command's end."""
        from tysh.kernel.run.procsub import start

        return start(self, node)

    # ------------------------------------------------------------ scripts
    def run_script(self, script: ast.Script, fds: Fds) -> int:
        return self.run_steps(_plan(script), fds)

    def run_steps(self, steps: Plan, fds: Fds) -> int:
        """Run the statements of a planned script (run/plan.py): a loop plans its body
        once and runs the plan on every iteration."""
        status = 0
        control = self.control
        state = self.state
        for st, step in steps:
            state.stmt = st  # for $LINENO
            if control.cancelled or self.deadline is not None or control.pending:
                self.check_boundary()
            if step is not None:
                status = step(self, st, fds)
            elif st.background:
                status = self.state.last_status = self.start_job(st, fds)
            else:
                status = self.run_andor(st.body, fds)
        return status

    def reads_by_command(self, src: str) -> bool:
        """Whether a script must be read as bash reads one, a complete command at a time,
        rather than parsed whole before it runs: when aliases are expanded (the session's
        `shopt -s expand_aliases` with aliases defined, or a script that mentions the
        option), since an alias changes how the commands after its definition parse."""
        st = self.state
        if st.aliases and st.alias_table() is not None:  # (no aliases at all: no table)
            return True
        return "expand_aliases" in src

    def run_commands(self, src: str, fds: Fds,
                     check: Callable[[ast.Script, Fds], int | None] | None = None) -> int:
        """The main script, read and run one complete command at a time with the
        aliases in force when each is read. A syntax error ends it with status 2 where it
        is; `check` may refuse a command before it runs (its status stands for it)."""
        from tysh.kernel.base.errors import TyshSyntaxError
        from tysh.kernel.syntax.parser import read_commands

        status = 0
        commands = read_commands(src, self.state.alias_table)
        while True:
            try:
                script = next(commands, None)
            except TyshSyntaxError as e:
                self.error(fds, e.format())
                self.state.last_status = 2
                return 2
            if script is None:
                return status
            refused = None if check is None else check(script, fds)
            if refused is not None:
                status = self.state.last_status = refused
                continue
            status = self.run_toplevel(script, fds)

    def run_toplevel(self, script: ast.Script, fds: Fds) -> int:
        """The main script. As in bash, an expansion error other than `${x:?}` and
        `set -u` (a division by zero, a negative substring length) abandons the rest of
        its line with status 1, and the script goes on with the next line."""
        status = 0
        control = self.control
        state = self.state
        skip = -1
        options = state.options
        for st in script.statements:
            if skip != -1 and st.pos.line == skip:
                continue
            if "noexec" in options:  # `set -n`: the rest is read (syntax-checked), not run
                break
            state.stmt = st
            state.commands_run += 1
            if control.cancelled or self.deadline is not None or control.pending:
                self.check_boundary()
            try:
                if st.background:
                    status = state.last_status = self.start_job(st, fds)
                else:
                    status = self.run_andor(st.body, fds)
            except ExitShell as e:
                if e.expansion and e.status == 127 and not state.interactive and (
                        state.invocation == "s" or state.tables.script_file is not None):
                    # `set -u`, `${x?}`: bash ends a script read from a file or stdin
                    # with 1 (a -c script, and an embedded one, with 127)
                    raise ExitShell(1, expansion=True) from None
                if not e.expansion or e.status == 127 and not state.interactive:
                    raise
                status = state.last_status = e.status
                skip = st.pos.line
        if control.pending:  # a signal that came during the last command: its trap
            self.check_boundary()
        return status

    def run_andor(self, node: ast.AndOr, fds: Fds) -> int:
        first = node.first
        if not node.rest:
            cmds = first.commands
            if len(cmds) == 1 and not first.negated and not first.timed:
                # a command alone, the commonest line: run_pipeline's first case
                status = self.run_command(cmds[0], fds)
                self.state.lone_status(status)
            else:
                status = self.run_pipeline(first, fds)
            if status and not first.negated and not self.suppress_errexit:
                self.failed(status, first)
            return status
        self.suppress_errexit += 1
        try:
            status = self.run_pipeline(first, fds)
        finally:
            self.suppress_errexit -= 1
        rest = node.rest
        last = len(rest) - 1
        for i, (op, p) in enumerate(rest):
            if (op == "&&") != (status == 0):
                continue
            if i == last:
                status = self.run_pipeline(p, fds)
                if status and not p.negated and not self.suppress_errexit:
                    self.failed(status, p)
            else:
                self.suppress_errexit += 1
                try:
                    status = self.run_pipeline(p, fds)
                finally:
                    self.suppress_errexit -= 1
        return status

    def failed(self, status: int, p: ast.Pipeline) -> None:
        """A command failed where `set -e` counts failures: run the ERR trap (at the top
        level, or anywhere under `set -E`; not again for a compound command whose own
        command failed), then end the shell under `set -e`. A compound command's own
        status never counts: a command inside it that failed counted already, and one
        whose failure was exempt (`{ false && x; }`) stays exempt, as in bash."""
        if len(p.commands) == 1 and type(p.commands[0]) in _COMPOUND_STATUS:
            return
        st = self.state
        if st.traps and "ERR" in st.traps and (
                st.func_depth == 0 or "errtrace" in st.options):
            from tysh.kernel.run.traps import run_trap

            run_trap(self, "ERR")
        if "errexit" in st.options:
            raise ExitShell(status)

    def run_pipeline(self, p: ast.Pipeline, fds: Fds) -> int:
        if p.timed:
            return self._run_timed(p, fds)
        cmds = p.commands
        if len(cmds) == 1:
            if p.negated:
                self.suppress_errexit += 1
                try:
                    status = self.run_command(cmds[0], fds)
                finally:
                    self.suppress_errexit -= 1
                status = 0 if status else 1
                self.state.last_status = status
                return status
            status = self.run_command(cmds[0], fds)
            self.state.lone_status(status)
            return status
        if self.events is not None:
            self.events.hint(cmds)
        if self.state.traps:
            # bash runs the DEBUG trap for each simple-command stage before the pipeline
            for c in cmds:
                if type(c) is ast.SimpleCommand:
                    self.debug_trap(c.pos.line or None)
        if p.negated:
            self.suppress_errexit += 1
        try:
            statuses = pipeline.run_stages(self, cmds, fds)
        finally:
            if p.negated:
                self.suppress_errexit -= 1
        self.state.pipestatus = statuses
        status = statuses[-1]
        if "pipefail" in self.state.options:
            for s in reversed(statuses):
                if s:
                    status = s
                    break
        if p.negated:
            status = 0 if status else 1
        self.state.last_status = status
        return status

    def _run_timed(self, p: ast.Pipeline, fds: Fds) -> int:
        """`time [-p] PIPELINE`: run it, then report real, user and system time on the
        shell's stderr as bash does (user and system include tysh's own threads, since
        in-process commands run there, and ended child processes)."""
        t0 = time.perf_counter()
        c0 = os.times()
        try:
            return self.run_pipeline(replace(p, timed=0), fds)
        finally:
            real = time.perf_counter() - t0
            c1 = os.times()
            user = c1.user - c0.user + c1.children_user - c0.children_user
            sys_ = c1.system - c0.system + c1.children_system - c0.children_system
            if p.timed == 2:
                text = f"real {real:.2f}\nuser {user:.2f}\nsys {sys_:.2f}\n"
            else:
                text = "\n" + "".join(f"{k}\t{int(v // 60)}m{v % 60:.3f}s\n"
                                      for k, v in (("real", real), ("user", user),
                                                   ("sys", sys_)))
            flush_quietly(fds.get(1))  # the timed output first, as bash's unbuffered writes
            err = fds.get(2)
            if err is not None:
                try:
                    err.write(text.encode())
                    err.flush()
                except (OSError, ValueError):
                    pass

    # ------------------------------------------------------------ commands
    def run_command(self, cmd: ast.Command, fds: Fds) -> int:
        self.cur_fds = fds
        if self.state.traps and type(cmd) in _DEBUGGED:
            self.debug_trap(cmd.pos.line or None)
        mark = len(self.procsubs)
        if type(cmd) is ast.SimpleCommand:
            try:
                return run_simple(self, cmd, fds)
            finally:
                if len(self.procsubs) > mark:
                    from tysh.kernel.run.procsub import finish

                    finish(self, mark)
        redirects: tuple[ast.Redirect, ...] = getattr(cmd, "redirects", ())
        opened: list[IO[bytes]] = []
        outer = fds
        if redirects:
            try:
                fds, opened = apply_redirects(self, redirects, fds)
            except RedirectError as e:
                self.error(fds, e.message)
                return 1
            except TyshError as e:
                return self.fail_expansion(e, fds)
            self.cur_fds = fds
        status = 1
        try:
            status = _COMPOUND[type(cmd)](self, cmd, fds)
        except TyshError as e:
            if _is_expansion_error(e):
                status = self.fail_expansion(e, fds)
            else:
                raise
        finally:
            if opened:
                if close_all(opened, self.reporter(outer)):
                    status = status or 1
                self.cur_fds = outer
            if len(self.procsubs) > mark:
                from tysh.kernel.run.procsub import finish

                finish(self, mark)
        return status

    def reporter(self, fds: Fds) -> Callable[[str], None]:
        """What reports an error on `fds`' stderr, for code that takes a callback (made
        here rather than in a hot function, whose every call would pay for the
        closure's variables)."""
        return lambda message: self.error(fds, message)

    def debug_trap(self, line: int | None = None) -> None:
        """The DEBUG trap, before a simple command, `[[ ]]`, `(( ))`, a `case`, each
        `for` iteration and each part of `for ((…))` (in a function only under
        `set -T`); `line` is the $LINENO it sees."""
        st = self.state
        if "DEBUG" in st.traps and (st.func_depth == 0 or "functrace" in st.options):
            from tysh.kernel.run.traps import run_trap

            run_trap(self, "DEBUG", line=line)

    # ------------------------------------------------------------ traps (Session)
    def set_trap(self, key: str, action: str | None) -> None:
        from tysh.kernel.run.traps import set_trap

        set_trap(self, key, action)

    def trap_listing(self, keys: list[str] | None = None) -> str:
        from tysh.kernel.run.traps import listing

        st = self.state
        return listing(st.traps if st.traps_shown is None else st.traps_shown, keys)

    def run_trap(self, key: str) -> None:
        from tysh.kernel.run.traps import run_trap

        run_trap(self, key)

    def deliver_signal(self, sig: int) -> bool:
        from tysh.kernel.run.traps import deliver

        return deliver(self, sig)

    def exit_trap(self, status: int, fds: Fds) -> int:
        """The shell ends with `status`: its EXIT trap runs; the final status."""
        if not self.state.traps:
            return status
        from tysh.kernel.run.traps import run_exit_trap

        return run_exit_trap(self, status, fds)

    def close_exec_files(self) -> None:
        """The shell ends: flush and close what `exec` opened for it."""
        held = self.exec_opened
        if held:
            self.exec_opened = []
            close_all(held, lambda m: self.error(self.cur_fds, m))

    def check_iteration(self, count: int) -> None:
        cap = self.limits.max_loop_iterations
        if cap is not None and count > cap:
            raise LimitExceeded(f"tysh: loop iteration limit exceeded ({cap})")
        if self.control.cancelled:
            raise Cancelled()
        now = _monotonic()
        if now >= self.due:
            self._due(now)

    # ------------------------------------------------------------ jobs
    @property
    def host_session(self) -> bool:
        return self.state.host_facts

    def signal_self(self, sig: int) -> bool:
        from tysh.kernel.run.jobs import HARMLESS, STOPPING

        if sig == 0:
            return True
        if self.deliver_signal(sig):  # a trap (or an ignore) takes it
            return True
        if sig in HARMLESS:
            return True
        if sig in STOPPING:
            return False
        raise ExitShell(128 + sig)

    def see_jobs_of(self, parent: Interpreter) -> None:
        """Let this fork (a pipeline stage, a `$(…)`) list and signal `parent`'s jobs,
        as bash's do: `jobs | wc -l`, `$(jobs -p)`."""
        if parent._jobs is not None:
            self._jobs = parent._jobs.view()

    @property
    def jobs(self) -> JobTable:
        """This shell's background jobs (made at the first `&`: most shells have none)."""
        table = self._jobs
        if table is None:
            from tysh.kernel.run.jobs import JobTable

            table = self._jobs = JobTable()
        return table

    def start_job(self, st: ast.Statement, fds: Fds) -> int:
        """`cmd &`: run the statement as a job in the table, on a fork of the session
        with stdin closed; `$!` becomes its pid. Status 0, or 1 when the kernel already
        runs `Limits.max_jobs` jobs. A job keeps the deadline of the call that started
        it."""
        from tysh.kernel.syntax.unparse import script_source

        cap = self.limits.max_jobs
        if not self.control.root.has_room(cap):
            return self._no_room(st, fds, cap)
        sub = self.fork()
        job_fds = dict(fds)
        job_fds[0] = NULL_IO

        def body(control: JobControl) -> int:
            sub.control = control
            try:
                with stop.checking(sub.check_boundary):  # this thread's run
                    return sub.run_andor(st.body, job_fds)
            except ExitShell as e:
                return e.status
            except BrokenPipeError:
                return 141
            except TimedOut:
                return 124
            except LimitExceeded as e:
                sub.error(job_fds, e.message)
                return 1
            except RecursionError:
                sub.error(job_fds, NESTS_TOO_DEEPLY)
                return 2
            except KeyboardInterrupt:
                return 130
            except SystemExit as e:
                return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            except Exception as e:  # noqa: BLE001 — a fault in a job must not kill the process
                sub.error(job_fds, f"tysh: internal error: {e!r}")
                return 70

        command = script_source(ast.Script((replace(st, background=False),)))
        first = st.body.first
        simple = not st.body.rest and len(first.commands) == 1 and not first.negated and type(
            first.commands[0]) is ast.SimpleCommand
        job = self.jobs.start(command, self.control, body, start_deep, cap,
                              quiet_interrupt=not self.state.interactive, simple=simple)
        if job is None:
            return self._no_room(st, fds, cap)
        self.state.last_bg_pid = job.pid
        return 0

    def _no_room(self, st: ast.Statement, fds: Fds, cap: int | None) -> int:
        from tysh.kernel.syntax.unparse import script_source

        command = script_source(ast.Script((replace(st, background=False),)))
        first = command.strip().splitlines()[0] if command.strip() else command
        if len(first) > 60:
            first = first[:57] + "..."
        self.error(fds, f"tysh: {first} &: cannot start a background job: {cap} jobs are "
                        "already running (Limits.max_jobs)")
        return 1


def _first_plan(script: ast.Script) -> Plan:
    """run/plan.py's `plan`, imported by the first script that runs a body (a loop, a
    function, a group): a lone `echo hi` never loads it."""
    global _plan
    from tysh.kernel.run.plan import plan

    _plan = plan
    return plan(script)


_plan: Callable[[ast.Script], Plan] = _first_plan


# The fields after `state` that `__init__` takes, read in its order: what fork() hands on.
_new_object = object.__new__


def _ref_element(target: str) -> tuple[str | None, str]:
    """`a[k]` as ("a", "k"); (None, "") for text of another shape."""
    m = _ELEMENT_REF.fullmatch(target)
    return (m.group(1), m.group(2)) if m is not None else (None, "")


def _escape_blanks(src: str) -> str:
    """`src` with its unquoted blanks and operators escaped, so it parses as one word
    (quotes, `$(…)`, `${…}` and backquotes keep theirs)."""
    out: list[str] = []
    quote = ""
    depth = 0
    i = 0
    while i < len(src):
        c = src[i]
        if quote:
            out.append(c)
            if c == "\\" and quote != "'" and i + 1 < len(src):
                out.append(src[i + 1])
                i += 1
            elif c == quote:
                quote = ""
        elif c == "\\" and i + 1 < len(src):
            out.append(src[i:i + 2])
            i += 1
        elif c in "'\"`":
            quote = c
            out.append(c)
        elif c == "$" and src[i + 1:i + 2] in ("(", "{"):
            depth += 1
            out.append(src[i:i + 2])
            i += 1
        elif c in ")}" and depth:
            depth -= 1
            out.append(c)
        elif depth == 0 and c in " \t\n;&|<>()":
            out.append("\\" + c)
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _is_expansion_error(e: TyshError) -> bool:
    return isinstance(e, ExpansionError)


def _only_input_redirect(body: ast.Script) -> ast.SimpleCommand | None:
    """The command of `$(< file)`: a body that is one input redirection and nothing
    else, which bash reads as the file's contents."""
    if len(body.statements) != 1:
        return None
    st = body.statements[0]
    if st.background or st.body.rest or st.body.first.negated or st.body.first.timed:
        return None
    cmds = st.body.first.commands
    if len(cmds) != 1 or type(cmds[0]) is not ast.SimpleCommand:
        return None
    cmd = cmds[0]
    if cmd.words or cmd.assigns or len(cmd.redirects) != 1:
        return None
    r = cmd.redirects[0]
    return cmd if r.op == "<" and r.fd in (None, 0) else None


def _copy_redirected_input(interp: Interpreter, cmd: ast.SimpleCommand, fds: Fds) -> int:
    """Run `< file` as `$(< file)` means it: the file's bytes become the output."""
    try:
        new, opened = apply_redirects(interp, cmd.redirects, fds)
    except RedirectError as e:
        interp.error(fds, e.message)
        return 1
    except ExpansionError as e:
        return interp.fail_expansion(e, fds)
    try:
        src, out = new[0], fds[1]
        while chunk := src.read(1 << 16):
            out.write(chunk)
    finally:
        close_all(opened)
    return 0


# ---------------------------------------------------------------- compound commands


def _run_brace(interp: Interpreter, node: ast.BraceGroup, fds: Fds) -> int:
    return interp.run_script(node.body, fds)


def _run_subshell(interp: Interpreter, node: ast.Subshell, fds: Fds) -> int:
    sub = interp.fork()
    sub.state.loop_depth = 0  # as bash: `( continue )` in a loop is outside any loop
    fds = dict(fds)  # an `exec` inside changes the subshell's descriptors only
    try:
        status = sub.run_script(node.body, fds)
    except ExitShell as e:
        status = e.subshell_status
    except ReturnFromFunction as r:
        status = r.status
    except (BreakLoop, ContinueLoop):
        status = sub.state.last_status
    if sub.state.traps:
        try:
            status = sub.exit_trap(status, fds)
        except ExitShell as e:
            status = e.subshell_status
    sub.close_exec_files()
    sub.retire()
    return status


def _run_if(interp: Interpreter, node: ast.If, fds: Fds) -> int:
    for clause in node.clauses:
        interp.suppress_errexit += 1
        try:
            c = interp.run_script(clause.cond, fds)
        finally:
            interp.suppress_errexit -= 1
        if c == 0:
            return interp.run_script(clause.body, fds)
    if node.else_body is not None:
        return interp.run_script(node.else_body, fds)
    return 0


def _loop_body(interp: Interpreter, body: ast.Script, fds: Fds) -> tuple[int, bool]:
    """Run one iteration; returns (status, stop)."""
    try:
        return interp.run_script(body, fds), False
    except BreakLoop as b:
        if b.levels > 1:
            b.levels -= 1
            raise
        return b.status, True
    except ContinueLoop as c:
        if c.levels > 1:
            c.levels -= 1
            raise
        return 0, False


def _run_while(interp: Interpreter, node: ast.While, fds: Fds) -> int:
    status = 0
    st = interp.state
    st.loop_depth += 1
    count = 0
    cond, body = _plan(node.cond), _plan(node.body)
    # a condition of one planned command (`[ $i -lt 10 ]`) has its step called here,
    # with what run_steps does around it
    cond_st, cond_step = cond[0] if len(cond) == 1 else (None, None)
    until = node.until
    control = interp.control
    cap = interp.limits.max_loop_iterations
    if cap is None:
        cap = _NO_CAP
    try:
        while True:
            count += 1
            # one cheap test per iteration; the full check when anything may be due
            if count > cap or control.cancelled or interp.deadline is not None:
                interp.check_iteration(count)
            interp.suppress_errexit += 1
            try:
                if cond_step is None:
                    c = interp.run_steps(cond, fds)
                else:
                    assert cond_st is not None
                    st.stmt = cond_st
                    if control.cancelled or interp.deadline is not None or control.pending:
                        interp.check_boundary()
                    c = cond_step(interp, cond_st, fds)
            except BreakLoop as b:
                if b.levels > 1:
                    b.levels -= 1
                    raise
                status = 0
                break
            except ContinueLoop as e:
                if e.levels > 1:
                    e.levels -= 1
                    raise
                c = 0
            finally:
                interp.suppress_errexit -= 1
            if (c == 0) == until:
                break
            try:
                for s, step in body:  # run_steps, inlined: once per iteration
                    st.stmt = s
                    if control.cancelled or interp.deadline is not None or control.pending:
                        interp.check_boundary()
                    if step is not None:
                        status = step(interp, s, fds)
                    elif s.background:
                        status = st.last_status = interp.start_job(s, fds)
                    else:
                        status = interp.run_andor(s.body, fds)
            except BreakLoop as b:
                if b.levels > 1:
                    b.levels -= 1
                    raise
                status = b.status
                break
            except ContinueLoop as e:
                if e.levels > 1:
                    e.levels -= 1
                    raise
                status = 0
    finally:
        st.loop_depth -= 1
    return status


def _run_for(interp: Interpreter, node: ast.For, fds: Fds) -> int:
    st = interp.state
    traced = bool(st.traps)
    if node.items is None:
        items: list[Any] = list(st.positional)
    else:
        items = interp.expand_list(node.items)
    status = 0
    st.loop_depth += 1
    count = 0
    body = _plan(node.body)
    control = interp.control
    cap = interp.limits.max_loop_iterations
    if cap is None:
        cap = _NO_CAP
    var = node.var
    try:
        for item in items:
            count += 1
            # one cheap test per iteration; the full check when anything may be due
            if count > cap or control.cancelled or interp.deadline is not None:
                interp.check_iteration(count)
            if traced:
                interp.debug_trap(node.pos.line or None)
            st.set(var, item)
            try:
                status = interp.run_steps(body, fds)
            except BreakLoop as b:
                if b.levels > 1:
                    b.levels -= 1
                    raise
                status = b.status
                break
            except ContinueLoop as c:
                if c.levels > 1:
                    c.levels -= 1
                    raise
                status = 0
    finally:
        st.loop_depth -= 1
    return status


def _arith_part(word: ast.Word) -> tuple[str, Callable[[Interpreter], int]]:
    """How one part of `for ((…))` is evaluated on every iteration: a word of fixed
    text is compiled once — (its text, the closure), whose ArithError the loop reports
    as `eval_arith` would; any other word is expanded and evaluated anew each time (its
    faults come reported)."""
    got = arith.fixed_text_fn(word)
    if got is None:
        return "", expand.arith_word_fn(word)
    from tysh.kernel.run.arithvars import loop_fn

    text, fn = got
    return text, loop_fn(text, fn)


def _run_arith_for(interp: Interpreter, node: ast.ArithFor, fds: Fds) -> int:
    st = interp.state
    if st.traps:
        return _traced_arith_for(interp, node, fds)
    if node.init is not None:
        interp.eval_arith(node.init)
    status = 0
    st.loop_depth += 1
    count = 0
    # compiled at first use, so a fault in one part still comes after the parts
    # before it have run
    cond: Callable[[Interpreter], int] | None = None
    step: Callable[[Interpreter], int] | None = None
    cond_text = step_text = ""
    body = _plan(node.body)
    # a body of one planned command (`x=$((x+i))`) has its step called here, with what
    # run_steps does around it
    body_st, body_step = body[0] if len(body) == 1 else (None, None)
    control = interp.control
    cap = interp.limits.max_loop_iterations
    if cap is None:
        cap = _NO_CAP
    try:
        while True:
            count += 1
            # one cheap test per iteration; the full check when anything may be due
            if count > cap or control.cancelled or interp.deadline is not None:
                interp.check_iteration(count)
            if node.cond is not None:
                if cond is None:
                    cond_text, cond = _arith_part(node.cond)
                try:
                    if cond(interp) == 0:
                        break
                except arith.ArithError as e:
                    raise arith.as_expansion_error(cond_text, e) from None
            try:
                if body_step is None:
                    status = interp.run_steps(body, fds)
                else:
                    assert body_st is not None
                    st.stmt = body_st
                    if control.cancelled or interp.deadline is not None or control.pending:
                        interp.check_boundary()
                    status = body_step(interp, body_st, fds)
            except BreakLoop as b:
                if b.levels > 1:
                    b.levels -= 1
                    raise
                status = b.status
                break
            except ContinueLoop as c:
                if c.levels > 1:
                    c.levels -= 1
                    raise
                status = 0
            if node.step is not None:
                if step is None:
                    step_text, step = _arith_part(node.step)
                try:
                    step(interp)
                except arith.ArithError as e:
                    raise arith.as_expansion_error(step_text, e) from None
    finally:
        st.loop_depth -= 1
    return status


_NO_CAP = 1 << 62


def _traced_arith_for(interp: Interpreter, node: ast.ArithFor, fds: Fds) -> int:
    """`for ((…))` under a DEBUG trap: it runs before the init, each test and each step."""
    st = interp.state
    line = node.pos.line or None
    if node.init is not None:
        interp.debug_trap(line)
        interp.eval_arith(node.init)
    status = 0
    count = 0
    st.loop_depth += 1
    try:
        while True:
            count += 1
            interp.check_iteration(count)
            if node.cond is not None:
                interp.debug_trap(line)
                if interp.eval_arith(node.cond) == 0:
                    break
            status, stop = _loop_body(interp, node.body, fds)
            if stop:
                break
            if node.step is not None:
                interp.debug_trap(line)
                interp.eval_arith(node.step)
    finally:
        st.loop_depth -= 1
    return status


def _run_case(interp: Interpreter, node: ast.Case, fds: Fds) -> int:
    if interp.state.traps:
        interp.debug_trap(node.pos.line or None)
    text = interp.expand_word_text(node.word)
    items = node.items
    i = 0
    n = len(items)
    status = 0
    octets = not text.isascii() and interp.state.byte_locale()
    while i < n:
        item = items[i]
        shopt = interp.state.shopt
        ext, nocase = "extglob" in shopt, "nocasematch" in shopt
        # (a loop, not any() over a generator: one would capture five variables in
        # cells on every case statement)
        matched = False
        for p in item.patterns:
            if pattern.match(interp.expand_pattern(p), text, extglob=ext, nocase=nocase,
                             octets=octets):
                matched = True
                break
        if matched:
            while True:
                status = interp.run_script(item.body, fds)
                if item.terminator == ";&" and i + 1 < n:
                    i += 1
                    item = items[i]
                    continue
                break
            if item.terminator != ";;&":
                return status
        i += 1
    return status


def _run_cond(interp: Interpreter, node: ast.CondCommand, fds: Fds) -> int:
    return 0 if cond.eval_cond(interp, node.expr) else 1


def _run_arith(interp: Interpreter, node: ast.ArithCommand, fds: Fds) -> int:
    if "xtrace" in interp.state.options:  # bash shows the expression expanded
        from tysh.kernel.run.xtrace import trace_line

        text = interp.expand_word_text(node.expr)
        trace_line(interp, fds, f"(( {text} ))")
        return 0 if interp.eval_arith_text(text) != 0 else 1
    return 0 if interp.eval_arith(node.expr) != 0 else 1


def _run_funcdef(interp: Interpreter, node: ast.FunctionDef, fds: Fds) -> int:
    st = interp.state
    st.functions[node.name] = node
    if st.calls or st.tables.script_file is not None:
        st.func_files[node.name] = st.current_file()
    elif st.func_files:
        st.func_files.pop(node.name, None)
    return 0


# compound commands whose status is that of a command inside them (which met the ERR
# trap itself)
_COMPOUND_STATUS = frozenset({ast.BraceGroup, ast.If, ast.While, ast.For, ast.ArithFor,
                              ast.Case})

# what the DEBUG trap runs before
_DEBUGGED = frozenset({ast.SimpleCommand, ast.CondCommand, ast.ArithCommand})

_COMPOUND: dict[type, Callable[[Any, Any, Fds], int]] = {
    ast.BraceGroup: _run_brace,
    ast.Subshell: _run_subshell,
    ast.If: _run_if,
    ast.While: _run_while,
    ast.For: _run_for,
    ast.ArithFor: _run_arith_for,
    ast.Case: _run_case,
    ast.CondCommand: _run_cond,
    ast.ArithCommand: _run_arith,
    ast.FunctionDef: _run_funcdef,
}
