"""Multi-stage pipelines: every stage runs on its own copy of the session.

Stages are joined by OS pipes, so in-process stages (threads) and external commands
(subprocesses) interoperate and data streams with flat memory. When a reader finishes
early its end of the pipe is closed and the writer gets EPIPE: an in-process writer sees
BrokenPipeError and ends quietly with status 141, an external one dies of SIGPIPE
(also 141) — so `seq 1 100000000 | head -n 1` returns at once.

A pipeline of builtin filters over in-memory input (`cat f | sort | uniq | head` in an
embedded kernel) first runs its stages in turn on this thread: each stage's output is
held in memory as the next stage's input, which costs no thread, pipe or GIL handoff.
Held output is bounded (HELD_BYTES, what a pipe holds before its writer waits): the
first stage to write more starts the stages after it as threads joined by pipes and
goes on writing into the first pipe, so endless producers (`yes | head -n 1`) and large
data stream as before. Only commands that cannot wait on anything but their input run
in turn (see `_in_turn`): a stage that could wait on another stage, a clock or a
terminal always runs concurrently."""

from __future__ import annotations

import io
import os
import threading
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any, cast

from tysh.kernel.base import stop
from tysh.kernel.base.control import BreakLoop, ContinueLoop, ExitShell, ReturnFromFunction
from tysh.kernel.base.streams import CheckedReader, CheckedWriter, Fds, close_quietly
from tysh.kernel.base.threads import NoThread, start_deep
from tysh.kernel.syntax import ast

if TYPE_CHECKING:
    from tysh.kernel.run.interpreter import Interpreter

PIPE_BUF_WRITE = 1 << 16
# the most a stage run in turn holds of its output before the rest of the pipeline
# starts streaming: a pipe's default capacity, so a writer that bash would see finish
# into a pipe nobody reads (`printf '…' | head -1`, status 0) finishes here too
HELD_BYTES = 1 << 16


def _run_stage(
    interp: Interpreter,
    cmd: ast.Command,
    fds: Fds,
    own_in: IO[bytes] | None,
    own_out: IO[bytes] | None,
    statuses: list[int],
    i: int,
) -> None:
    """Run one stage and close the pipe ends it owns, whatever happens."""
    status = 0
    saved_check = stop.install(interp.check_boundary)  # this thread's run (kernel.base.stop)
    try:
        status = interp.run_command(cmd, fds)
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
    if _in_turn(interp, cmds, fds):
        return _run_in_turn(interp, cmds, fds)
    statuses = [0] * len(cmds)
    threads, last = _stream(interp, cmds, fds, statuses, 0, None, here=True)
    for t in threads:
        t.join()
    if last is not None:
        interp.last_typed = last.last_typed
        interp.last_data = last.last_data
    return statuses


def _stream(
    interp: Interpreter,
    cmds: Sequence[ast.Command],
    fds: Fds,
    statuses: list[int],
    first: int,
    stdin: IO[bytes] | None,
    *,
    here: bool,
    feeder: IO[bytes] | None = None,
) -> tuple[list[threading.Thread], Interpreter | None]:
    """Start `cmds` (stages `first`… of the pipeline) concurrently, joined by pipes, the
    first reading `stdin` (the pipeline's own when None); the last runs on this thread
    when `here`, else on its own too. Returns the threads to join and the last stage's
    shell (None if it never ran). `feeder` is the caller's write end of `stdin`'s pipe:
    closed when a thread cannot start, so the stages already started can end."""
    n = len(cmds)
    threads: list[threading.Thread] = []
    prev_read: IO[bytes] | None = stdin
    last_interp: Interpreter | None = None
    for i, cmd in enumerate(cmds):
        stage_fds = dict(fds)
        own_in = prev_read
        own_out: IO[bytes] | None = None
        if own_in is not None:
            stage_fds[0] = own_in
        try:
            sub = interp.fork()
            sub.see_jobs_of(interp)
        except Exception:
            close_quietly(own_in)
            raise
        if i < n - 1:
            r, w = os.pipe()
            _widen(w)
            # the writer checks for a cancel or a deadline, so an endless producer
            # feeding a patient consumer (`seq 1 1e12 | wc -l`) still stops
            if sub.control.check_streams or sub.deadline is not None:
                own_out = CheckedWriter(w, PIPE_BUF_WRITE, sub)
                prev_read = CheckedReader(r, interp)
            else:
                own_out = open(w, "wb", buffering=PIPE_BUF_WRITE)  # noqa: SIM115
                prev_read = open(r, "rb")  # noqa: SIM115
            stage_fds[1] = own_out
        else:
            prev_read = None
            last_interp = sub
            if here:
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
            # the stages already running see the end of their pipes and finish
            close_quietly(feeder)
            close_quietly(own_in)
            close_quietly(own_out)
            close_quietly(prev_read)
            for started in threads:
                started.join()
            raise
        threads.append(t)
    return threads, last_interp


# ---------------------------------------------------------------- stages in turn

# builtins that run in turn: they read their input and files, write their output and
# end — nothing in them waits on a clock, a terminal, a job or another command
_IN_TURN_KINDS = frozenset({"read", "search", "compute", "list", "write"})
_IN_TURN_SHELL = frozenset({
    "echo", "printf", "true", "false", ":", "yes", "pwd", "printenv", "test", "[",
    "uname", "hostname", "whoami", "id", "nproc", "date", "type", "which",
})
# builtins that never read their standard input: a pipeline they start may run in turn
# whatever that input is (a terminal, a pipe)
_NO_INPUT = frozenset({
    "echo", "printf", "true", "false", ":", "yes", "seq", "pwd", "printenv", "uname",
    "hostname", "whoami", "id", "nproc", "date",
})
# `tail -f` follows a file for ever: tail runs in turn only without a word that could
# ask for it
_FOLLOWERS = frozenset({"tail"})

# id(cmd) → (cmd, its stage's name when it may run in turn, else None); a syntax tree is
# immutable and the entry holds it, so an id is never reused while its entry lives
_SHAPES: dict[int, tuple[ast.Command, str | None]] = {}


def _in_turn(interp: Interpreter, cmds: Sequence[ast.Command], fds: Fds) -> bool:
    """Whether the stages may run one after another on this thread: the pipeline's input
    is in memory or its first stage never reads it (a terminal or a pipe another command
    feeds could make a stage wait on a person or a writer), and every stage is
    a builtin filter (see _IN_TURN_KINDS) written with plain words — no command or
    process substitution, no prefix assignment, no redirection but a descriptor copy or
    /dev/null — as it resolves now (not a function, not a disabled name, not a tool the
    embedder registered)."""
    if type(fds.get(0)) is not io.BytesIO and _name(cmds[0]) not in _NO_INPUT:
        return False
    st = interp.state
    functions = st.functions
    disabled = st.disabled
    registry = interp.registry
    for cmd in cmds:
        name = _name(cmd)
        if name is None or name in functions or (disabled and name in disabled):
            return False
        tool = registry.builtin(name)
        if tool is None or not (tool.schema.kind in _IN_TURN_KINDS or name in _IN_TURN_SHELL):
            return False
    return True


def _name(cmd: ast.Command) -> str | None:
    """`_shape(cmd)`, remembered per syntax tree node."""
    hit = _SHAPES.get(id(cmd))
    if hit is None or hit[0] is not cmd:
        if len(_SHAPES) > 4096:
            _SHAPES.clear()
        hit = _SHAPES[id(cmd)] = (cmd, _shape(cmd))
    return hit[1]


def _shape(cmd: ast.Command) -> str | None:
    """The literal command name of a stage that may run in turn, judged by its syntax
    alone (see _in_turn); None when it must run concurrently."""
    if type(cmd) is not ast.SimpleCommand or cmd.assigns or not cmd.words:
        return None
    first = cmd.words[0].parts
    if len(first) != 1 or type(first[0]) is not ast.Lit:
        return None
    name = first[0].text
    if not all(_plain(w) for w in cmd.words):
        return None
    if not all(_harmless(r) for r in cmd.redirects):
        return None
    if name in _FOLLOWERS:
        for w in cmd.words[1:]:
            p = w.parts
            if len(p) != 1 or type(p[0]) is not ast.Lit:
                return None
            t = p[0].text
            if t.startswith("-") and ("f" in t or "F" in t):
                return None
    return name


def _plain(w: ast.Word | None) -> bool:
    """A word whose expansion runs no command."""
    if w is None:
        return True
    for p in w.parts:
        tp = type(p)
        if tp is ast.Lit or tp is ast.Quoted:
            continue
        if tp is ast.DQ:
            if not _plain(ast.Word(p.parts)):  # type: ignore[union-attr]
                return False
        elif tp is ast.ParamExp:
            if not (_plain(p.index) and _plain(p.arg)  # type: ignore[union-attr]
                    and _plain(p.arg2)):  # type: ignore[union-attr]
                return False
        elif tp is ast.ArithSub:
            if not _plain(p.expr):  # type: ignore[union-attr]
                return False
        else:  # a command or process substitution
            return False
    return True


def _harmless(r: ast.Redirect) -> bool:
    """A redirection that opens nothing that could wait: a descriptor copy or close
    (`2>&1`, `>&-`), or /dev/null."""
    target = r.target
    if r.fd_var is not None or not isinstance(target, ast.Word):
        return False
    parts = target.parts
    if len(parts) != 1 or type(parts[0]) not in (ast.Lit, ast.Quoted):
        return False
    text = parts[0].text  # type: ignore[union-attr]
    if r.op in (">&", "<&"):
        return text == "-" or text.isdigit()
    return r.op in (">", ">>", "<", "&>", "&>>", ">|") and text == "/dev/null"


class _Held(io.BufferedIOBase):
    """The stdout of a stage run in turn: held in memory as the next stage's input until
    it passes HELD_BYTES; then `spill` starts the rest of the pipeline and everything
    (what was held, then each later write) goes to the pipe it returns. Writes stop at a
    cancel or a deadline, as a pipe's do."""

    def __init__(self, interp: Interpreter, spill: Any) -> None:
        super().__init__()
        self._interp = interp
        self._control = interp.control
        self._spill = spill
        self._buf = bytearray()
        self.out: IO[bytes] | None = None  # the pipe, once spilled

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        out = self.out
        if out is not None:
            return int(out.write(b))
        if self._control.cancelled or self._interp.deadline is not None:
            self._interp.check_boundary()
        if self.closed:
            raise ValueError("write to closed file")
        n = len(b) if type(b) is bytes else memoryview(b).nbytes
        buf = self._buf
        if len(buf) + n <= HELD_BYTES:
            buf += b
            return n
        self.out = out = self._spill()
        if buf:
            held = bytes(buf)
            self._buf = bytearray()
            out.write(held)
        return int(out.write(b))

    def held(self) -> bytes:
        return bytes(self._buf)

    def flush(self) -> None:
        if self.out is not None:
            self.out.flush()

    def close(self) -> None:
        if self.closed:
            return
        try:
            if self.out is not None:
                self.out.close()
        finally:
            super().close()


class _Piped(io.BytesIO):
    """A held output as the next stage's input: read as the end of a pipe is, which
    cannot seek (`wc` sizes its columns as for a pipe, not a file)."""

    def seekable(self) -> bool:
        return False

    def seek(self, _pos: int, _whence: int = 0) -> int:
        raise io.UnsupportedOperation("seek")

    def tell(self) -> int:
        raise io.UnsupportedOperation("tell")


def _run_in_turn(interp: Interpreter, cmds: tuple[ast.Command, ...], fds: Fds) -> list[int]:
    """Run the stages one after another on this thread (see the module docstring)."""
    n = len(cmds)
    statuses = [0] * n
    stdin: IO[bytes] | None = None  # the pipeline's own for the first stage
    last: Interpreter | None = None
    threads: list[threading.Thread] = []
    refused: list[NoThread] = []
    for i, cmd in enumerate(cmds):
        stage_fds = dict(fds)
        if stdin is not None:
            stage_fds[0] = stdin
        try:
            sub = interp.fork()
            sub.see_jobs_of(interp)
        except Exception:
            close_quietly(stdin)
            raise
        if i == n - 1:
            last = sub
            _run_stage(sub, cmd, stage_fds, stdin, None, statuses, i)
            break
        rest = cmds[i + 1:]

        def spill(first: int = i + 1, rest: tuple[ast.Command, ...] = rest,
                  sub: Interpreter = sub) -> IO[bytes]:
            nonlocal last
            r, w = os.pipe()
            _widen(w)
            out: IO[bytes]
            if sub.control.check_streams or sub.deadline is not None:
                out = CheckedWriter(w, PIPE_BUF_WRITE, sub)
                reader: IO[bytes] = CheckedReader(r, interp)
            else:
                out = open(w, "wb", buffering=PIPE_BUF_WRITE)  # noqa: SIM115
                reader = open(r, "rb")  # noqa: SIM115
            try:
                started, last = _stream(interp, rest, fds, statuses, first, reader,
                                        here=False, feeder=out)
            except NoThread as e:
                refused.append(e)
                raise BrokenPipeError(32, "no thread for the rest of the pipeline") from None
            except BaseException:
                close_quietly(out)
                raise
            threads.extend(started)
            return out

        held = _Held(sub, spill)
        out = cast("IO[bytes]", held)
        stage_fds[1] = out
        _run_stage(sub, cmd, stage_fds, stdin, out, statuses, i)
        if refused:  # the rest could not start: the script ends, as at any thread limit
            raise refused[0]
        if held.out is not None:  # the rest ran streaming
            for t in threads:
                t.join()
            break
        stdin = _Piped(held.held())
    if last is not None:
        interp.last_typed = last.last_typed
        interp.last_data = last.last_data
    return statuses
