"""Test helpers for MCP: an SDK `Client` held open on an event loop of its own, so tests
(synchronous) can share one connection per module; and `tysh mcp` over HTTP in a
subprocess on a free loopback port."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters  # noqa: E402

TYSH = [sys.executable, "-m", "tysh", "mcp"]
HERE = os.path.dirname(os.path.abspath(__file__))
SRV = [sys.executable, os.path.join(HERE, "srv_server.py")]


class Remote:
    """A connected client on a background loop: `call(lambda c: c.call_tool(...))`."""

    def __init__(self, target: Any, **kw: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self._stop: asyncio.Event | None = None
        self.client: Any = None
        ready: Any = self.submit(self._open(target, kw))
        self._task = ready

    def submit(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    async def _open(self, target: Any, kw: dict[str, Any]) -> None:
        opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._stop = asyncio.Event()

        async def hold() -> None:
            try:
                async with Client(target, **kw) as c:
                    self.client = c
                    opened.set_result(None)
                    assert self._stop is not None
                    await self._stop.wait()
            except BaseException as e:
                if not opened.done():
                    opened.set_exception(e)

        self._holder = asyncio.ensure_future(hold())
        await opened

    def wait_open(self, timeout: float = 60) -> Remote:
        self._task.result(timeout)
        return self

    def call(self, fn: Callable[[Any], Coroutine[Any, Any, Any]], timeout: float = 60) -> Any:
        return self.submit(fn(self.client)).result(timeout)

    def close(self) -> None:
        async def stop() -> None:
            assert self._stop is not None
            self._stop.set()
            try:
                await asyncio.wait_for(self._holder, 10)
            except BaseException:  # noqa: BLE001
                pass

        try:
            self.submit(stop()).result(15)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)


def stdio(args: list[str], **kw: Any) -> Remote:
    cmd = [*TYSH, *args]
    return Remote(StdioServerParameters(command=cmd[0], args=cmd[1:]), **kw).wait_open()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class HttpServer:
    """`tysh mcp --http 127.0.0.1:PORT …` in a subprocess, ready when it answers."""

    def __init__(self, args: list[str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.proc = subprocess.Popen([*TYSH, "--http", f"127.0.0.1:{self.port}", *args],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                    raise RuntimeError(f"tysh mcp --http did not start: {err}") from None
                time.sleep(0.05)

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
