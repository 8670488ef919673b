"""kernel.base.worker: a child that aborts, loops or runs out of memory is contained,
killed on a stop, reaped, and replaced by a fresh one on the next call."""

from __future__ import annotations

import os
import time

import pytest

from tysh.kernel.base import worker
from tysh.kernel.base.limits import TimedOut

JQ = "tysh.builtins.json.jqwork"


def _run(program: str, text: str = "null", check: object = None) -> object:
    return worker.call(JQ, "run", {"program": program, "args": {}, "text": text},
                       check=check)  # type: ignore[arg-type]


def _children() -> set[int]:
    me = str(os.getpid())
    out = set()
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == me:
                out.add(int(pid))
    return out


def test_a_call_returns_the_functions_result() -> None:
    assert _run(".a + 1", '{"a": 41}') == {"values": [42], "error": None}


def test_a_native_abort_is_reported_and_the_next_call_gets_a_fresh_child() -> None:
    with pytest.raises(worker.WorkerDied, match="SIGABRT"):
        _run("def f: [f]; f")
    assert _run(". * 2", "21")["values"] == [42]  # type: ignore[index]


def test_a_stop_kills_and_reaps_a_looping_child() -> None:
    deadline = time.monotonic() + 0.3

    def check() -> None:
        if time.monotonic() >= deadline:
            raise TimedOut()

    before = _children()
    t0 = time.monotonic()
    with pytest.raises(TimedOut):
        _run("def f(x): x|f(x); f(.)", "1", check)
    assert time.monotonic() - t0 < 1.0
    # no zombie and no orphan: every child this process has is an idle worker
    assert _children() <= before | {c.proc.pid for c in worker._idle}
    assert _run("1")["values"] == [1]  # type: ignore[index]


def test_the_child_memory_is_bounded() -> None:
    t0 = time.monotonic()
    with pytest.raises(worker.WorkerDied):
        _run("[range(1e9)] | length")
    assert time.monotonic() - t0 < 60
    assert _run("2")["values"] == [2]  # type: ignore[index]


def test_a_raising_function_is_an_error_not_a_death() -> None:
    with pytest.raises(worker.WorkerError):
        worker.call(JQ, "run", {"program": "."})  # no "text": KeyError in the child


def test_only_tysh_functions_run() -> None:
    with pytest.raises(ValueError):
        worker.call("os", "system", "true")


def test_idle_children_end_on_shutdown() -> None:
    _run("1")
    worker.shutdown()
    assert not worker._idle
