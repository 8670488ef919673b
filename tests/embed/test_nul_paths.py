"""A NUL byte in a path is an error value with a message (`Invalid argument`), never an
internal error: in a tool's operand, a redirect, `cd`, and execute()'s cwd."""

from __future__ import annotations

from pathlib import Path

import pytest

from tysh.kernel.embed.kernel import Kernel


def _kernels(tmp_path: Path) -> list[Kernel]:
    # the script language cannot make a value holding a NUL (`$(…)`, `read` and
    # `printf -v` drop or cut at it, as bash does); an embedder's environment can
    env = {"x": "a\0b"}
    return [Kernel(cwd=str(tmp_path), env=env), Kernel.isolated(env=env),
            Kernel.overlay(str(tmp_path), env=env)]


@pytest.mark.parametrize("script", [
    "cat \"$x\"",
    "echo hi > \"$x\"",
    "cd \"$x\"",
    "rm -f \"$x\"; mkdir \"$x\"; ls \"$x\"; touch \"$x\"",
    "test -e \"$x\" || echo absent",
])
def test_a_nul_in_a_path_is_the_commands_error(tmp_path: Path, script: str) -> None:
    for k in _kernels(tmp_path):
        r = k.execute(script + "; echo after")
        assert r.out.endswith("after\n"), (r.out, r.err)
        assert "internal error" not in r.err and "Traceback" not in r.err, r.err
        assert "test -e" in script or "Invalid argument" in r.err, r.err
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_execute_with_a_nul_in_cwd_is_status_2(tmp_path: Path) -> None:
    for k in _kernels(tmp_path):
        r = k.execute("pwd", cwd="a\0b")
        assert r.code == 2
        assert r.err == ("tysh: execute: cwd 'a\\x00b': Invalid argument "
                         "(a file name cannot contain a NUL byte)\n")
