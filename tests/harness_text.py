"""Harness for the builtin tool tests: run a builtin by argv through the real binder
with in-memory streams and a LocalFileSystem, the way the kernel would, and compare a
run with the host's tool (tests/reference.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import reference
from harness import FakeShell as _BaseShell
from harness import invoke

from tysh.builtins import get_builtin
from tysh.kernel.base.argv import classify
from tysh.kernel.bind.binder import BindError


@attrs.define
class Result:
    code: int
    out: bytes
    err: str
    data: Any = None

    @property
    def text(self) -> str:
        return self.out.decode("utf-8", "surrogateescape")

    def json(self) -> Any:
        return json.loads(self.out)


def _child(argv: list[str], cwd: str, sh: _BaseShell) -> tuple[int, bytes, str]:
    r = run(argv, cwd, shell=sh)
    return r.code, r.out, r.err


class FakeShell(_BaseShell):
    """The session a tool sees: a cwd, and run_argv that runs builtins in-process
    (plus `fail N` exiting with N), answering 127 for anything else."""

    def __init__(self, cwd: str) -> None:
        super().__init__(cwd, child=_child)


def run(
    argv: list[str], cwd: Path | str, stdin: bytes | str = b"", shell: _BaseShell | None = None,
) -> Result:
    """Run a builtin by argv; `--json` anywhere before `--` is lifted as the kernel does."""
    tool = get_builtin(argv[0])
    assert tool is not None, argv[0]
    try:
        r = invoke(tool, argv[0], classify(argv[1:]), shell or FakeShell(str(cwd)), stdin)
    except BindError as e:
        return Result(e.status, b"", str(e) + "\n")
    body, data = r.out, None
    if r.output is not None:
        data = r.output.to_json() if r.json else None
        if r.json:
            body = json.dumps(data).encode()
        elif not body:
            body = r.output.to_text().encode("utf-8", "surrogateescape")
    return Result(r.code, body, r.err.decode("utf-8", "replace"), data)


def ok(argv: list[str], cwd: Path | str, stdin: bytes | str = b"") -> Result:
    """Run a builtin that must succeed; a failure shows its stderr."""
    r = run(argv, cwd, stdin)
    assert r.code == 0, r.err
    return r


def write(tmp: Path, name: str, content: str | bytes) -> str:
    p = tmp / name
    p.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        content = content.encode()
    p.write_bytes(content)
    return name


def same(tmp: Path, argv: list[str], stdin: bytes | str, expected: bytes | str, code: int = 0,
         *, err_has: str | None = None, gnu_only: bool = False) -> Result:
    """Run tysh's tool and assert its stdout and status (and, with `err_has`, a piece of its
    stderr); when the host has the tool (GNU's, with `gnu_only`), assert the same of it, so
    a test never pins a belief the reference contradicts."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    want = expected.encode() if isinstance(expected, str) else expected
    r = run(argv, tmp, data)
    assert (r.code, r.out) == (code, want), r.err
    if err_has is not None:
        assert err_has in r.err
    ref = reference.run_tool(argv, tmp, data, gnu_only=gnu_only)
    if ref is not None:
        assert (ref.code, ref.out) == (code, want), ref.err_text
        if err_has is not None:
            assert err_has in ref.err_text
    return r
