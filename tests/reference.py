"""The one way tests run the reference implementations tysh is compared with: GNU bash
and the host's GNU tools.

Every run gets the same neutral environment — `LC_ALL=C.UTF-8`, `TZ=UTC`,
`PATH=/usr/bin:/bin`, `HOME` at the working directory — plus what a test adds. A program
that is not installed (or, with `gnu_only`, is not the GNU one) gives None, and the test
then checks tysh alone, so a test never pins a belief the reference contradicts."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

import attrs

BASE_ENV = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"}


@attrs.frozen
class Ran:
    """What a reference run gave: exit status (128+N for signal N), stdout, stderr."""

    code: int
    out: bytes
    err: bytes

    @property
    def text(self) -> str:
        return self.out.decode("utf-8", "surrogateescape")

    @property
    def err_text(self) -> str:
        return self.err.decode("utf-8", "surrogateescape")


@functools.cache
def have(name: str, gnu_only: bool = False) -> str | None:
    """The host path of a program, or None; with `gnu_only`, None unless its --version
    says GNU (a BSD or busybox tool would disagree for reasons of its own)."""
    path = shutil.which(name, path=BASE_ENV["PATH"]) or shutil.which(name)
    if path is None or not gnu_only:
        return path
    try:
        version = subprocess.run([path, "--version"], capture_output=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    return path if b"GNU" in version else None


def _env(cwd: Path | str, env: dict[str, str] | None) -> dict[str, str]:
    return {**BASE_ENV, "HOME": str(cwd), **(env or {})}


def _status(code: int) -> int:
    return 128 - code if code < 0 else code


def run_tool(argv: list[str], cwd: Path | str, stdin: bytes | str = b"", *,
             env: dict[str, str] | None = None, gnu_only: bool = False,
             timeout: float = 60.0) -> Ran | None:
    """Run the host's `argv[0]` with `argv[1:]`; None when it is not installed."""
    exe = have(argv[0], gnu_only)
    if exe is None:
        return None
    data = stdin.encode() if isinstance(stdin, str) else stdin
    # argv[0] stays the name, so the tool's messages read `readlink: …`, not its path
    p = subprocess.run(argv, executable=exe, cwd=cwd, input=data, capture_output=True,
                       env=_env(cwd, env), timeout=timeout, check=False)
    return Ran(_status(p.returncode), p.stdout, p.stderr)


def run_bash(script: str, cwd: Path | str, stdin: bytes | str = b"", *,
             env: dict[str, str] | None = None, timeout: float = 20.0) -> Ran | None:
    """Run `bash --norc --noprofile -c script`; None when bash is not installed."""
    exe = have("bash")
    if exe is None:
        return None
    data = stdin.encode() if isinstance(stdin, str) else stdin
    p = subprocess.run([exe, "--norc", "--noprofile", "-c", script], cwd=cwd, input=data,
                       capture_output=True, env=_env(cwd, env), timeout=timeout,
                       check=False)
    return Ran(_status(p.returncode), p.stdout, p.stderr)


def host_env() -> dict[str, str]:
    """The test process's own environment with the neutral locale and zone, for runs
    that need the rest of it (a tool that reads $PATH beyond /usr/bin)."""
    return {**os.environ, "LC_ALL": BASE_ENV["LC_ALL"], "TZ": BASE_ENV["TZ"]}
