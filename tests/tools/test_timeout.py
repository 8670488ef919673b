"""timeout: deadlines, signals, --preserve-status, usage errors. The GNU-pinned
`-s KILL` status is in tests/conformance/pins/tools/timeout.cases."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_posix import FakeShell, run

from tysh.builtins import get_builtin
from tysh.builtins.process import timeout as timeout_mod


@pytest.fixture
def sh(tmp_path: Path) -> FakeShell:
    return FakeShell(str(tmp_path))


def test_timeout_is_found_by_the_lazy_registry() -> None:
    for t in timeout_mod.TOOLS:
        assert get_builtin(t.name) is t


def test_timeout_takes_the_raw_argv() -> None:
    kinds = {t.name: t.schema for t in timeout_mod.TOOLS}
    assert kinds["timeout"].raw_argv, "timeout"


def test_timeout_declares_that_it_runs_commands() -> None:
    assert "proc.exec" in next(t for t in timeout_mod.TOOLS if t.name == "timeout").schema.operations


def test_timeout_runs_the_command_with_a_deadline(sh: FakeShell) -> None:
    r = run("timeout", ["2m", "cmd", "-n", "5"], sh)
    assert r.code == 0 and r.text == "ran cmd -n 5\n"
    assert sh.calls[0]["timeout"] == 120.0 and sh.calls[0]["env"] is None


def test_timeout_zero_means_no_deadline(sh: FakeShell) -> None:
    run("timeout", ["0", "cmd"], sh)
    assert sh.calls[0]["timeout"] is None


def test_timeout_options(sh: FakeShell) -> None:
    sh.status = 124
    r = run("timeout", ["-v", "-s", "TERM", "-k", "1", "1", "cmd"], sh)
    assert r.code == 124 and "sending signal TERM to command 'cmd'" in r.err
    r = run("timeout", ["-v", "-s", "KILL", "1", "cmd"], sh)
    assert r.code == 137  # as GNU timeout: KILL can't be caught, so 128+9
    assert "sending signal KILL to command 'cmd'" in r.err
    r = run("timeout", ["--preserve-status", "--signal=INT", "1", "cmd"], sh)
    assert r.code == 130


def test_timeout_usage_errors_are_status_125(sh: FakeShell) -> None:
    assert run("timeout", [], sh).code == 125
    assert run("timeout", ["5"], sh).code == 125
    assert run("timeout", ["x", "cmd"], sh).code == 125
    assert run("timeout", ["-s", "BOGUS", "1", "cmd"], sh).code == 125
    assert run("timeout", ["--frob", "1", "cmd"], sh).code == 125
    assert sh.calls == []
