"""Multi-stage pipelines: every stage runs concurrently on its own copy of the session.

Stages are joined by OS pipes, so in-process stages (threads) and external commands
(subprocesses) interoperate and data streams with flat memory. When a reader finishes
early its end of the pipe is closed and the writer gets EPIPE: an in-process writer sees
BrokenPipeError and ends quietly with status 141, an external one dies of SIGPIPE
(also 141) — so `seq 1 100000000 | head -n 1` returns at once."""

from __future__ import annotations

import os
import threading
from typing import IO, TYPE_CHECKING

from tysh.kernel.base import stop
from tysh.kernel.base.control import BreakLoop, ContinueLoop, ExitShell, ReturnFromFunction
from tysh.kernel.base.streams import CheckedReader, CheckedWriter, Fds, close_quietly
from tysh.kernel.base.threads import NoThread, start_deep
from tysh.kernel.syntax import ast

if TYPE_CHECKING:
    from tysh.kernel.run.interpreter import Interpreter

PIPE_BUF_WRITE = 1 << 16


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
    try:
        with stop.checking(interp.check_boundary):  # this thread's run (kernel.base.stop)
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
    n = len(cmds)
    statuses = [0] * n
    threads: list[threading.Thread] = []
    prev_read: IO[bytes] | None = None
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
        if i == n - 1:
            last_interp = sub
            _run_stage(sub, cmd, stage_fds, own_in, own_out, statuses, i)
        else:
            t = threading.Thread(
                target=_run_stage,
                args=(sub, cmd, stage_fds, own_in, own_out, statuses, i),
                daemon=True,
                name="tysh-stage",
            )
            try:
                start_deep(t)
            except NoThread:
                # the stages already running see the end of their pipes and finish
                close_quietly(own_in)
                close_quietly(own_out)
                close_quietly(prev_read)
                for started in threads:
                    started.join()
                raise
            threads.append(t)
    for t in threads:
        t.join()
    if last_interp is not None:
        interp.last_typed = last_interp.last_typed
        interp.last_data = last_interp.last_data
    return statuses
