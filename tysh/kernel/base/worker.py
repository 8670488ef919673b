"""Native and CPU-bound work in a child process that a deadline or `cancel()` can kill.

libjq holds the interpreter lock while it loops and aborts the whole process on some
programs (`def f: [f]; f`); no thread can stop either. So such a call runs in a warm
child process instead: `call("tysh.builtins.json.jqwork", "run", {...})` sends one JSON
request and waits for one JSON reply, looking at the command's stop check
(kernel.base.stop) every SLICE seconds. On a stop the child is killed and reaped and
the stop raised; a child that dies (abort, crash, its memory limit) is reported as a
WorkerDied with the signal's name, and the next call starts a fresh one.

The child is `python -m tysh.kernel.base.worker`, started on first use (never at import
or Kernel() time; exec, not fork, since forking a threaded process is unsafe), with
RLIMIT_AS at MEMORY_LIMIT and no core files. It runs only functions of tysh modules and
speaks JSON both ways, so even a child whose native code was subverted cannot make the
host run code. Idle children are kept for reuse (at most MAX_IDLE); each is started
by one long-lived thread with the kernel's parent-death signal, so none outlives the
host, and every child that ends is waited for (no zombies)."""

from __future__ import annotations

import json
import os
import queue
import select
import signal
import struct
import subprocess
import sys
import threading
from collections.abc import Callable

from tysh.kernel.base import stop

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

SLICE = 0.05  # seconds between two looks at the stop check while waiting
MEMORY_LIMIT = 1 << 30  # address space of one child (RLIMIT_AS)
MAX_IDLE = 2
_HEADER = struct.Struct(">I")


class WorkerDied(Exception):
    """The child ended without answering (native abort, crash, memory limit)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class WorkerError(Exception):
    """The function raised in the child; `message` is its text."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _write_frame(f: IO[bytes], obj: Any) -> None:
    data = json.dumps(obj, ensure_ascii=False, allow_nan=True).encode("utf-8",
                                                                      "surrogatepass")
    f.write(_HEADER.pack(len(data)) + data)
    f.flush()


def _read_exact(fd: int, n: int) -> bytes | None:
    buf = bytearray()
    while len(buf) < n:
        chunk = os.read(fd, n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)


class _Child:
    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        assert proc.stdin is not None and proc.stdout is not None
        self.stdin = proc.stdin
        self.out_fd = proc.stdout.fileno()

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.kill()
            except OSError:
                pass
        self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            if f is not None:
                try:
                    f.close()
                except OSError:
                    pass

    def death(self) -> str:
        """Why the child ended (after it has)."""
        self.kill()
        code = self.proc.returncode
        if code is not None and code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            if -code == signal.SIGKILL:
                return f"killed ({name}; out of memory?)"
            return f"aborted ({name})"
        return f"exited with status {code}"


# -- starting children from one long-lived thread ------------------------------------

_spawn_q: queue.SimpleQueue[tuple[queue.SimpleQueue[Any], int]] = queue.SimpleQueue()
_spawner: threading.Thread | None = None
_lock = threading.Lock()
_idle: list[_Child] = []


def _spawner_loop() -> None:
    while True:
        reply, limit = _spawn_q.get()
        try:
            env = dict(os.environ)
            env["TYSH_WORKER_MEMORY"] = str(limit)
            # the child imports the very tysh this process runs
            root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
                os.path.abspath(__file__)))))
            env["PYTHONPATH"] = os.pathsep.join(
                x for x in (root, env.get("PYTHONPATH", "")) if x)
            proc = subprocess.Popen(
                [sys.executable, "-m", "tysh.kernel.base.worker", str(os.getpid())],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                env=env, close_fds=True,
            )
            reply.put(_Child(proc))
        except Exception as e:  # noqa: BLE001 - handed to the caller
            reply.put(e)


def _spawn(limit: int) -> _Child:
    """A new child, started by the spawner thread: the parent-death signal follows the
    thread that started a child, and that thread lives as long as the process."""
    global _spawner
    with _lock:
        if _spawner is None or not _spawner.is_alive():
            _spawner = threading.Thread(target=_spawner_loop, name="tysh-worker-spawner",
                                        daemon=True)
            _spawner.start()
    reply: queue.SimpleQueue[Any] = queue.SimpleQueue()
    _spawn_q.put((reply, limit))
    got = reply.get()
    if isinstance(got, Exception):
        raise WorkerDied(f"could not start: {got}")
    return got  # type: ignore[no-any-return]


def _take() -> _Child:
    with _lock:
        while _idle:
            c = _idle.pop()
            if c.proc.poll() is None:
                return c
            c.kill()
    return _spawn(MEMORY_LIMIT)


def _give_back(c: _Child) -> None:
    with _lock:
        if len(_idle) < MAX_IDLE:
            _idle.append(c)
            return
    c.kill()


def shutdown() -> None:
    """End every idle child (tests; the process's exit does it too)."""
    with _lock:
        idle = list(_idle)
        _idle.clear()
    for c in idle:
        c.kill()


def call(module: str, func: str, payload: Any,
         check: Callable[[], None] | None = None) -> Any:
    """Run `module.func(payload)` in a worker and return its result (JSON values both
    ways). Raises WorkerError when the function raised, WorkerDied when the child ended
    without an answer, and whatever the stop check raises (the child is then killed)."""
    if not module.startswith("tysh."):
        raise ValueError("workers run tysh functions only")
    check = check or stop.check
    child = _take()
    try:
        _write_frame(child.stdin, {"module": module, "func": func, "payload": payload})
    except (BrokenPipeError, OSError):
        raise WorkerDied(child.death()) from None
    try:
        while True:
            ready, _, _ = select.select([child.out_fd], [], [], SLICE)
            if ready:
                break
            check()
    except BaseException:
        child.kill()
        raise
    head = _read_exact(child.out_fd, _HEADER.size)
    body = _read_exact(child.out_fd, _HEADER.unpack(head)[0]) if head is not None else None
    if body is None:
        raise WorkerDied(child.death())
    reply = json.loads(body.decode("utf-8", "surrogatepass"))
    _give_back(child)
    if "error" in reply:
        raise WorkerError(str(reply["error"]))
    return reply.get("result")


# -- the child ----------------------------------------------------------------------------


def _child_setup(parent: int) -> None:
    import resource

    limit = int(os.environ.get("TYSH_WORKER_MEMORY", MEMORY_LIMIT))
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ValueError, OSError):
        pass
    try:  # die with the host (Linux): a looping child never outlives it
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(0)


def _child_main(parent: int) -> None:
    import importlib

    _child_setup(parent)
    inp = sys.stdin.buffer
    out = sys.stdout.buffer
    while True:
        head = inp.read(_HEADER.size)
        if len(head) < _HEADER.size:
            return
        (n,) = _HEADER.unpack(head)
        req = json.loads(inp.read(n).decode("utf-8", "surrogatepass"))
        try:
            mod = importlib.import_module(req["module"])
            result = getattr(mod, req["func"])(req["payload"])
            reply: dict[str, Any] = {"result": result}
        except MemoryError:
            reply = {"error": "out of memory"}
        except Exception as e:  # noqa: BLE001 - the function's failure is the answer
            reply = {"error": str(e) or type(e).__name__}
        _write_frame(out, reply)


if __name__ == "__main__":
    _child_main(int(sys.argv[1]) if len(sys.argv) > 1 else os.getppid())
