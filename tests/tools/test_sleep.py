"""sleep: GNU durations, summing, cancelling, errors."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from harness_posix import FakeShell, run

from tysh.builtins import get_builtin
from tysh.builtins.process import sleep as sleep_mod
from tysh.builtins.process.sleep import parse_duration


@pytest.fixture
def sh(tmp_path: Path) -> FakeShell:
    return FakeShell(str(tmp_path))


def test_sleep_is_found_by_the_lazy_registry() -> None:
    for t in sleep_mod.TOOLS:
        assert get_builtin(t.name) is t


def test_sleep_binds_declared_params_not_the_raw_argv() -> None:
    kinds = {t.name: t.schema for t in sleep_mod.TOOLS}
    assert not kinds["sleep"].raw_argv and kinds["sleep"].params


@pytest.mark.parametrize(
    ("text", "secs"),
    [("1", 1.0), ("0.5", 0.5), ("1s", 1.0), ("2m", 120.0), ("1h", 3600.0), ("1d", 86400.0),
     (".5", 0.5), ("1e1", 10.0), ("inf", float("inf"))],
)
def test_durations_parse_like_gnu(text: str, secs: float) -> None:
    assert parse_duration(text) == secs


@pytest.mark.parametrize("text", ["", "x", "1x", "-1", "1 s", "m"])
def test_bad_durations_are_refused(text: str) -> None:
    assert parse_duration(text) is None


def test_sleep_sums_its_durations(sh: FakeShell) -> None:
    t0 = time.monotonic()
    assert run("sleep", ["0.05", "0.05s"], sh).code == 0
    assert time.monotonic() - t0 >= 0.09


def test_sleep_stops_when_the_shell_cancels(sh: FakeShell) -> None:
    sh.cancel_after = time.monotonic() + 0.1
    t0 = time.monotonic()
    assert run("sleep", ["10"], sh).code == 130
    assert time.monotonic() - t0 < 1


def test_sleep_errors(sh: FakeShell) -> None:
    r = run("sleep", [], sh)
    assert (r.code, r.err) == (1, "sleep: missing operand\n")
    r = run("sleep", ["abc"], sh)
    assert (r.code, r.err) == (1, "sleep: invalid time interval 'abc'\n")
