"""Scripts that once froze every thread of the embedding process (Python's `re`
backtracking, libjq loops, a sed branch loop) or aborted it (libjq's SIGABRT): under a
time limit or cancel() each ends on time, and a ticker thread never pauses long."""

from __future__ import annotations

import threading
import time

import pytest

from tysh import Kernel

A40 = "x=$(printf 'a%.0s' $(seq 40)); "
A60 = "x=$(printf 'a%.0s' $(seq 60)); "
STAR = "*a" * 12 + "*b"

FREEZES = {
    "grep ERE": A40 + "while :; do echo $x | grep -E '(aa|a)*b'; done",
    "grep backref": A40 + "while :; do echo $x | grep -E '(aa|a)*\\1b'; done",
    "sed branch loop": "echo x | sed ':a;ba'",
    "awk regex": A40 + "while :; do echo $x | awk '/(aa|a)*b/'; done",
    "[[ =~ ]]": A40 + "while :; do [[ $x =~ (aa|a)*b ]]; done",
    "[[ == glob ]]": A60 + f"while :; do [[ $x == {STAR} ]]; done",
    "case glob": A60 + f"while :; do case $x in {STAR}) :;; esac; done",
    "jq loop": "echo 1 | jq 'def f(x): x|f(x); f(.)'",
    "expr regex": A40 + "while :; do expr \"$x\" : '\\(aa\\|a\\)*b'; done",
}


class Ticker:
    """A thread that notes the longest gap between its 10 ms ticks."""

    def __init__(self) -> None:
        self.longest = 0.0
        self.stop = False
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        last = time.monotonic()
        while not self.stop:
            time.sleep(0.01)
            now = time.monotonic()
            self.longest = max(self.longest, now - last)
            last = now

    def __enter__(self) -> Ticker:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop = True
        self.thread.join()


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    # first uses pay for imports and the jq worker's start: not the property under test
    Kernel().execute("echo a | grep -E 'a*b'; echo 1 | jq . >/dev/null; [[ a =~ a* ]]")


@pytest.mark.parametrize("name", list(FREEZES))
def test_freeze_script_ends_at_the_time_limit_and_other_threads_run(name: str) -> None:
    k = Kernel()
    with Ticker() as t:
        t0 = time.monotonic()
        r = k.execute(FREEZES[name], timeout=1.5)
        took = time.monotonic() - t0
    assert r.code == 124, r.err
    assert took < 3.0
    assert t.longest < 0.2


@pytest.mark.parametrize("name", list(FREEZES))
def test_freeze_script_ends_on_cancel_from_another_thread(name: str) -> None:
    k = Kernel()
    timer = threading.Timer(0.7, k.cancel)
    with Ticker() as t:
        t0 = time.monotonic()
        timer.start()
        r = k.execute(FREEZES[name])
        took = time.monotonic() - t0
    timer.join()
    assert r.code == 130, r.err
    assert took < 3.0
    assert t.longest < 0.2


def test_pathological_patterns_get_their_answer_not_a_timeout() -> None:
    k = Kernel()
    r = k.execute(A40 + "echo $x | grep -cE '(aa|a)*b'; [[ $x == " + STAR + " ]]; echo $?;"
                  " echo $x | sed -E 's/(aa|a)*c*$/X/'", timeout=5)
    assert r.out == "0\n1\nX\n"


def test_a_libjq_abort_leaves_the_host_alive_with_an_error() -> None:
    r = Kernel().execute("jq -n 'def f: [f]; f'; echo status=$?", timeout=30)
    assert r.out == "status=5\n"
    assert "libjq aborted (SIGABRT)" in r.err
    assert Kernel().execute("echo '{\"a\":1}' | jq .a").out == "1\n"
