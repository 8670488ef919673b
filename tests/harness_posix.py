"""Harness for the POSIX basics (echo, printf, test, true/false/:, sleep, env, timeout):
a session that records the commands a tool runs, and a runner that binds words the way the
kernel does — a str is classified, a Flag or Operand passes as it is (a glob result, an
option from a variable), any other value is a typed operand."""

from __future__ import annotations

import time
from typing import IO, Any

import attrs
from harness import invoke

from tysh.builtins import get_builtin
from tysh.kernel.base.argv import Arg, Flag, Operand, classify
from tysh.kernel.tools.output import OutputData


class FakeShell:
    """The ShellAPI surface these tools use; records the commands they run."""

    umask = 0o022  # the session's umask (ShellAPI.umask)

    def __init__(self, cwd: str) -> None:
        self._cwd = cwd
        self.vars: dict[str, Any] = {}
        self.env = {"HOME": cwd, "PATH": "/usr/bin", "LANG": "C"}
        self.calls: list[dict[str, Any]] = []
        self.cancel_after: float | None = None
        self.status = 0

    @property
    def cwd(self) -> str:
        return self._cwd

    def get_var(self, name: str) -> Any:
        return self.vars.get(name)

    def set_var(self, name: str, value: Any) -> None:
        self.vars[name] = value

    def exported_env(self) -> dict[str, str]:
        return dict(self.env)

    def run_argv(
        self, argv: list[str], stdin: IO[bytes], stdout: IO[bytes], stderr: IO[bytes],
        *, env: dict[str, str] | None = None, timeout: float | None = None,
    ) -> int:
        self.calls.append({"argv": argv, "env": env, "timeout": timeout})
        stdout.write(("ran " + " ".join(argv) + "\n").encode())
        return self.status

    def cancelled(self) -> bool:
        return self.cancel_after is not None and time.monotonic() >= self.cancel_after


@attrs.frozen
class Result:
    code: int
    out: bytes
    err: str
    output: OutputData | None

    @property
    def text(self) -> str:
        return self.out.decode("utf-8", "surrogateescape")


def run(name: str, argv: list[Any], shell: FakeShell, stdin: bytes = b"") -> Result:
    tool = get_builtin(name)
    assert tool is not None
    args: list[Arg] = []
    for w in argv:
        if isinstance(w, (Flag, Operand)):
            args.append(w)  # pre-classified, e.g. a glob result
        elif isinstance(w, str):
            args.extend(classify([w]))
        else:
            args.append(Operand(w))  # a typed value
    r = invoke(tool, name, args, shell, stdin)
    return Result(r.code, r.out, r.err.decode(), r.output)
