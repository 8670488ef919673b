"""The per-thread stop check (base/stop.py): `install_new` leaves an equal check in place
and says so, so a command run by a shell that installed its own check stores nothing."""

from __future__ import annotations

import threading

from tysh.kernel.base import stop


class _Shell:
    def __init__(self) -> None:
        self.calls = 0

    def check(self) -> None:
        self.calls += 1


def test_install_new_keeps_an_equal_check_and_restore_puts_back_a_replaced_one() -> None:
    a, b = _Shell(), _Shell()
    outer = stop.install(a.check)
    try:
        assert stop.install_new(a.check) is stop.KEPT  # a new bound method, equal
        stop.check()
        assert (a.calls, b.calls) == (1, 0)
        saved = stop.install_new(b.check)
        assert saved == a.check
        stop.check()
        assert (a.calls, b.calls) == (1, 1)
        stop.restore(saved)
        stop.check()
        assert (a.calls, b.calls) == (2, 1)
        stop.restore(stop.KEPT)  # nothing to put back
        stop.check()
        assert a.calls == 3
    finally:
        stop.install(outer)


def test_install_new_on_a_thread_without_a_check_installs_and_restores_none() -> None:
    a = _Shell()
    seen: list[object] = []

    def run() -> None:
        saved = stop.install_new(a.check)
        seen.append(saved)
        stop.check()
        stop.restore(saved)
        stop.check()  # no check: a no-op

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert seen == [None] and a.calls == 1
