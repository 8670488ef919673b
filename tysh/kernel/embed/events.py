"""`Kernel.events()`: one run's tool-call events as an iterator.

The script runs on a worker thread while the caller iterates; the iterator ends when the
run does, and `result` then holds the run's ExecResult. Leaving the loop early (or
`close()`) cancels the run and waits for it to stop, so the kernel is free again."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator

from tysh.kernel.tools.output import ExecResult

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

if TYPE_CHECKING:
    from tysh.kernel.embed.kernel import Kernel

_END = object()


class EventRun:
    """An iterator over the tool-call updates (plain dicts) of one `execute`."""

    def __init__(self, kernel: Kernel, call: Callable[[], ExecResult]) -> None:
        self._kernel = kernel
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._call = call
        self.result: ExecResult | None = None
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self._done = False

    def _listen(self, update: dict[str, Any]) -> None:
        self._queue.put(update)

    def _work(self) -> None:
        try:
            self.result = self._call()
        except BaseException as e:  # noqa: BLE001 — handed to the iterating thread
            self._error = e
        finally:
            self._kernel.remove_listener(self._listen)
            self._queue.put(_END)

    def _start(self) -> None:
        self._kernel.add_listener(self._listen)
        self._thread = threading.Thread(target=self._work, name="tysh-events", daemon=True)
        self._thread.start()

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return self

    def __next__(self) -> dict[str, Any]:
        if self._done:
            raise StopIteration
        if self._thread is None:
            self._start()
        item = self._queue.get()
        if item is _END:
            self._done = True
            if self._thread is not None:
                self._thread.join()
            if self._error is not None:
                raise self._error
            raise StopIteration
        out: dict[str, Any] = item
        return out

    def close(self) -> None:
        """Stop early: cancel the run (if it is still going) and wait for it to end."""
        if self._thread is None or self._done:
            self._done = True
            return
        self._kernel.cancel()
        while self._queue.get() is not _END:
            pass
        self._done = True
        self._thread.join()

    def __enter__(self) -> EventRun:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        if self._thread is not None and not self._done:
            self._kernel.cancel()
