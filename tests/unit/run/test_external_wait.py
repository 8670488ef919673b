"""How `run_external` waits for its child: statuses survive a Ctrl-C that lands at any
moment, and a child is never left running or unreaped."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from tysh.kernel.run import external
from tysh.kernel.run.external import run_external

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX processes")

PY = sys.executable


def _interrupt_after_first(real: Callable[..., Any]) -> Callable[..., Any]:
    """`real`, but its first call raises KeyboardInterrupt after doing its work — a
    Ctrl-C whose Python handler runs just after the system call returned."""
    calls = [0]

    def wrapped(*args: Any) -> Any:
        calls[0] += 1
        result = real(*args)
        if calls[0] == 1:
            raise KeyboardInterrupt
        return result

    return wrapped


def _run(argv: list[str], **kw: Any) -> int:
    return run_external(argv[0], argv, dict(os.environ), None, {}, **kw)


def test_child_status_is_kept_when_ctrl_c_lands_right_after_the_child_ended(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the child dies of SIGINT (as on a terminal's Ctrl-C); the shell's own
    # KeyboardInterrupt arrives after the wait returned but before its status was kept
    monkeypatch.setattr(os, "waitid", _interrupt_after_first(os.waitid))
    monkeypatch.setattr(os, "waitpid", _interrupt_after_first(os.waitpid))
    status = _run([PY, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGINT)"])
    assert status == 130


def test_waiting_does_not_reap_so_the_status_can_be_asked_again() -> None:
    proc = subprocess.Popen([PY, "-c", "raise SystemExit(7)"])
    assert external._wait_status(proc, None) == 7
    assert external._wait_status(proc, None) == 7
    external._reap(proc)
    assert proc.returncode == 7


def test_a_child_killed_by_a_signal_reports_128_plus_the_signal() -> None:
    assert _run([PY, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGTERM)"]) == 143


def test_time_limit_kills_the_child_and_reports_124() -> None:
    assert _run([PY, "-c", "import time; time.sleep(30)"], timeout=0.3) == 124


def test_ctrl_c_kills_a_child_that_outlives_the_grace_period(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a child that ignores SIGINT is killed after the grace period, and nothing is left
    monkeypatch.setattr(external, "SIGINT_GRACE", 0.05)
    procs: list[subprocess.Popen[bytes]] = []
    real_popen = subprocess.Popen

    def popen(*a: Any, **kw: Any) -> subprocess.Popen[bytes]:
        p = real_popen(*a, **kw)
        procs.append(p)
        return p

    monkeypatch.setattr(subprocess, "Popen", popen)
    monkeypatch.setattr(external, "_wait_status", _interrupt_first_wait(external._wait_status))
    status = _run([PY, "-c", "import time; time.sleep(30)"])
    assert status == 137
    procs[0].wait(5)
    assert procs[0].returncode == -9


def _interrupt_first_wait(real: Callable[..., int]) -> Callable[..., int]:
    calls = [0]

    def wrapped(proc: Any, timeout: float | None) -> int:
        calls[0] += 1
        if calls[0] == 1:
            raise KeyboardInterrupt
        return real(proc, timeout)

    return wrapped
