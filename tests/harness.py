"""The one place tests run a builtin the way the kernel would: a fake session (FakeShell),
a Context over in-memory streams and a LocalFileSystem, the binder, and the tool's
return value folded into (code, output, data). The per-area harnesses (harness_text,
harness_files_json) and the grep/sed tests only shape what `invoke` returns."""

from __future__ import annotations

import io
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import attrs

from tysh.builtins import get_builtin
from tysh.kernel.bind.fast import bind_and_convert
from tysh.kernel.fs.local import LocalFileSystem
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.tool import Outcome

# A harness's `run(argv, cwd, shell=...)`, used for commands a tool runs through the shell;
# it answers (code, stdout bytes, stderr text).
ChildRunner = Callable[[list[str], str, "FakeShell"], tuple[int, bytes, str]]


class FakeShell:
    """cwd, variables, environment and run_argv — what a tool may ask of the session.
    run_argv records each call and its stdin, answers `echo` and `fail N` itself, runs
    builtins in-process through `child` and answers 127 for anything else."""

    umask = 0o022  # the session's umask (ShellAPI.umask)

    def __init__(self, cwd: str, vars: dict[str, Any] | None = None,
                 env: dict[str, str] | None = None, child: ChildRunner | None = None,
                 shortcuts: bool = True) -> None:
        self.cwd = cwd
        self.vars: dict[str, Any] = dict(vars or {})
        self.env: dict[str, str] = dict(env or {})
        self.child = child
        self.shortcuts = shortcuts
        self.calls: list[list[str]] = []
        self.stdins: list[bytes] = []

    def get_var(self, name: str) -> Any:
        return self.vars.get(name)

    def set_var(self, name: str, value: Any) -> None:
        self.vars[name] = value

    def exported_env(self) -> dict[str, str]:
        return dict(self.env)

    def cancelled(self) -> bool:
        return False

    def check_boundary(self) -> None:
        """Never cancelled, never past a deadline."""

    def fork(self) -> FakeShell:
        return self

    def run_source(self, src: str, stdin: IO[bytes], stdout: IO[bytes],
                   stderr: IO[bytes]) -> int:
        """No shell language here: the words of `src`, split as sh would, run as one
        command through run_argv."""
        argv = shlex.split(src)
        return self.run_argv(argv, stdin, stdout, stderr) if argv else 0

    def run_argv(self, argv: list[str], stdin: IO[bytes], stdout: IO[bytes],
                 stderr: IO[bytes]) -> int:
        self.calls.append(list(argv))
        self.stdins.append(stdin.read() if hasattr(stdin, "read") else b"")
        if self.shortcuts and argv[0] == "echo":
            stdout.write((" ".join(argv[1:]) + "\n").encode())
            return 0
        if self.shortcuts and argv[0] == "fail":
            return int(argv[1])
        if self.child is None or get_builtin(argv[0]) is None:
            stderr.write(f"tysh: {argv[0]}: command not found\n".encode())
            return 127
        code, out, err = self.child(argv, self.cwd, self)
        stdout.write(out)
        stderr.write(err.encode())
        return code


@attrs.frozen
class Invocation:
    """What one builtin call left behind, before any harness shapes it."""

    code: int
    out: bytes
    err: bytes
    json: bool
    output: OutputData | None = None
    data: Any = None


def invoke(tool: Any, name: str, words: list[Any], shell: Any, stdin: bytes | str = b"",
           json: bool | None = None) -> Invocation:
    """Bind `words` to `tool` and call it in a session `shell` (a FakeShell or any object
    with its surface); `json=None` takes --json from the bound args. A BindError is left to
    the caller."""
    ta, leaf, inst = bind_and_convert(tool, words)
    if isinstance(stdin, str):
        stdin = stdin.encode()
    out, err = io.BytesIO(), io.BytesIO()
    json_mode = bool(getattr(ta, "json", False)) if json is None else json
    ctx = Context(name, io.BytesIO(stdin), out, err,
                  LocalFileSystem(), shell, json=json_mode)
    assert leaf.func is not None
    ret = leaf.func(inst, ctx)
    code, output, data = 0, None, None
    if isinstance(ret, int):
        code = ret
    elif isinstance(ret, OutputData):
        output = ret
    elif isinstance(ret, Outcome):
        code, output, data = ret.code, ret.output, ret.data
    return Invocation(code, out.getvalue(), err.getvalue(), json_mode, output, data)


def make_tree(root: Path, *names: str, content: Callable[[str], str] = lambda n: "x\n") -> None:
    """Create files (`a/b.txt`) and folders (`d/`) under root; a file holds content(name)."""
    for n in names:
        p = root / n
        if n.endswith("/"):
            p.mkdir(parents=True, exist_ok=True)
        else:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(content(n))


# -- differential runs: a host program against the same argv in a kernel -------------------

def host_run(argv: list[str], cwd: Path, stdin: bytes, env: dict[str, str]) -> tuple[int, bytes]:
    """(status, stdout) of the real program on the host."""
    import subprocess

    p = subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, env=env, check=False)
    return p.returncode, p.stdout


def kernel_run(k: Any, argv: list[str], stdin: bytes = b"") -> tuple[int, bytes]:
    """(status, stdout bytes) of the same argv run by a Kernel."""
    r = k.execute_argv(argv[0], argv[1:], stdin, binary=True)
    return r.code, r.out if isinstance(r.out, bytes) else r.out.encode()


def cycle_garbage(k: Any, src: str, warm: int = 20, runs: int = 5) -> tuple[int, Any]:
    """Run `src` past the record classes' first, generic instances (`warm` times), then
    `runs` more times with the cycle collector off: what a collection then finds (the
    reference cycles those runs left) and the last run's result."""
    import gc

    for _ in range(warm):
        k.execute(src)
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(runs):
            r = k.execute(src)
        found = gc.collect()
    finally:
        if was:
            gc.enable()
    return found, r


def events_run(cwd: Path, script: str) -> tuple[Any, ...]:
    """Run `script` in a new Kernel that reports events: (status, out, err, data, what
    `echo "$? $_ ${PIPESTATUS[*]}"` then says, the events as sorted JSON without their
    ids). Stages streaming on threads of their own report in the order they run, so the
    events are compared as a set."""
    import json

    from tysh.kernel.embed.kernel import Kernel

    seen: list[dict[str, Any]] = []
    k = Kernel(cwd=str(cwd), env={"HOME": str(cwd)}, on_event=seen.append)
    r = k.execute(script, timeout=20)
    after = k.execute('echo "$? $_ ${PIPESTATUS[*]}"')
    for e in seen:
        e.pop("toolCallId", None)
    return (r.code, r.out, r.err, r.data, after.out,
            sorted(json.dumps(e, sort_keys=True, default=repr) for e in seen))
