"""A tiny harness for the file and JSON builtin tests: run a builtin by argv through the
real binder against a LocalFileSystem rooted in a temporary folder."""

from __future__ import annotations

import io
import json
from typing import Any

import attrs

from tysh.builtins import get_builtin
from tysh.kernel.argv import classify
from tysh.kernel.binder import BindError
from tysh.kernel.context import Context
from tysh.kernel.fs import LocalFileSystem
from tysh.kernel.output import OutputData
from tysh.kernel.tooldef import Outcome
from tysh.kernel.typed_args import bind_and_convert


@attrs.define
class Result:
    code: int
    out: str
    err: str
    data: Any = None
    output: OutputData | None = None

    def json(self) -> Any:
        return json.loads(self.out)


class FakeShell:
    """cwd, variables and run_argv (builtins only) — what a tool may ask of the session."""

    def __init__(self, cwd: str) -> None:
        self.cwd = cwd
        self.vars: dict[str, Any] = {"TZ": "UTC"}
        self.calls: list[list[str]] = []

    def get_var(self, name: str) -> Any:
        return self.vars.get(name)

    def set_var(self, name: str, value: Any) -> None:
        self.vars[name] = value

    def exported_env(self) -> dict[str, str]:
        return {"HOME": self.cwd, "GREETING": "hi"}

    def cancelled(self) -> bool:
        return False

    def run_argv(self, argv: list[str], stdin: Any, stdout: Any, stderr: Any) -> int:
        self.calls.append(list(argv))
        r = run(argv, self.cwd, shell=self)
        stdout.write(r.out.encode())
        stderr.write(r.err.encode())
        return r.code


def run(
    argv: list[str], cwd: Any, stdin: bytes | str = b"", shell: FakeShell | None = None,
    args: list[Any] | None = None,
) -> Result:
    """Run `argv` (a builtin name and its words); `args` may carry typed operands."""
    tool = get_builtin(argv[0])
    assert tool is not None, argv[0]
    out, err = io.BytesIO(), io.BytesIO()
    sh = shell or FakeShell(str(cwd))
    if isinstance(stdin, str):
        stdin = stdin.encode()
    ctx = Context(name=argv[0], stdin=io.BytesIO(stdin), stdout=out, stderr=err,
                  fs=LocalFileSystem(), shell=sh)
    words = classify(argv[1:]) if args is None else args
    try:
        ta, leaf, inst = bind_and_convert(tool, words)
    except BindError as e:
        return Result(2, "", str(e) + "\n")
    ctx.json = bool(getattr(ta, "json", False))
    assert leaf.func is not None
    r = leaf.func(inst, ctx)
    code, data, output = 0, None, None
    if isinstance(r, int):
        code = r
    elif isinstance(r, OutputData):
        output = r
    elif isinstance(r, Outcome):
        code, output, data = r.code, r.output, r.data
    text = out.getvalue().decode("utf-8", "surrogateescape")
    if output is not None:
        text += json.dumps(output.to_json()) + "\n" if ctx.json else output.to_text()
    return Result(code, text, err.getvalue().decode("utf-8", "surrogateescape"), data, output)
