"""Background work is bounded and reaped: at most `Limits.max_jobs` jobs run at once, a
sandboxed preset stops the jobs a call leaves behind before `execute()` returns, and
`cancel()` / `close()` stop the jobs a `jobs="keep"` kernel lets run on. Each case
records the peak thread count it saw (`pytest -s` prints it)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tysh import Kernel

SCRIPTS = [":(){ :|:& };:", "yes >/dev/null &", "sleep 100 &", "while :; do :; done &"]


def _presets(tmp_path: Path, **kw: object) -> dict[str, Callable[[], Kernel]]:
    (tmp_path / "root").mkdir(exist_ok=True)
    return {
        "cwd": lambda: Kernel(cwd=str(tmp_path), **kw),  # type: ignore[arg-type]
        "isolated": lambda: Kernel.isolated(**kw),
        "overlay": lambda: Kernel.overlay(str(tmp_path / "root"), **kw),
    }


class Peak:
    """Samples threading.active_count() every millisecond while it runs."""

    def __init__(self) -> None:
        self.peak = threading.active_count()
        self._done = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._done.wait(0.001):
            self.peak = max(self.peak, threading.active_count())

    def __enter__(self) -> Peak:
        self._t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._t.join()


def _back_to(base: int, within: float) -> float:
    """Seconds until the thread count is back to `base`; fails after `within`."""
    t0 = time.monotonic()
    while threading.active_count() > base:
        assert time.monotonic() - t0 < within, \
            f"{threading.active_count()} threads still alive (baseline {base})"
        time.sleep(0.01)
    return time.monotonic() - t0


@pytest.mark.parametrize("preset", ["cwd", "isolated", "overlay"])
@pytest.mark.parametrize("script", SCRIPTS)
def test_a_sandboxed_preset_reaps_its_jobs_when_execute_returns(
        tmp_path: Path, preset: str, script: str) -> None:
    k = _presets(tmp_path)[preset]()
    with Peak() as p:
        base = threading.active_count()  # the sampler's thread included
        r = k.execute(script)
        late = _back_to(base, within=1.0)
    print(f"reap {preset} {script!r}: code {r.code}, peak {p.peak - base} threads, "
          f"back to baseline {late:.3f}s after return")
    assert r.code in (0, 1)
    assert p.peak - base <= 3 * 64 + 8


@pytest.mark.parametrize("how", ["cancel", "close", "with"])
@pytest.mark.parametrize("preset", ["cwd", "isolated", "overlay"])
@pytest.mark.parametrize("script", SCRIPTS)
def test_kept_jobs_stop_at_cancel_or_close(
        tmp_path: Path, preset: str, script: str, how: str) -> None:
    make = _presets(tmp_path, jobs="keep")[preset]
    with Peak() as p:
        base = threading.active_count()  # the sampler's thread included
        if how == "with":
            with make() as k:
                k.execute(script)
                time.sleep(0.2)
                assert threading.active_count() > base  # kept: still running
        else:
            k = make()
            k.execute(script)
            time.sleep(0.2)
            assert threading.active_count() > base
            k.cancel() if how == "cancel" else k.close()
        late = _back_to(base, within=1.0)
    print(f"keep/{how} {preset} {script!r}: peak {p.peak - base} threads, "
          f"back to baseline {late:.3f}s after {how}")
    assert p.peak - base <= 3 * 64 + 8


def test_the_fork_bomb_stays_under_max_jobs_while_kept(tmp_path: Path) -> None:
    k = Kernel.isolated(jobs="keep")
    with Peak() as p:
        base = threading.active_count()  # the sampler's thread included
        k.execute(":(){ :|:& };:")
        time.sleep(1.0)
        k.close()
        _back_to(base, within=1.0)
    # 64 jobs, each with at most two pipeline stages
    assert p.peak - base <= 3 * 64 + 8
