"""Host facts in a sandbox (docs/security.md, hermetic environment): the kernel release
and build (`uname -r`, `uname -v`) and the process ids (`$$`, `BASHPID`, `$PPID`) are
fixed neutral values, as `hostname` and `whoami` are; the kernel name, the machine and
`nproc` stay real (scripts pick binaries and size parallel work by them). On the host's
own filesystem (`Kernel.repl()`, the CLI) all are the host's, as in bash."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.fs.local import LocalFileSystem

SCRIPT = "uname -r; uname -v; echo $$ $BASHPID $PPID; uname -s; uname -m; nproc"


def _sandboxes(tmp_path: Path) -> list[Kernel]:
    return [Kernel(cwd=str(tmp_path)), Kernel.isolated(), Kernel.overlay(str(tmp_path))]


def test_a_sandbox_shows_neutral_kernel_and_process_facts(tmp_path: Path) -> None:
    u = os.uname()
    for k in _sandboxes(tmp_path):
        out = k.execute(SCRIPT).out.splitlines()
        assert out[:3] == ["6.0.0-tysh", "#1 SMP tysh", "100 100 1"]
        assert out[3:5] == [u.sysname, u.machine]
        assert int(out[5]) >= 1
        assert u.release not in k.execute("uname -a").out
        assert str(os.getpid()) not in k.execute("echo $$ $PPID $BASHPID").out


def test_the_json_of_uname_is_neutral_too(tmp_path: Path) -> None:
    r = Kernel(cwd=str(tmp_path)).execute("uname --json")
    assert '"release":"6.0.0-tysh"' in r.out and '"version":"#1 SMP tysh"' in r.out


@pytest.mark.parametrize("make", [
    lambda p: Kernel.repl(cwd=str(p)),
    lambda p: Kernel(cwd=str(p), fs=LocalFileSystem()),
], ids=["repl", "host-fs"])
def test_the_hosts_own_filesystem_shows_the_host(tmp_path: Path, make: object) -> None:
    k = make(tmp_path)  # type: ignore[operator]
    u = os.uname()
    out = k.execute(SCRIPT).out.splitlines()
    assert out[:2] == [u.release, u.version]
    assert out[2] == f"{os.getpid()} {os.getpid()} {os.getppid()}"
