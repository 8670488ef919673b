"""Multi-stage pipelines: every stage runs on its own copy of the session.

Stages are joined by OS pipes, so in-process stages (threads) and external commands
(subprocesses) interoperate and data streams with flat memory. When a reader finishes
early its end of the pipe is closed and the writer gets EPIPE: an in-process writer sees
BrokenPipeError and ends quietly with status 141, an external one dies of SIGPIPE
(also 141) — so `seq 1 100000000 | head -n 1` returns at once.

A pipeline of builtin filters (`cat f | sort | uniq | head` in an embedded kernel) first
runs its stages one after another on the calling thread: a stage's output is held in
memory and becomes the next stage's input, with no thread, pipe or lock handoff. What a
stage holds is bounded (HELD_BYTES, what a pipe holds before its writer waits): the first
write past it starts the later stages concurrently, joined by pipes, and the writer goes
on into the first of those pipes, so an endless producer (`yes | head -n 1`) and large
data stream exactly as they would from the start. Only stages that can wait on nothing
but their input run in turn (the rule is `_judge` and `_in_turn`), and only when the
embedding process has no threads of its own that this thread could keep waiting
(`_host_threads`); any other pipeline runs concurrently from the start. A stage between
two others that is a plain filter of its held input (`… | sort | uniq | …`, bound
before) runs as its tool's ToolFilter: bytes to bytes, without the machinery of a
command."""

from __future__ import annotations

import io
import os
import sys

from tysh.kernel.base import stop
from tysh.kernel.base.argv import Flag, Operand
from tysh.kernel.base.control import BreakLoop, ContinueLoop, ExitShell, ReturnFromFunction
from tysh.kernel.base.hints import cast
from tysh.kernel.base.lazymod import LazyModule, load
from tysh.kernel.base.streams import (
    NOT_TERMINALS,
    CheckedReader,
    CheckedWriter,
    Fds,
    close_quietly,
)
from tysh.kernel.base.threads import NoThread, start_deep
from tysh.kernel.run.simple_command import call_leaf, constant_words, prepared
from tysh.kernel.syntax import ast

TYPE_CHECKING = False
if TYPE_CHECKING:
    import threading
    from collections.abc import Callable, Iterable, Sequence
    from typing import IO, Any

    from tysh.kernel.base.limits import Meter
    from tysh.kernel.run.interpreter import Interpreter
    from tysh.kernel.run.registry import Registry
    from tysh.kernel.run.simple_command import Known
    from tysh.kernel.tools.tool import Tool

    _Staged = tuple[Sequence[ast.Command], tuple[str, ...] | None, tuple[bool, ...],
                    tuple[Known | None, ...], list[Any]]
    # (cur_fds, last_data, last_typed, cmdsub_status, keeps_value, state.last_arg,
    # state.subshell): what a stage that assigns nothing may change of its shell, and
    # what tells a stage's shell from its session's (see `_exchange`)
    _Fields = tuple[Fds, Any, bool, int | None, bool, str, int]
else:  # only a pipeline whose stages run concurrently starts threads
    threading = LazyModule(globals(), "threading", "threading")

PIPE_BUF_WRITE = 1 << 16


def _run_stage(
    interp: Interpreter,
    cmd: ast.Command,
    fds: Fds,
    own_in: IO[bytes] | None,
    own_out: IO[bytes] | None,
    statuses: list[int],
    i: int,
    installed: bool = False,
    prep: Known | None = None,
) -> None:
    """Run one stage and close the pipe ends it owns, whatever happens. The stage's stop
    check becomes this thread's (kernel.base.stop) for the while, unless `installed`
    says the caller's is one that stops it alike. `prep`: the stage is this constant
    command, ready to run (simple_command.prepared)."""
    status = 0
    saved_check = None if installed else stop.install(interp.check_boundary)
    try:
        if prep is None:
            status = interp.run_command(cmd, fds)
        else:  # the constant command bound before, as run_simple runs it (`prepared`)
            interp.cur_fds = fds
            interp.last_typed = False
            interp.last_data = None
            interp.cmdsub_status = None
            interp.state.last_arg = prep[2]
            status = call_leaf(interp, prep[3][0], prep[0], fds)  # type: ignore[arg-type]
        if own_out is not None:
            try:
                own_out.flush()
            except BrokenPipeError:
                # output left in the buffer when the reader went away: a command's own
                # write failed; a compound stage that ended reports its last command
                if type(cmd) is ast.SimpleCommand:
                    raise
    except ExitShell as e:
        # bash runs a simple command stage as the child shell itself, a compound one in
        # a subshell of it
        status = e.status if type(cmd) is ast.SimpleCommand else e.subshell_status
    except ReturnFromFunction as r:
        status = r.status
    except (BreakLoop, ContinueLoop):
        status = interp.state.last_status
    except BrokenPipeError:
        status = 141
    except KeyboardInterrupt:
        status = 130  # raised in a stage's thread: the stage is interrupted, quietly
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except Exception as e:  # noqa: BLE001 — a fault in a stage must not kill the others
        from tysh.kernel.base.limits import NESTS_TOO_DEEPLY, LimitExceeded, TimedOut

        if isinstance(e, TimedOut):
            status = 124
        elif isinstance(e, LimitExceeded):
            interp.error(fds, e.message)
            status = 1
        elif isinstance(e, RecursionError):
            interp.error(fds, NESTS_TOO_DEEPLY)
            status = 2
        elif isinstance(e, OSError) and getattr(e, "errno", None) == 32:
            status = 141
        else:
            interp.error(fds, f"tysh: internal error: {e!r}")
            status = 70
    finally:
        if not installed:
            stop.install(saved_check)
        if own_out is not None:
            try:
                own_out.close()
            except BrokenPipeError:
                if status == 0 and type(cmd) is ast.SimpleCommand:
                    status = 141
            except (OSError, ValueError):
                pass
        if own_in is not None:
            close_quietly(own_in)
    statuses[i] = status


_F_SETPIPE_SZ = 1031  # Linux fcntl: set a pipe's capacity
_PIPE_SIZE = 1 << 20  # the most an unprivileged process may ask for by default


def _widen(fd: int) -> None:
    """A 1 MiB pipe instead of 64 KiB: builtins write in 1 MiB chunks, and each time a
    full pipe blocks, the two stage threads trade the GIL; a pipe that holds a whole
    chunk makes those trades 16 times fewer. Elsewhere (or if refused) the pipe stays."""
    try:
        import fcntl

        fcntl.fcntl(fd, _F_SETPIPE_SZ, _PIPE_SIZE)
    except (ImportError, OSError):
        pass


def run_stages(interp: Interpreter, cmds: tuple[ast.Command, ...], fds: Fds) -> list[int]:
    """Run `a | b | …`; returns each stage's status (for PIPESTATUS)."""
    staged = _staged(interp, cmds)
    tools = _in_turn(interp, staged, fds)
    if tools is not None:
        return _run_in_turn(interp, cmds, fds, tools, staged)
    statuses = [0] * len(cmds)
    threads, last = _concurrently(interp, cmds, fds, statuses, 0, None, last_here=True)
    for t in threads:
        t.join()
    _take_result(interp, last)
    return statuses


def _take_result(interp: Interpreter, last: Interpreter | None) -> None:
    """The pipeline's typed result is its last stage's."""
    if last is not None:
        interp.last_typed = last.last_typed
        interp.last_data = last.last_data


def _fork(interp: Interpreter, own_in: IO[bytes] | None, sharing: bool = False) -> Interpreter:
    """A stage's shell (`sharing`: one that reads the session's variables in place);
    `own_in` (the stage's end of its input pipe) is closed when the fork fails, so the
    stage before it sees its reader gone."""
    try:
        sub = interp.fork_reading_variables() if sharing else interp.fork()
        sub.see_jobs_of(interp)
    except BaseException:
        close_quietly(own_in)
        raise
    return sub


def _pipe(writer: Interpreter, reader: Interpreter) -> tuple[IO[bytes], IO[bytes]]:
    """A pipe between two stages as (read end, write end). Both ends check for a cancel
    or a deadline when the run has one, so an endless producer feeding a patient consumer
    (`seq 1 1e12 | wc -l`) still stops."""
    r, w = os.pipe()
    _widen(w)
    if writer.control.check_streams or writer.deadline is not None:
        return CheckedReader(r, reader), CheckedWriter(w, PIPE_BUF_WRITE, writer)
    return open(r, "rb"), open(w, "wb", buffering=PIPE_BUF_WRITE)  # noqa: SIM115


# Loaded before a pipeline's stages start on threads of their own: two threads importing
# overlapping modules at once can be handed a partly initialised one (see lazymod.load),
# and a stage's own lazy import (a function body's `import`) is not under load's lock.
# threading, loaded to start the stages, brings functools, collections and types; what
# builtins import beyond those at module level is collections.abc (re and enum import
# only modules loaded by then, so two threads importing them wait without a cycle).
_SHARED_MODULES = ("collections.abc",)


# stages whose shell bash does not count in $BASH_SUBSHELL: a simple command's, and a
# `( … )`'s, which counts its own
_UNCOUNTED = frozenset({ast.SimpleCommand, ast.Subshell})


def _concurrently(
    interp: Interpreter,
    cmds: Sequence[ast.Command],
    fds: Fds,
    statuses: list[int],
    first: int,
    stdin: IO[bytes] | None,
    *,
    last_here: bool,
    feeder: IO[bytes] | None = None,
) -> tuple[list[threading.Thread], Interpreter | None]:
    """Start `cmds` (stages `first`… of the pipeline) together, joined by pipes; the
    first reads `stdin` (the pipeline's own when None). The last stage runs on this
    thread when `last_here`, else on a thread of its own. Returns the threads to join
    and the last stage's shell (None when it never ran). `feeder` is the write end of
    `stdin`'s pipe held by whoever feeds it: closed when a thread cannot start, so that
    the stages already started see the end of their input and finish."""
    for name in _SHARED_MODULES:  # (see _SHARED_MODULES)
        load(name)
    n = len(cmds)
    threads: list[threading.Thread] = []
    prev_read = stdin
    last: Interpreter | None = None
    for i, cmd in enumerate(cmds):
        stage_fds = dict(fds)
        own_in = prev_read
        own_out: IO[bytes] | None = None
        if own_in is not None:
            stage_fds[0] = own_in
        sub = _fork(interp, own_in)
        if type(cmd) in _UNCOUNTED:
            sub.state.bash_subshell = interp.state.bash_subshell
        if i < n - 1:
            sub.keeps_value = False
            prev_read, own_out = _pipe(sub, interp)
            stage_fds[1] = own_out
        else:
            prev_read = None
            last = sub
            if last_here:
                _run_stage(sub, cmd, stage_fds, own_in, own_out, statuses, first + i)
                break
        t = threading.Thread(
            target=_run_stage,
            args=(sub, cmd, stage_fds, own_in, own_out, statuses, first + i),
            daemon=True,
            name="tysh-stage",
        )
        try:
            start_deep(t)
        except NoThread:
            for end in (feeder, own_in, own_out, prev_read):
                close_quietly(end)
            for started in threads:
                started.join()
            raise
        threads.append(t)
    return threads, last


# ---------------------------------------------------------------- stages in turn

# the most a stage run in turn holds of its output before the later stages start
# streaming: a pipe's default capacity, so a writer that would finish into a pipe nobody
# reads (`printf 'a\nb\n' | head -n 1`, status 0 in bash) finishes here too
HELD_BYTES = 1 << 16

# builtin kinds that read their input and files, compute, write their output and end:
# nothing in them waits on a clock, a terminal, a job or another command (kind
# "execute" runs commands, "shell" holds the session's own builtins)
_TURN_KINDS = frozenset({"read", "search", "compute", "list", "write"})
# the session's builtins of that same sort
_TURN_SHELL = frozenset({
    "echo", "printf", "true", "false", ":", "yes", "pwd", "printenv", "test", "[",
    "uname", "hostname", "whoami", "id", "nproc", "date", "type", "which",
})
# builtins that never read their standard input: a pipeline that starts with one runs
# in turn whatever that input is (a terminal, a pipe another command feeds)
_NO_INPUT = frozenset({
    "echo", "printf", "true", "false", ":", "yes", "seq", "pwd", "printenv", "uname",
    "hostname", "whoami", "id", "nproc", "date",
})

# grep's short options that take no value, and its spellings of a recursive search
_GREP_PLAIN = frozenset("EFGPHhIiLlnoqRrsUvwxZzabcT")
_GREP_RECURSIVE = frozenset({"-r", "-R", "--recursive", "--dereference-recursive"})


def _given_files(name: str, known: Known | None) -> bool:
    """Whether a first stage never reads its standard input by its constant words:
    `grep` searching recursively (`grep -rn x`, which searches `.` when it names
    nothing) or given files (`grep -n x f.txt`), with options that take no value and no
    `-` or /dev/stdin among its words. Any other words count as reading it."""
    if known is None or name != "grep":
        return False
    operands = 0
    recursive = False
    for a in known[1]:
        kind = type(a)
        if kind is Operand:
            v = a.value  # type: ignore[union-attr]
            if type(v) is not str or v == "-" or v.startswith(("/dev/", "/proc/")):
                return False  # (a device may be standard input, by another name)
            operands += 1
        elif kind is Flag:
            text = a.text  # type: ignore[union-attr]
            if text in _GREP_RECURSIVE:
                recursive = True
            elif text[1:2] == "-" or a.value is not None or (  # type: ignore[union-attr]
                    not _GREP_PLAIN.issuperset(text[1:])):
                return False
            elif "r" in text or "R" in text:
                recursive = True
        else:  # `--`: what follows is operands, which the loop above would misread
            return False
    return operands >= 1 if recursive else operands >= 2


# syntax tree node id → (node, its stage's command name when its syntax allows running
# in turn, else None, and whether it assigns no variable: see _assigns_nothing); the
# entry holds the node, so an id is not reused while it lives
_NAMES: dict[int, tuple[ast.Command, str | None, bool]] = {}
# builtins run in turn that may assign a variable: `printf -v`, and `test -v`'s
# subscripts, which are arithmetic (`[ -v 'a[i++]' ]`)
_ASSIGNING = frozenset({"printf", "test", "["})


def _in_turn(interp: Interpreter, staged: _Staged, fds: Fds) -> tuple[Tool, ...] | None:
    """The tools of the stages `staged` tells of (`_staged`) when they may run one after
    another on this thread. The pipeline's input is in memory, or its first stage never
    reads it (a terminal or a pipe could keep a stage waiting on a person or a writer);
    and each stage, by its syntax (`_judge`) and by what its name means now, is a builtin
    of `_TURN_KINDS` or `_TURN_SHELL` — not a function, not a name `enable -n` turned
    off."""
    names = staged[1]
    if names is None or (names[0] not in _NO_INPUT and not isinstance(
            fds.get(0), io.BytesIO) and not _given_files(names[0], staged[3][0])):
        return None
    # (a host that has started threads has loaded threading; a threading module still
    # being imported, by another thread, has no count yet: there is another thread)
    threads = sys.modules.get("threading")
    count = getattr(threads, "active_count", None)
    if threads is not None and (count is None or count() > 1) and _host_threads():
        return None
    st = interp.state
    if (st.functions and not st.functions.keys().isdisjoint(names)) or (
            st.disabled and not st.disabled.isdisjoint(names)):
        return None
    registry = interp.registry
    seen = staged[4]
    if seen[0] is not registry:
        # (a registry's builtins never change: its answer for these names is kept)
        seen[:] = (registry, _turn_tools(registry, names))
    got: tuple[Tool, ...] | None = seen[1]
    return got


def _turn_tools(registry: Registry, names: tuple[str, ...]) -> tuple[Tool, ...] | None:
    """The builtins the names mean in `registry`, when each is one of `_TURN_KINDS` or
    `_TURN_SHELL`; else None."""
    tools = []
    for name in names:
        tool = registry.builtin(name)
        if tool is None or not (tool.schema.kind in _TURN_KINDS or name in _TURN_SHELL):
            return None
        tools.append(tool)
    return tuple(tools)


# a pipeline's commands (by id) → what `_staged` tells of them; the entry holds the
# commands, so an id is not reused while it lives
_STAGES: dict[int, _Staged] = {}


def _staged(interp: Interpreter, cmds: Sequence[ast.Command]) -> _Staged:
    """(the commands; each stage's name by `_judge` when every stage has one, else None;
    whether each assigns nothing (`_judged`); each one's constant words, when it is a
    simple command of such words (simple_command.constant_words); and `_in_turn`'s
    [registry, the stages' builtins in it or None] once asked), remembered per pipeline."""
    hit = _STAGES.get(id(cmds))
    if hit is not None and hit[0] is cmds:
        return hit
    judged = [_judged(c) for c in cmds]
    names = [j[1] for j in judged]
    got = None if None in names else tuple(cast("list[str]", names))
    knowns = tuple(constant_words(interp, c) if type(c) is ast.SimpleCommand else None
                   for c in cmds)
    if len(_STAGES) >= 4096:
        _STAGES.clear()
    hit = _STAGES[id(cmds)] = (cmds, got, tuple(j[2] for j in judged), knowns, [None, None])
    return hit


def _host_threads() -> bool:
    """Whether a thread of the embedding process's own (any `threading` thread but this
    one and tysh's, whose names start with "tysh-") is alive. Stages run in turn keep
    this thread busy holding the interpreter lock; on a machine with more runnable
    threads than cores the OS then takes it off its core for a tenth of a second or
    more at a time, lock and all, and every other thread of the process waits with it
    (a host thread ticking every 10 ms was measured waiting 0.1–0.3 s under a load of
    12 on 2 cores, against under 0.1 s with concurrent stages, whose threads start and
    block and so hand the lock over far more often). So with host threads about, a
    pipeline runs concurrently."""
    me = threading.current_thread()
    return any(t is not me and not t.name.startswith("tysh-") for t in threading.enumerate())


def _judged(cmd: ast.Command) -> tuple[ast.Command, str | None, bool]:
    hit = _NAMES.get(id(cmd))
    if hit is None or hit[0] is not cmd:
        if len(_NAMES) >= 4096:
            _NAMES.clear()
        name = _judge(cmd)
        quiet = name is not None and name not in _ASSIGNING and all(
            _assigns_nothing(w) for w in cast("ast.SimpleCommand", cmd).words)
        hit = _NAMES[id(cmd)] = (cmd, name, quiet)
    return hit


def _judge(cmd: ast.Command) -> str | None:
    """The literal command name of a simple command whose syntax lets it run in turn:
    no prefix assignment, no command or process substitution in any word, no
    redirection but a descriptor copy, /dev/null or a here-document or here-string
    (none opens a file that could wait); and not a command that could run commands or
    follow a file (`awk` with `system` or a pipe, `tail -f`). None otherwise."""
    if type(cmd) is not ast.SimpleCommand or cmd.assigns or not cmd.words:
        return None
    parts = cmd.words[0].parts
    if len(parts) != 1 or type(parts[0]) is not ast.Lit:
        return None
    name = parts[0].text
    if not all(_runs_nothing(w) for w in cmd.words):
        return None
    if not all(_opens_nothing(r) for r in cmd.redirects):
        return None
    if name == "tail" and any(_may_follow(w) for w in cmd.words[1:]):
        return None
    if name == "awk" and any(_may_run(w) for w in cmd.words[1:]):
        return None
    return name


def _word_passes(w: ast.Word | None, param_ok: Callable[[ast.ParamExp], bool],
                 arith_ok: Callable[[ast.ArithSub], bool]) -> bool:
    """Whether every expansion in the word passes its check: plain text always does, a
    double-quoted part by its own parts, a command or process substitution never."""
    if w is None:
        return True
    for p in w.parts:
        tp = type(p)
        if tp is ast.Lit or tp is ast.Quoted:
            continue
        if tp is ast.DQ:
            ok = _word_passes(ast.Word(cast("ast.DQ", p).parts), param_ok, arith_ok)
        elif tp is ast.ParamExp:
            ok = param_ok(cast("ast.ParamExp", p))
        elif tp is ast.ArithSub:
            ok = arith_ok(cast("ast.ArithSub", p))
        else:  # a command or process substitution
            ok = False
        if not ok:
            return False
    return True


def _runs_nothing(w: ast.Word | None) -> bool:
    """Whether expanding the word runs no command."""
    return _word_passes(w, _param_runs_nothing, _arith_runs_nothing)


def _param_runs_nothing(pe: ast.ParamExp) -> bool:
    return _runs_nothing(pe.index) and _runs_nothing(pe.arg) and _runs_nothing(pe.arg2)


def _arith_runs_nothing(a: ast.ArithSub) -> bool:
    return _runs_nothing(a.expr)


# `${…}` operators that assign nothing and evaluate no arithmetic (`${x:=v}` assigns,
# `${x:i++:1}` counts, `${x@P}` may run a command substitution)
_READING_OPS = frozenset({
    "", ":-", "-", ":+", "+", ":?", "?", "#", "##", "%", "%%", "/", "//", "/#", "/%",
    "^^", ",,", "^", ",", "@Q", "@E", "@U", "@L", "@u", "@a", "@A", "@K", "@k", "!*", "!@",
})


def _assigns_nothing(w: ast.Word | None) -> bool:
    """Whether expanding the word can assign no variable: plain text and `$x`-style
    expansions only — no arithmetic, no subscript (`${a[i++]}`), no indirection (the
    name it finds may be `a[i++]`), no `${x:=v}`."""
    return _word_passes(w, _param_assigns_nothing, lambda a: False)


def _param_assigns_nothing(pe: ast.ParamExp) -> bool:
    return (pe.index is None and not pe.indirect and pe.op in _READING_OPS
            and _assigns_nothing(pe.arg) and _assigns_nothing(pe.arg2))


def _opens_nothing(r: ast.Redirect) -> bool:
    """A redirection that opens nothing that could wait: a descriptor copy or close
    (`2>&1`, `>&-`), /dev/null, or a here-document or here-string whose text runs no
    command."""
    target = r.target
    if r.fd_var is not None:
        return False
    if isinstance(target, ast.HereDoc):
        return _runs_nothing(target.body)
    if r.op == "<<<":
        return _runs_nothing(target)
    text = target.literal_text()
    if text is None:
        return False
    if r.op in (">&", "<&"):
        return text == "-" or text.isdigit()
    return r.op in (">", ">>", "<", "&>", "&>>", ">|") and text == "/dev/null"


def _may_follow(w: ast.Word) -> bool:
    """Whether a word of `tail` could ask it to follow a file (`-f`, `-F`, `--follow`,
    `-n1f`, or a word only its expansion tells)."""
    text = w.literal_text()
    return text is None or (text.startswith("-") and ("f" in text or "F" in text))


def _may_run(w: ast.Word) -> bool:
    """Whether a word of `awk` could make it run a command (`system(…)`, `… | getline`,
    `print | "cmd"`), or only its expansion tells."""
    text = w.literal_text()
    return text is None or "system" in text or "|" in text


class _Held:
    """The output of a stage run in turn: held in memory as the next stage's input until
    it would pass HELD_BYTES; then `spill()` starts the later stages and returns the pipe
    that feeds them, and what was held and every later write go there. Once spilled,
    writes stop at a cancel or a deadline, as a pipe's do.

    A write-only stream with the methods and answers of an `io.BufferedIOBase` that
    cannot read, seek or give a descriptor (and registered as one), without being one:
    an io object costs several times more to make and to let go (its finalizer calls
    `close` again), and a stage run in turn makes one per stage."""

    __slots__ = ("_spill", "_sub", "_first", "_buf", "pipe", "closed", "__weakref__")

    _spill: Callable[[Interpreter, int], IO[bytes]]  # called as _spill(_sub, _first)
    _sub: Interpreter
    _first: int
    _buf: bytearray
    pipe: IO[bytes] | None  # once spilled
    closed: bool

    def write(self, b: Any) -> int:
        pipe = self.pipe
        if pipe is not None:
            return pipe.write(b)
        # (no stop check while the output is held: it holds at most HELD_BYTES, and a
        # writer that goes on writes to the pipe, whose writes check, as a capture
        # checks once per CHECK_BYTES)
        if self.closed:
            raise ValueError("write to closed file")
        buf = self._buf
        n = len(b) if type(b) is bytes else memoryview(b).nbytes
        if len(buf) + n <= HELD_BYTES:
            buf += b
            return n
        self.pipe = pipe = self._spill(self._sub, self._first)
        if buf:
            held = bytes(buf)
            self._buf = bytearray()
            pipe.write(held)
        return pipe.write(b)

    def writelines(self, lines: Iterable[Any]) -> None:
        self._open()
        for line in lines:
            self.write(line)

    def held(self) -> bytes:
        return bytes(self._buf)

    def flush(self) -> None:
        if self.pipe is not None:
            self.pipe.flush()

    def close(self) -> None:
        if self.closed:
            return
        try:
            if self.pipe is not None:
                self.pipe.close()
        finally:
            self.closed = True

    def _open(self) -> None:
        if self.closed:
            raise ValueError("I/O operation on closed file.")

    def writable(self) -> bool:
        return True

    def readable(self) -> bool:
        return False

    def seekable(self) -> bool:
        return False

    def isatty(self) -> bool:
        self._open()
        return False

    def fileno(self) -> int:
        raise io.UnsupportedOperation("fileno")

    def seek(self, _pos: int, _whence: int = 0) -> int:
        raise io.UnsupportedOperation("seek")

    def tell(self) -> int:
        raise io.UnsupportedOperation("seek")

    def truncate(self, _size: int | None = None) -> int:
        raise io.UnsupportedOperation("truncate")

    def detach(self) -> Any:
        raise io.UnsupportedOperation("detach")

    def read(self, _size: int | None = -1) -> bytes:
        raise io.UnsupportedOperation("read")

    def read1(self, _size: int = -1) -> bytes:
        raise io.UnsupportedOperation("read1")

    def readinto(self, _b: Any) -> int:
        raise io.UnsupportedOperation("read")

    def readinto1(self, _b: Any) -> int:
        raise io.UnsupportedOperation("read1")

    def readline(self, _size: int | None = -1) -> bytes:
        raise io.UnsupportedOperation("read")

    def readlines(self, _hint: int = -1) -> list[bytes]:
        self._open()
        raise io.UnsupportedOperation("read")

    def __enter__(self) -> _Held:
        self._open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


io.BufferedIOBase.register(_Held)
NOT_TERMINALS.add(_Held)
_new_object = object.__new__


def _held(spill: Callable[[Interpreter, int], IO[bytes]], sub: Interpreter,
          first: int) -> _Held:
    """A new `_Held` (made without a class call, which costs twice its fields' stores;
    a stage run in turn makes one per stage)."""
    held: _Held = _new_object(_Held)
    held._spill = spill
    held._sub = sub
    held._first = first
    held._buf = bytearray()
    held.pipe = None
    held.closed = False
    return held


class _HeldInput(io.BytesIO):
    """A held output as the next stage's input, read as the end of a pipe is: it cannot
    seek (`wc` sizes its columns for a pipe, not a file). A stage that has ended lets go
    of its input, so the pipeline gives the next stage the same object refilled
    (`_refill`: open again, at the start of the new content)."""

    def seekable(self) -> bool:
        return False

    def seek(self, _pos: int, _whence: int = 0) -> int:
        raise io.UnsupportedOperation("seek")

    def tell(self) -> int:
        raise io.UnsupportedOperation("tell")


_refill = io.BytesIO.__init__


# whether a filter stage whose input is held runs as its ToolFilter (see _run_in_turn);
# tests turn it off to compare with the tools run in full
RUN_FILTERS = True

# whether the stages run in turn that assign nothing share one shell (see _run_in_turn);
# tests turn it off to compare with a shell per stage
SHARE_QUIET_STAGES = True


def _exchange(interp: Interpreter, fields: _Fields) -> _Fields:
    """Give `interp` these `_Fields`; returns the ones it had."""
    st = interp.state
    had = (interp.cur_fds, interp.last_data, interp.last_typed, interp.cmdsub_status,
           interp.keeps_value, st.last_arg, st.subshell)
    (interp.cur_fds, interp.last_data, interp.last_typed, interp.cmdsub_status,
     interp.keeps_value, st.last_arg, st.subshell) = fields
    return had


def _run_in_turn(interp: Interpreter, cmds: tuple[ast.Command, ...], fds: Fds,
                 tools: tuple[Tool, ...], staged: _Staged) -> list[int]:
    """Run the stages one after another on this thread (see the module docstring).

    A stage's shell reads the session's variables in place (State.copy_reading_variables)
    when neither its words nor its command can assign one (`_judged`), no nameref could
    turn a plain `$r` into arithmetic and no trap could run in the stage (a DEBUG trap
    under `set -T` runs before its command, and may assign); else it is a full fork.
    Every stage of the first kind runs on one such shell: the session cannot change
    while the stages run, and what such a stage can change of its shell (`_renew`) is
    put back as a new fork has it before the next, or set by `_run_stage` when the
    stage is a constant command bound before. When every stage is of that kind, that
    shell is the session itself, lent: it takes a new fork's `_Fields` (one subshell
    deeper) for the while and gets its own back at the end, and the pipeline's typed
    value is its last stage's. One stop check serves every stage: each fork's stops at
    the same cancel and deadline (`Interpreter.check_boundary`).

    A stage between two others whose input is held, a constant command bound before
    (simple_command.prepared) of a tool with a filter (ToolFilter), runs as that filter:
    the held bytes in, the bytes its tool would write out, with no Context, streams or
    shell of its own. The tool runs instead when the filter declines, when its output
    would not be held (more than HELD_BYTES), or when the memory budget lacks
    FILTER_ROOM; the shell that reports events or traces runs every stage as its tool."""
    n = len(cmds)
    statuses = [0] * n
    stdin: IO[bytes] | None = None  # the pipeline's own, for the first stage
    fed: _HeldInput | None = None  # the later stages'
    last: Interpreter | None = None
    threads: list[threading.Thread] = []
    refused: list[NoThread] = []
    st = interp.state
    _, _, quiet, knowns, _ = staged
    share = SHARE_QUIET_STAGES and not st.refs and not st.traps
    # (a shell that reports events or traces runs each command the general way)
    plain = interp.events is None and "xtrace" not in st.options
    shared: Interpreter | None = None
    # what a new fork of the session takes from it (the session as it is now: lent or
    # not, it is the same when each stage starts)
    base_fds, base_arg, keeps = interp.cur_fds, st.last_arg, interp.keeps_value
    # the session's own `_Fields` while it is lent (a fork is not made past the
    # subshell limit, nor with process substitutions open, which a fork does not see)
    own: _Fields | None = None
    if share and False not in quiet and not interp.procsubs and (
            st.subshell < interp.limits.max_subshell_depth):
        shared = interp
        own = _exchange(interp, (base_fds, None, False, None, False, base_arg,
                                 st.subshell + 1))
    saved_check: Callable[[], None] | None = None
    installed = False

    def spill(sub: Interpreter, first: int) -> IO[bytes]:
        """Start stages `first`… concurrently, fed by a new pipe; its write end."""
        nonlocal last
        reader, writer = _pipe(sub, interp)
        # (the later stages are forks of the session as it is, not as it is lent)
        lent = None if own is None else _exchange(interp, own)
        try:
            started, last = _concurrently(interp, cmds[first:], fds, statuses, first,
                                          reader, last_here=False, feeder=writer)
        except NoThread as e:
            refused.append(e)
            # the writing stage ends as at a reader gone; the script ends below
            raise BrokenPipeError(32, "no thread for the rest of the pipeline") from None
        except BaseException:
            close_quietly(writer)
            raise
        finally:
            if lent is not None:
                _exchange(interp, lent)
        threads.extend(started)
        return writer

    # the output of the stage before, held, not yet made the next stage's input: a
    # filter stage (ToolFilter) takes it as bytes
    pending: bytes | None = None
    # whether filters may run: the memory budget has room for whatever one would have
    # charged (None: not asked yet)
    room: bool | None = None
    try:
        for i, cmd in enumerate(cmds):
            prep = None
            if share and quiet[i] and plain:
                known = knowns[i]
                if known is not None and prepared(known, tools[i]):
                    prep = known
            if pending is not None:
                # a stage between two others, bound before, whose tool has a filter and
                # writes text: its filter, given the held input, when the budget has
                # room and the output is one the pipeline would hold
                bound = prep[3][0] if prep is not None and i < n - 1 else None
                flt = bound[1].filter if bound is not None and not bound[3] else None
                if flt is not None:
                    if room is None:
                        room = RUN_FILTERS and _filter_room(st.meter)
                    try:
                        got = flt(bound[2], pending) if room else None  # type: ignore[index]
                    except Exception:  # noqa: BLE001 — the tool itself answers, as it would
                        got = None
                    if got is not None and len(got) <= HELD_BYTES:
                        # (what the stage would have changed of its shell the next stage
                        # sets again, and the pipeline puts back)
                        statuses[i] = 0
                        pending = got
                        interp.check_boundary()
                        continue
                # (one input serves every stage, made again in place as a new one: a
                # stage leaves it open)
                if fed is None:
                    fed = _HeldInput(pending)
                else:
                    try:
                        _refill(fed, pending)
                    except BufferError:  # a tool kept a view of its buffer
                        fed = _HeldInput(pending)
                stdin = fed
                pending = None
            stage_fds = dict(fds)
            if stdin is not None:
                stage_fds[0] = stdin
            if share and quiet[i]:
                if shared is None:
                    sub = shared = _fork(interp, stdin, True)
                else:
                    sub = shared
                    if prep is None and i:  # (_run_stage sets what _renew puts back)
                        _renew(sub, base_fds, base_arg)
            else:
                sub = _fork(interp, stdin)
                if type(cmd) in _UNCOUNTED:
                    sub.state.bash_subshell = st.bash_subshell
            if i == 0:
                saved_check = stop.install(sub.check_boundary)
                installed = True
            if i == n - 1:
                last = sub
                sub.keeps_value = keeps
                _run_stage(sub, cmd, stage_fds, None, None, statuses, i, True, prep)
                if sub is not shared:
                    sub.retire()
                break
            sub.keeps_value = False
            held = _held(spill, sub, i + 1)
            out: IO[bytes] = held  # type: ignore[assignment]  # (a registered BufferedIOBase)
            stage_fds[1] = out
            _run_stage(sub, cmd, stage_fds, None, out, statuses, i, True, prep)
            sub.last_data = None  # a stage's value before the last is nobody's
            if sub is not shared:
                sub.retire()
            if refused:  # the later stages could not start: the script ends, as at any limit
                raise refused[0]
            if held.pipe is not None:  # the later stages ran streaming
                for t in threads:
                    t.join()
                break
            pending = held.held()
    finally:
        if installed:
            stop.install(saved_check)
        if own is not None:
            # (the last stage's typed value is the pipeline's, below)
            result = (interp.last_typed, interp.last_data)
            _exchange(interp, own)
            if last is interp:
                interp.last_typed, interp.last_data = result
                last = None
        elif shared is not None:
            shared.retire()
    _take_result(interp, last)
    return statuses


# what the memory budget must have free for filter stages to run: far more than a tool
# charges for an input of HELD_BYTES (its bytes and a few copies, and 64 bytes a line
# held in a list when every line is one byte long)
FILTER_ROOM = 1 << 24


def _filter_room(meter: Meter) -> bool:
    """Whether the memory budget has room for what any filter stage would have charged
    had it run as a tool (FILTER_ROOM)."""
    return meter.held + meter.est + FILTER_ROOM <= meter.cap


def _renew(sub: Interpreter, cur_fds: Fds, last_arg: str) -> None:
    """Make `sub`, a shell reading its session's variables that ran a stage whose
    command and words assign nothing, as a new such fork of the session is: the fields
    that a stage of that kind changes (the command's results, its descriptor table,
    `$_`) are given the session's `cur_fds` and `last_arg` again, or set as a new shell
    sets them. test_pipeline_in_turn.py pins that running any such builtin changes
    nothing else of its shell."""
    sub.cur_fds = cur_fds
    sub.last_data = None
    sub.last_typed = False
    sub.cmdsub_status = None
    sub.state.last_arg = last_arg
