"""External commands: a subprocess wired to the command's streams.

Streams backed by an OS fd (files, pipes between pipeline stages, the CLI's real stdout)
are handed to the child directly, so output streams without copying; in-memory streams
(`Kernel.execute`'s capture, here-documents) are pumped through a pipe by a thread."""

from __future__ import annotations

import errno
import subprocess
import threading
from typing import IO, TYPE_CHECKING, Any

from tysh.kernel.streams import Fds, NullIO, fileno_of, flush_quietly

if TYPE_CHECKING:
    from tysh.kernel.limits import RunControl

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


def run_external(
    host_path: str,
    argv: list[str],
    env: dict[str, str],
    cwd: str | None,
    fds: Fds,
    stderr_name: str = "tysh",
    timeout: float | None = None,
    control: RunControl | None = None,
) -> int:
    """Run `argv` (argv[0] is the name as written) and return its exit status
    (128+N when killed by signal N, 124 when `timeout` seconds passed).

    With a `control`, the child is tracked so `Kernel.cancel()` kills it at once; when
    the control asks for process groups the child leads its own group and the whole
    group is killed (a shell script's children die with it)."""
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
        )
    except PermissionError:
        _err(fds, f"{stderr_name}: {argv[0]}: Permission denied\n")
        return 126
    except FileNotFoundError:
        _err(fds, f"{stderr_name}: {argv[0]}: No such file or directory\n")
        return 127
    except OSError as e:
        if e.errno == errno.ENOEXEC:
            return _run_as_script(host_path, argv, env, cwd, fds, timeout, control)
        if e.errno == errno.EISDIR or (e.errno == errno.EACCES):
            _err(fds, f"{stderr_name}: {argv[0]}: {e.strerror}\n")
            return 126
        _err(fds, f"{stderr_name}: {argv[0]}: {e.strerror}\n")
        return 126
    if control is not None:
        control.track(proc)
    threads: list[threading.Thread] = []
    for fd, stream in pumps:
        if fd == 0:
            assert proc.stdin is not None
            t = threading.Thread(target=_feed, args=(stream, proc.stdin), daemon=True)
        else:
            pipe = proc.stdout if fd == 1 else proc.stderr
            assert pipe is not None
            t = threading.Thread(target=_drain, args=(pipe, stream), daemon=True)
        t.start()
        threads.append(t)
    try:
        rc = proc.wait(timeout)
    except subprocess.TimeoutExpired:
        _kill(proc, control)
        proc.wait()
        rc = 124
    except KeyboardInterrupt:
        _kill(proc, control)
        rc = proc.wait()
    finally:
        if control is not None:
            control.untrack(proc)
    for t in threads:
        t.join()
    return 128 - rc if rc < 0 else rc


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
) -> int:
    """A file without a `#!` line runs as a tysh script, as bash runs it as a bash script."""
    import sys

    exe = sys.executable or "/usr/bin/python3"
    return run_external(exe, [exe, "-m", "tysh", host_path, *argv[1:]], env, cwd, fds,
                        timeout=timeout, control=control)


def _err(fds: Fds, text: str) -> None:
    s = fds.get(2)
    if s is not None:
        try:
            s.write(text.encode("utf-8", "surrogateescape"))
        except (OSError, ValueError):
            pass
