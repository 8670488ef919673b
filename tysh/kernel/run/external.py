"""External commands: a subprocess wired to the command's streams.

Streams backed by an OS fd (files, pipes between pipeline stages, the CLI's real stdout)
are handed to the child directly, so output streams without copying; in-memory streams
(`Kernel.execute`'s capture, here-documents) are pumped through a pipe by a thread."""

from __future__ import annotations

import errno
import io
import os
import subprocess
import threading
import time
from collections.abc import Callable

from tysh.kernel.base.hints import cast
from tysh.kernel.base.streams import Fds, NullIO, fileno_of, flush_quietly

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

if TYPE_CHECKING:
    from tysh.kernel.base.limits import RunControl

CHUNK = 1 << 16


def _feed(src: IO[bytes], dst: IO[bytes]) -> None:
    try:
        while True:
            chunk = src.read(CHUNK)
            if not chunk:
                break
            dst.write(chunk)
    except (BrokenPipeError, OSError, ValueError):
        pass
    finally:
        try:
            dst.close()
        except OSError:
            pass


def _drain(src: IO[bytes], dst: IO[bytes]) -> None:
    try:
        while True:
            chunk = src.read1(CHUNK) if hasattr(src, "read1") else src.read(CHUNK)
            if not chunk:
                break
            try:
                dst.write(chunk)
            except Exception:  # noqa: BLE001 — a closed pipe, a cancel: stop pumping
                break
    finally:
        src.close()


def c_strings(argv: list[str], env: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """argv and environment as a program receives them: C strings, each ending at its
    first NUL (a shell value may hold one; `exec` cannot pass it)."""
    if any("\0" in a for a in argv):
        argv = [a.split("\0", 1)[0] for a in argv]
    if any("\0" in k or "\0" in v for k, v in env.items()):
        env = {k.split("\0", 1)[0]: v.split("\0", 1)[0] for k, v in env.items()
               if not k.startswith("\0")}
    return argv, env


def run_external(
    host_path: str,
    argv: list[str],
    env: dict[str, str],
    cwd: str | None,
    fds: Fds,
    stderr_name: str = "tysh",
    timeout: float | None = None,
    control: RunControl | None = None,
    umask: int | None = None,
    rlimits: dict[int, tuple[int, int]] | None = None,
    pass_fds: tuple[int, ...] = (),
) -> int:
    """Run `argv` (argv[0] is the name as written) and return its exit status
    (128+N when killed by signal N, 124 when `timeout` seconds passed); `umask` and
    `rlimits` (resource -> (soft, hard), -1 unlimited), when given, are the child's
    (the session's `umask` and `ulimit`).

    With a `control`, the child is tracked so `Kernel.cancel()` kills it at once; when
    the control asks for process groups the child leads its own group and the whole
    group is killed (a shell script's children die with it)."""
    argv, env = c_strings(argv, env)
    spec: list[Any] = []
    pumps: list[tuple[int, IO[bytes]]] = []
    for fd in (0, 1, 2):
        stream = fds.get(fd)
        if stream is None or isinstance(stream, NullIO):
            spec.append(subprocess.DEVNULL)
            continue
        n = fileno_of(stream)
        if n is None:
            spec.append(subprocess.PIPE)
            pumps.append((fd, stream))
        else:
            if fd:
                flush_quietly(stream)
            spec.append(n)
    group = control is not None and control.process_groups
    higher = [(fd, st) for fd, st in fds.items()
              if fd > 2 and st is not None and not isinstance(st, NullIO)]
    preexec = _limiter(rlimits) if rlimits else None
    if control is not None and control.quiet_interrupt:
        preexec = _interrupt_ignorer(preexec)
    close_fds = True
    ends: list[int] = []
    if higher:
        # the script's own descriptors (`exec 8<f`, `cmd 3>&1`, `8<<EOF`) are the
        # child's at the same numbers, as bash passes them
        moves, ends, more = _higher_fds(higher)
        pumps.extend(more)
        preexec = _mover(moves, pass_fds, preexec)
        close_fds, pass_fds = False, ()
    try:
        proc = subprocess.Popen(
            argv,
            executable=host_path,
            stdin=spec[0],
            stdout=spec[1],
            stderr=spec[2],
            env=env,
            cwd=cwd,
            process_group=0 if group else None,
            umask=-1 if umask is None else umask,
            preexec_fn=preexec,
            close_fds=close_fds,
            pass_fds=pass_fds,
        )
    except PermissionError:
        _err(fds, f"{stderr_name}: {argv[0]}: Permission denied\n")
        return 126
    except FileNotFoundError:
        _err(fds, f"{stderr_name}: {argv[0]}: No such file or directory\n")
        return 127
    except OSError as e:
        if e.errno == errno.ENOEXEC:
            return _run_as_script(host_path, argv, env, cwd, fds, timeout, control, umask,
                                  rlimits)
        if e.errno == errno.EISDIR or (e.errno == errno.EACCES):
            _err(fds, f"{stderr_name}: {argv[0]}: {e.strerror}\n")
            return 126
        _err(fds, f"{stderr_name}: {argv[0]}: {e.strerror}\n")
        return 126
    finally:
        for n in ends:  # the child's ends of the pumped pipes: the child has them now
            os.close(n)
    if control is not None:
        control.track(proc)
    threads: list[threading.Thread] = []
    for fd, stream in pumps:
        if fd < 0:  # a pumped higher descriptor: (-1, (our end, the script's stream))
            ours, script_stream = cast("tuple[IO[bytes], IO[bytes]]", stream)
            if ours.writable():
                t = threading.Thread(target=_feed, args=(script_stream, ours), daemon=True)
            else:
                t = threading.Thread(target=_drain, args=(ours, script_stream), daemon=True)
        elif fd == 0:
            assert proc.stdin is not None
            t = threading.Thread(target=_feed, args=(stream, proc.stdin), daemon=True)
        else:
            pipe = proc.stdout if fd == 1 else proc.stderr
            assert pipe is not None
            t = threading.Thread(target=_drain, args=(pipe, stream), daemon=True)
        t.start()
        threads.append(t)
    status = -1
    try:
        status = _wait_status(proc, timeout)
    except subprocess.TimeoutExpired:
        _kill(proc, control)
        _wait_status(proc, None)
        status = 124
    except KeyboardInterrupt:
        # the child had the terminal's SIGINT too: give it a moment to end on its own
        # (and keep its status, as bash does) before killing it
        try:
            status = _wait_status(proc, SIGINT_GRACE)
        except subprocess.TimeoutExpired:
            _kill(proc, control)
            status = _wait_status(proc, None)
    finally:
        if status < 0:  # leaving on a second Ctrl-C (or worse): don't leave the child behind
            _kill(proc, control)
        if control is not None:
            control.untrack(proc)
        _reap(proc)
    for t in threads:
        t.join()
    return status


SIGINT_GRACE = 0.25


def _wait_status(proc: subprocess.Popen[bytes], timeout: float | None) -> int:
    """The child's status as the shell reports it, once it has ended, without reaping it.

    `Popen.wait` reaps first and records the status after, so a Ctrl-C landing between
    the two loses the status (it later reads as 0). `waitid(WNOWAIT)` leaves the child a
    zombie until `_reap`, so an interrupted wait can simply be asked again."""
    waitid = getattr(os, "waitid", None)
    if waitid is None:  # pragma: no cover — every POSIX tysh runs on has waitid
        rc = proc.wait(timeout)
        return 128 - rc if rc < 0 else rc
    flags = os.WEXITED | os.WNOWAIT
    deadline = None if timeout is None else time.monotonic() + timeout
    delay = 0.0005
    while True:
        try:
            info = waitid(os.P_PID, proc.pid, flags if deadline is None else flags | os.WNOHANG)
        except ChildProcessError:  # reaped by another thread (cancel's poll): ask Popen
            rc = proc.wait()
            return 128 - rc if rc < 0 else rc
        if info is not None:
            if info.si_code == os.CLD_EXITED:
                return int(info.si_status)
            return 128 + int(info.si_status)
        assert deadline is not None
        left = deadline - time.monotonic()
        if left <= 0:
            raise subprocess.TimeoutExpired(proc.args, timeout or 0.0)
        time.sleep(min(delay, left))
        delay = min(delay * 2, 0.05)


def _reap(proc: subprocess.Popen[bytes]) -> None:
    """Collect the ended child (its status is already known); never blocks, so a child
    just killed on the way out is left to Popen's own clean-up rather than waited for."""
    try:
        proc.poll()
    except KeyboardInterrupt:
        pass


def _kill(proc: subprocess.Popen[bytes], control: RunControl | None) -> None:
    if control is not None:
        control.kill(proc)
    else:
        proc.kill()


def _run_as_script(
    host_path: str,
    argv: list[str],
    env: dict[str, str],
    cwd: str | None,
    fds: Fds,
    timeout: float | None,
    control: RunControl | None,
    umask: int | None = None,
    rlimits: dict[int, tuple[int, int]] | None = None,
) -> int:
    """A file without a `#!` line runs as a tysh script, as bash runs it as a bash script."""
    import sys

    exe = sys.executable or "/usr/bin/python3"
    return run_external(exe, [exe, "-m", "tysh", host_path, *argv[1:]], env, cwd, fds,
                        timeout=timeout, control=control, umask=umask, rlimits=rlimits)


def _higher_fds(
    higher: list[tuple[int, IO[bytes]]],
) -> tuple[list[tuple[int, int]], list[int], list[tuple[int, Any]]]:
    """For each descriptor above 2 the child gets: (our fd, its number in the child);
    the fds to close once the child has them; and the pumps for in-memory streams (a
    here-document, a capture), each through a new pipe."""
    moves: list[tuple[int, int]] = []
    ends: list[int] = []
    pumps: list[tuple[int, Any]] = []
    for target, stream in higher:
        n = fileno_of(stream)
        if n is not None:
            if stream.writable():
                flush_quietly(stream)
            if n <= 2:
                # the child's 0-2 are already its own streams when the moves run
                n = os.dup(n)
                ends.append(n)
            moves.append((n, target))
            continue
        r, w = os.pipe()
        # a here-document or here-string is a plain BytesIO to read; every capture
        # (`execute()`'s, `$(…)`'s) is a subclass that is written
        if type(stream) is io.BytesIO:
            moves.append((r, target))
            ends.append(r)
            pumps.append((-1, (os.fdopen(w, "wb"), stream)))
        else:
            moves.append((w, target))
            ends.append(w)
            pumps.append((-1, (os.fdopen(r, "rb"), stream)))
    return moves, ends, pumps


def _mover(moves: list[tuple[int, int]], keep: tuple[int, ...],
           then: Callable[[], None] | None) -> Callable[[], None]:
    """What the child runs between fork and exec to put each descriptor at its number
    (in two steps, so one's target never clobbers another's source) and keep the
    substitutions' pipes open; then the session's limits."""
    import fcntl

    dup2, set_inheritable, fcntl_ = os.dup2, os.set_inheritable, fcntl.fcntl
    # the copies sit above every target, so placing one never overwrites another
    floor = max(target for _, target in moves) + 1
    above = fcntl.F_DUPFD_CLOEXEC
    wanted = {target for _, target in moves} | set(keep)
    listdir, get_inheritable, close = os.listdir, os.get_inheritable, os.close

    def apply() -> None:
        held = [(fcntl_(src, above, floor), target) for src, target in moves]
        for tmp, target in held:
            if tmp != target:
                dup2(tmp, target, inheritable=True)
            set_inheritable(target, True)  # a copy that landed on its own number
        for fd in keep:
            set_inheritable(fd, True)
        # no descriptor of the host process beyond these reaches the program: what is
        # close-on-exec goes at exec; anything else inheritable is closed here
        try:
            names = listdir("/proc/self/fd")
        except OSError:
            names = []
        for name in names:
            fd = int(name)
            if fd > 2 and fd not in wanted:
                try:
                    if get_inheritable(fd):
                        close(fd)
                except OSError:
                    pass
        if then is not None:
            then()

    return apply


def _interrupt_ignorer(then: Callable[[], None] | None) -> Callable[[], None]:
    """What a background job's child runs before exec: SIGINT and SIGQUIT ignored, as
    a non-interactive bash starts its asynchronous commands (a program cannot trap
    them again)."""
    import signal

    sig_ign, set_signal = signal.SIG_IGN, signal.signal
    sigint, sigquit = signal.SIGINT, signal.SIGQUIT

    def apply() -> None:
        set_signal(sigint, sig_ign)
        set_signal(sigquit, sig_ign)
        if then is not None:
            then()

    return apply


def _limiter(rlimits: dict[int, tuple[int, int]]) -> Callable[[], None]:
    """What the child runs between fork and exec to take the session's limits (only
    setrlimit calls, nothing that could wait on a lock another thread held)."""
    import resource

    inf = resource.RLIM_INFINITY
    todo = [(res, inf if soft < 0 else soft, inf if hard < 0 else hard)
            for res, (soft, hard) in rlimits.items()]
    setrlimit = resource.setrlimit

    def apply() -> None:
        for res, soft, hard in todo:
            try:
                setrlimit(res, (soft, hard))
            except (ValueError, OSError):
                pass

    return apply


def _err(fds: Fds, text: str) -> None:
    s = fds.get(2)
    if s is not None:
        try:
            s.write(text.encode("utf-8", "surrogateescape"))
        except (OSError, ValueError):
            pass
