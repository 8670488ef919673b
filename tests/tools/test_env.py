"""env: printing, assignments, -u/-i/-0, --json, running a command with the new environment,
and hiding variables from in-process commands (tests/conformance/pins/tools/env.cases)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness_posix import FakeShell, run

from tysh.builtins import get_builtin
from tysh.builtins.process import env as env_mod


@pytest.fixture
def sh(tmp_path: Path) -> FakeShell:
    return FakeShell(str(tmp_path))


def test_env_is_found_by_the_lazy_registry() -> None:
    for t in env_mod.TOOLS:
        assert get_builtin(t.name) is t


def test_env_takes_the_raw_argv() -> None:
    kinds = {t.name: t.schema for t in env_mod.TOOLS}
    assert kinds["env"].raw_argv, "env"


def test_env_prints_exported_variables_in_order(sh: FakeShell, tmp_path: Path) -> None:
    assert run("env", [], sh).text == f"HOME={tmp_path}\nPATH=/usr/bin\nLANG=C\n"


def test_env_assignments_unset_and_ignore(sh: FakeShell) -> None:
    assert run("env", ["-u", "HOME", "X=1"], sh).text == "PATH=/usr/bin\nLANG=C\nX=1\n"
    assert run("env", ["-i", "A=1", "B=x=y"], sh).text == "A=1\nB=x=y\n"
    assert run("env", ["-", "A=1"], sh).text == "A=1\n"
    assert run("env", ["--unset=PATH", "-uLANG", "-i"], sh).text == ""


def test_env_null_separator(sh: FakeShell) -> None:
    assert run("env", ["-i0", "A=1", "B=2"], sh).out == b"A=1\0B=2\0"


def test_env_json_prints_an_object(sh: FakeShell) -> None:
    r = run("env", ["-i", "--json", "A=1"], sh)
    assert json.loads(r.text) == {"A": "1"}


def test_env_runs_a_command_with_the_new_environment(sh: FakeShell) -> None:
    sh.status = 3
    r = run("env", ["-i", "A=1", "cmd", "-x", "--json", "B=2"], sh)
    assert r.code == 3 and r.text == "ran cmd -x --json B=2\n"
    assert sh.calls == [{"argv": ["cmd", "-x", "--json", "B=2"], "env": {"A": "1"},
                         "timeout": None}]


def test_env_double_dash_ends_options(sh: FakeShell) -> None:
    run("env", ["--", "-cmd"], sh)
    assert sh.calls[0]["argv"] == ["-cmd"]


def test_env_unknown_option_is_status_125(sh: FakeShell) -> None:
    r = run("env", ["-q"], sh)
    assert r.code == 125 and "invalid option '-q'" in r.err


def test_env_u_without_name(sh: FakeShell) -> None:
    assert run("env", ["-u"], sh).code == 125
