"""External commands: a subprocess wired to the command's streams.

Streams backed by an OS fd (files, pipes between pipeline stages, the CLI's real stdout)
are handed to the child directly, so output streams without copying; in-memory streams
(`Kernel.execute`'s capture, here-documents) are pumped through a pipe by a thread."""

from __future__ import annotations

import errno
import subprocess
import threading
from typing import IO, Any

from tysh.kernel.streams import Fds, NullIO, fileno_of, flush_quietly

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
            except (BrokenPipeError, OSError, ValueError):
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
) -> int:
    """Run `argv` (argv[0] is the name as written) and return its exit status
    (128+N when killed by signal N)."""
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
    try:
        proc = subprocess.Popen(
            argv,
            executable=host_path,
            stdin=spec[0],
            stdout=spec[1],
            stderr=spec[2],
            env=env,
            cwd=cwd,
        )
    except PermissionError:
        _err(fds, f"{stderr_name}: {argv[0]}: Permission denied\n")
        return 126
    except FileNotFoundError:
        _err(fds, f"{stderr_name}: {argv[0]}: No such file or directory\n")
        return 127
    except OSError as e:
        if e.errno == errno.ENOEXEC:
            return _run_as_script(host_path, argv, env, cwd, fds)
        if e.errno == errno.EISDIR or (e.errno == errno.EACCES):
            _err(fds, f"{stderr_name}: {argv[0]}: {e.strerror}\n")
            return 126
        _err(fds, f"{stderr_name}: {argv[0]}: {e.strerror}\n")
        return 126
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
        proc.kill()
        proc.wait()
        rc = 124
    except KeyboardInterrupt:
        proc.kill()
        rc = proc.wait()
    for t in threads:
        t.join()
    return 128 - rc if rc < 0 else rc


def _run_as_script(
    host_path: str, argv: list[str], env: dict[str, str], cwd: str | None, fds: Fds
) -> int:
    """A file without a `#!` line runs as a tysh script, as bash runs it as a bash script."""
    import sys

    exe = sys.executable or "/usr/bin/python3"
    return run_external(exe, [exe, "-m", "tysh", host_path, *argv[1:]], env, cwd, fds)


def _err(fds: Fds, text: str) -> None:
    s = fds.get(2)
    if s is not None:
        try:
            s.write(text.encode("utf-8", "surrogateescape"))
        except (OSError, ValueError):
            pass
