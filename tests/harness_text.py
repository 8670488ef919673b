"""Harness for the text builtin tests: run a builtin by argv through the real binder
with in-memory streams and a LocalFileSystem, the way the kernel would."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import IO, Any

import attrs

from tysh.builtins import get_builtin
from tysh.kernel.argv import classify
from tysh.kernel.binder import BindError
from tysh.kernel.context import Context
from tysh.kernel.fs import LocalFileSystem
from tysh.kernel.output import OutputData
from tysh.kernel.tooldef import Outcome


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


class FakeShell:
    """The session a tool sees: a cwd, and run_argv that runs builtins in-process
    (plus `fail N` exiting with N), answering 127 for anything else."""

    def __init__(self, cwd: str) -> None:
        self.cwd = cwd
        self.calls: list[list[str]] = []
        self.stdins: list[bytes] = []

    def get_var(self, name: str) -> Any:
        return None

    def set_var(self, name: str, value: Any) -> None:
        pass

    def exported_env(self) -> dict[str, str]:
        return {}

    def cancelled(self) -> bool:
        return False

    def run_argv(self, argv: list[str], stdin: IO[bytes], stdout: IO[bytes],
                 stderr: IO[bytes]) -> int:
        self.calls.append(list(argv))
        self.stdins.append(stdin.read())
        if argv[0] == "echo":
            stdout.write((" ".join(argv[1:]) + "\n").encode())
            return 0
        if argv[0] == "fail":
            return int(argv[1])
        if get_builtin(argv[0]) is None:
            stderr.write(f"tysh: {argv[0]}: command not found\n".encode())
            return 127
        r = run(argv, self.cwd, shell=self)
        stdout.write(r.out)
        stderr.write(r.err.encode())
        return r.code


def run(
    argv: list[str], cwd: Path | str, stdin: bytes | str = b"", shell: FakeShell | None = None,
) -> Result:
    """Run a builtin by argv; `--json` anywhere before `--` is lifted as the kernel does."""
    tool = get_builtin(argv[0])
    assert tool is not None, argv[0]
    from tysh.kernel.typed_args import bind_and_convert

    out, err = io.BytesIO(), io.BytesIO()
    sh = shell or FakeShell(str(cwd))
    if isinstance(stdin, str):
        stdin = stdin.encode()
    ctx = Context(name=argv[0], stdin=io.BytesIO(stdin), stdout=out, stderr=err,
                  fs=LocalFileSystem(), shell=sh)
    try:
        ta, leaf, inst = bind_and_convert(tool, classify(argv[1:]))
    except BindError as e:
        return Result(2, b"", str(e) + "\n")
    ctx.json = bool(getattr(ta, "json", False))
    assert leaf.func is not None
    ret = leaf.func(inst, ctx)
    code = 0
    output: OutputData | None = None
    if isinstance(ret, int):
        code = ret
    elif isinstance(ret, OutputData):
        output = ret
    elif isinstance(ret, Outcome):
        code, output = ret.code, ret.output
    body = out.getvalue()
    data = None
    if output is not None:
        data = output.to_json() if ctx.json else None
        if ctx.json:
            body = json.dumps(data).encode()
        elif not body:
            body = output.to_text().encode("utf-8", "surrogateescape")
    return Result(code, body, err.getvalue().decode("utf-8", "replace"), data)


def write(tmp: Path, name: str, content: str | bytes) -> str:
    p = tmp / name
    p.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        content = content.encode()
    p.write_bytes(content)
    return name
