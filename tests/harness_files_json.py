"""A tiny harness for the file and JSON builtin tests: run a builtin by argv through the
real binder against a LocalFileSystem rooted in a temporary folder."""

from __future__ import annotations

import json
from typing import Any

import attrs
from harness import FakeShell as _BaseShell
from harness import invoke

from tysh.builtins import get_builtin
from tysh.kernel.base.argv import classify
from tysh.kernel.bind.binder import BindError
from tysh.kernel.tools.output import OutputData


@attrs.define
class Result:
    code: int
    out: str
    err: str
    data: Any = None
    output: OutputData | None = None

    def json(self) -> Any:
        return json.loads(self.out)


def _child(argv: list[str], cwd: str, sh: _BaseShell) -> tuple[int, bytes, str]:
    r = run(argv, cwd, shell=sh)
    return r.code, r.out.encode(), r.err


class FakeShell(_BaseShell):
    """cwd, variables and run_argv (builtins only) — what a tool may ask of the session."""

    def __init__(self, cwd: str) -> None:
        super().__init__(cwd, vars={"TZ": "UTC"}, env={"HOME": cwd, "GREETING": "hi"},
                         child=_child, shortcuts=False)


def run(
    argv: list[str], cwd: Any, stdin: bytes | str = b"", shell: _BaseShell | None = None,
    args: list[Any] | None = None,
) -> Result:
    """Run `argv` (a builtin name and its words); `args` may carry typed operands."""
    tool = get_builtin(argv[0])
    assert tool is not None, argv[0]
    words = classify(argv[1:]) if args is None else args
    try:
        r = invoke(tool, argv[0], words, shell or FakeShell(str(cwd)), stdin)
    except BindError as e:
        return Result(2, "", str(e) + "\n")
    text = r.out.decode("utf-8", "surrogateescape")
    if r.output is not None:
        text += json.dumps(r.output.to_json()) + "\n" if r.json else r.output.to_text()
    return Result(r.code, text, r.err.decode("utf-8", "surrogateescape"), r.data, r.output)
