"""tysh as an ACP client's terminal: `terminal/create`, `output`, `wait_for_exit`, `kill`
and `release` fulfilled in a sandboxed tysh kernel, one kernel per ACP session.

Plug it into a client built with the ACP SDK (`pip install 'tysh[acp]'`): subclass
`TyshClient`, or give your own client a `TerminalHandler` and delegate the five methods.
A command runs as tysh source when `args` is empty (`command` is the script), or as
`command args…` quoted word for word; `sh -c SCRIPT` / `bash -c SCRIPT` run SCRIPT in
tysh. Output (stdout and stderr, in the order written) is kept to `outputByteLimit`
bytes, dropping from the start at a character boundary; `truncated` says so. The
commands' tool-call events, envelope and all, go to `on_event(session_id, update)`."""

from __future__ import annotations

import asyncio
import io
import itertools
import shlex
import threading
from collections.abc import Callable
from typing import Any

from acp import RequestError
from acp.schema import (
    CreateTerminalResponse,
    EnvVariable,
    KillTerminalResponse,
    ReleaseTerminalResponse,
    TerminalExitStatus,
    TerminalOutputResponse,
    WaitForTerminalExitResponse,
)

from tysh.kernel.embed.kernel import Kernel

# the output a terminal keeps when the agent sets no limit
DEFAULT_OUTPUT_LIMIT = 1 << 24
_SHELLS = frozenset(("sh", "bash", "tysh", "/bin/sh", "/bin/bash", "/usr/bin/bash"))

EventCallback = Callable[[str, dict[str, Any]], None]
KernelFactory = Callable[[str], Kernel]


class _Screen(io.RawIOBase):
    """A terminal's output: the last `limit` bytes written, cut at a UTF-8 boundary."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self.data = bytearray()
        self.truncated = False
        self.lock = threading.Lock()

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        chunk = bytes(b)
        with self.lock:
            self.data += chunk
            over = len(self.data) - self.limit
            if over > 0:
                # never start inside a character: skip its continuation bytes too
                while over < len(self.data) and self.data[over] & 0xC0 == 0x80:
                    over += 1
                del self.data[:over]
                self.truncated = True
        return len(chunk)

    def text(self) -> tuple[str, bool]:
        with self.lock:
            return self.data.decode("utf-8", "replace"), self.truncated


class _Terminal:
    def __init__(self, tid: str, limit: int) -> None:
        self.id = tid
        self.screen = _Screen(limit)
        self.done = threading.Event()
        self.exit_code: int | None = None
        self.signal: str | None = None
        self.killed = False
        self.started = False
        self.thread: threading.Thread | None = None

    def status(self) -> TerminalExitStatus | None:
        if not self.done.is_set():
            return None
        return TerminalExitStatus(exit_code=self.exit_code, signal=self.signal)


class _Session:
    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        self.lock = threading.Lock()  # one command at a time in the session's kernel
        self.terminals: dict[str, _Terminal] = {}
        self.running: _Terminal | None = None


def _script(command: str, args: list[str] | None) -> str:
    if not args:
        return command
    if command in _SHELLS and len(args) >= 2 and args[0] == "-c":
        return args[1]
    return shlex.join([command, *args])


class TerminalHandler:
    """The terminal side of an ACP client, on sandboxed tysh kernels.

    `root`: the directory every session's kernel is confined to (`Kernel(root)`: files
    outside it and external programs are refused); or `kernel_factory(session_id)` makes
    each session's kernel. `on_event(session_id, update)` receives the tool-call events
    of the commands run."""

    def __init__(self, root: str | None = None, *,
                 kernel_factory: KernelFactory | None = None,
                 on_event: EventCallback | None = None,
                 timeout: float | None = None) -> None:
        if kernel_factory is None:
            if root is None:
                raise ValueError("TerminalHandler: give a root directory or a kernel_factory")
            confined = root

            def kernel_factory(session_id: str) -> Kernel:
                return Kernel(confined)

        self._factory = kernel_factory
        self._on_event = on_event
        self._timeout = timeout
        self._sessions: dict[str, _Session] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def kernel(self, session_id: str) -> Kernel:
        """The session's kernel (made on first use)."""
        return self._session(session_id).kernel

    def _session(self, session_id: str) -> _Session:
        with self._lock:
            s = self._sessions.get(session_id)
            if s is None:
                k = self._factory(session_id)
                s = self._sessions[session_id] = _Session(k)
                if self._on_event is not None:
                    cb = self._on_event
                    k.add_listener(lambda update: cb(session_id, update))
            return s

    def _terminal(self, session_id: str, terminal_id: str) -> tuple[_Session, _Terminal]:
        s = self._sessions.get(session_id)
        t = s.terminals.get(terminal_id) if s is not None else None
        if s is None or t is None:
            raise RequestError.invalid_params(
                {"terminalId": terminal_id, "message": "no such terminal in this session"})
        return s, t

    # ---------------------------------------------------------------- ACP methods
    async def create_terminal(self, session_id: str, command: str,
                              args: list[str] | None = None,
                              env: list[EnvVariable] | None = None, cwd: str | None = None,
                              output_byte_limit: int | None = None,
                              **kwargs: Any) -> CreateTerminalResponse:
        s = self._session(session_id)
        tid = f"term-{next(self._ids)}"
        limit = output_byte_limit if output_byte_limit is not None else DEFAULT_OUTPUT_LIMIT
        t = _Terminal(tid, max(limit, 0))
        s.terminals[tid] = t
        src = _script(command, args)
        variables = {e.name: e.value for e in env or ()}
        t.thread = threading.Thread(target=self._run, args=(s, t, src, variables, cwd),
                                    name=f"tysh-{tid}", daemon=True)
        t.thread.start()
        return CreateTerminalResponse(terminal_id=tid)

    def _run(self, s: _Session, t: _Terminal, src: str, env: dict[str, str],
             cwd: str | None) -> None:
        with s.lock:
            try:
                if t.killed:
                    t.signal = "SIGKILL"
                    return
                s.running = t
                t.started = True
                code = self._execute(s.kernel, t, src, env, cwd)
                if t.killed:
                    t.signal = "SIGKILL"
                else:
                    t.exit_code = code
            finally:
                s.running = None
                t.done.set()

    def _execute(self, kernel: Kernel, t: _Terminal, src: str, env: dict[str, str],
                 cwd: str | None) -> int:
        from typing import IO, cast

        screen = cast("IO[bytes]", t.screen)
        err = screen
        if (cwd is not None and cwd != kernel.cwd) or env:
            # per-command cwd/env hold for this command only, as execute()'s do; the
            # output then arrives when the command ends
            res = kernel.execute(src, cwd=cwd, env=env or None, timeout=self._timeout,
                                 binary=True)
            out = res.out if isinstance(res.out, bytes) else res.out.encode()
            screen.write(out)
            err.write(res.err.encode("utf-8", "surrogateescape"))
            return res.code
        return kernel.run(src, {0: io.BytesIO(), 1: screen, 2: err}, timeout=self._timeout)

    async def terminal_output(self, session_id: str, terminal_id: str,
                              **kwargs: Any) -> TerminalOutputResponse:
        _, t = self._terminal(session_id, terminal_id)
        text, truncated = t.screen.text()
        return TerminalOutputResponse(output=text, truncated=truncated,
                                      exit_status=t.status())

    async def wait_for_terminal_exit(self, session_id: str, terminal_id: str,
                                     **kwargs: Any) -> WaitForTerminalExitResponse:
        _, t = self._terminal(session_id, terminal_id)
        await asyncio.get_running_loop().run_in_executor(None, t.done.wait)
        return WaitForTerminalExitResponse(exit_code=t.exit_code, signal=t.signal)

    async def kill_terminal(self, session_id: str, terminal_id: str,
                            **kwargs: Any) -> KillTerminalResponse:
        s, t = self._terminal(session_id, terminal_id)
        self._kill(s, t)
        return KillTerminalResponse()

    def _kill(self, s: _Session, t: _Terminal) -> None:
        if t.done.is_set():
            return
        t.killed = True
        if s.running is t:
            s.kernel.cancel()

    async def release_terminal(self, session_id: str, terminal_id: str,
                               **kwargs: Any) -> ReleaseTerminalResponse:
        s, t = self._terminal(session_id, terminal_id)
        self._kill(s, t)
        del s.terminals[terminal_id]
        return ReleaseTerminalResponse()

    def close(self) -> None:
        """Kill every terminal of every session and wait for them to stop."""
        for s in list(self._sessions.values()):
            for t in list(s.terminals.values()):
                self._kill(s, t)
            for t in list(s.terminals.values()):
                if t.thread is not None:
                    t.thread.join()


class TyshClient(TerminalHandler):
    """An ACP client whose terminals are tysh (the SDK's `Client` protocol). Tool-call
    events of its commands and the agent's `session/update` notifications are handed to
    `session_update`-style hooks a subclass overrides; every other client method answers
    "method not found"."""

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        return None

    async def request_permission(self, *args: Any, **kwargs: Any) -> Any:
        raise RequestError.method_not_found("session/request_permission")

    async def write_text_file(self, *args: Any, **kwargs: Any) -> Any:
        raise RequestError.method_not_found("fs/write_text_file")

    async def read_text_file(self, *args: Any, **kwargs: Any) -> Any:
        raise RequestError.method_not_found("fs/read_text_file")

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        raise RequestError.method_not_found(method)

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        return None

    def on_connect(self, conn: Any) -> None:
        self.connection = conn
