"""Traps an embedder reaches: `Kernel.signal()` runs a script's signal trap, `cancel()`
runs its INT trap (and EXIT trap) before stopping, and a sandboxed script's EXIT trap
runs when it exits."""

from __future__ import annotations

import signal
import threading
from pathlib import Path
from typing import Any

from tysh import Kernel


def _later(delay: float, fn: object) -> threading.Timer:
    t = threading.Timer(delay, fn)  # type: ignore[arg-type]
    t.start()
    return t


def test_signal_runs_the_scripts_trap_and_the_script_goes_on(tmp_path: Path) -> None:
    k = Kernel(str(tmp_path))
    _later(0.3, lambda: k.signal(signal.SIGUSR1))
    r = k.execute("trap 'echo got usr1' USR1; for i in 1 2 3 4 5 6 7 8; do sleep 0.1; done; "
                  "echo end")
    assert (r.code, r.out) == (0, "got usr1\nend\n")


def test_signal_without_a_trap_stops_the_script_as_cancel(tmp_path: Path) -> None:
    k = Kernel(str(tmp_path))
    _later(0.2, lambda: k.signal(signal.SIGTERM))
    r = k.execute("while :; do sleep 0.05; done; echo never")
    assert r.code == 130 and "never" not in r.out


def test_ignored_signal_does_nothing(tmp_path: Path) -> None:
    k = Kernel(str(tmp_path))
    _later(0.2, lambda: k.signal(signal.SIGTERM))
    r = k.execute("trap '' TERM; sleep 0.5; echo end")
    assert (r.code, r.out) == (0, "end\n")


def test_cancel_runs_the_int_trap_then_the_exit_trap_then_stops(tmp_path: Path) -> None:
    k = Kernel(str(tmp_path))
    _later(0.3, k.cancel)
    r = k.execute("trap 'echo int trap' INT; trap 'echo exit trap' EXIT; "
                  "while :; do sleep 0.05; done; echo never")
    assert r.code == 130
    assert r.out == "int trap\nexit trap\n"
    # the session is usable afterwards and keeps the INT trap, not the spent EXIT trap
    assert k.execute("trap -p").out == "trap -- 'echo int trap' SIGINT\n"


def test_exit_trap_runs_when_an_embedded_script_exits(tmp_path: Path) -> None:
    k = Kernel(str(tmp_path))
    r = k.execute("trap 'echo cleanup; rm -f tmp.txt' EXIT; echo x > tmp.txt; exit 4")
    assert (r.code, r.out) == (4, "cleanup\n")
    assert not (tmp_path / "tmp.txt").exists()


def test_signal_to_the_shell_itself_reaches_the_trap_through_the_session(
        tmp_path: Path) -> None:
    # the hook `kill -SIG $$` uses: deliver_signal queues the trap for the next statement
    from tysh.kernel.tools.tool import tool

    answers: list[bool] = []

    @tool("selfsig", raw_argv=True, session=True, description="signal the shell itself")
    def selfsig(args: Any, ctx: Any, sh: Any) -> int:
        answers.append(sh.deliver_signal(int(args.positional[0])))
        return 0

    k = Kernel(str(tmp_path), tools=[selfsig])
    r = k.execute(f"trap 'echo hup' HUP; selfsig {int(signal.SIGHUP)}; echo next; "
                  f"selfsig {int(signal.SIGUSR2)}; echo last")
    assert r.out == "hup\nnext\nlast\n"
    assert answers == [True, False]  # no USR2 trap: the caller applies the default


def test_trap_text_runs_in_the_same_sandbox(tmp_path: Path) -> None:
    k = Kernel(str(tmp_path))
    r = k.execute("trap 'cat /etc/passwd' EXIT; exit 0")
    assert "root:" not in r.out
