"""A tiny harness for the file and JSON builtin tests: run a builtin by argv through the
real binder against a LocalFileSystem rooted in a temporary folder. Also the tree of
files and symlinks the file-tool pins share, and their comparison with the host's GNU
tool (tests/reference.py)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import reference
from harness import FakeShell as _BaseShell
from harness import invoke

from tysh.builtins import get_builtin
from tysh.kernel.base.argv import classify
from tysh.kernel.bind.binder import BindError
from tysh.kernel.tools.output import OutputData

OLD = 1_600_000_000  # 2020-09-13: older than six months


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
        return Result(e.status, "", str(e) + "\n")
    text = r.out.decode("utf-8", "surrogateescape")
    if r.output is not None:
        text += json.dumps(r.output.to_json()) + "\n" if r.json else r.output.to_text()
    return Result(r.code, text, r.err.decode("utf-8", "surrogateescape"), r.data, r.output)


# -- the shared tree of files and symlinks ------------------------------------------------

def symlink_tree(root: Path) -> None:
    """d/ (f1.py, f2.txt, sub/g.py), a.txt and the links dlink -> d, link -> a.txt and
    dangling -> nowhere, every entry dated OLD."""
    (root / "d" / "sub").mkdir(parents=True)
    (root / "d" / "f1.py").write_text("abc")
    (root / "d" / "f2.txt").write_text("abcdef\n")
    (root / "d" / "sub" / "g.py").write_text("q\n")
    (root / "a.txt").write_text("hello\n")
    os.symlink("d", root / "dlink")
    os.symlink("a.txt", root / "link")
    os.symlink("nowhere", root / "dangling")
    for p in [root / "d" / "sub" / "g.py", root / "d" / "f1.py", root / "d" / "f2.txt",
              root / "a.txt", root / "d" / "sub", root / "d"]:
        os.utime(p, (OLD, OLD))
    for p in ("dlink", "link", "dangling"):
        os.utime(root / p, (OLD, OLD), follow_symlinks=False)


def symlink_tree_in(tmp_path: Path) -> Path:
    """The symlink_tree built in tmp_path/x; returns x."""
    root = tmp_path / "x"
    root.mkdir()
    symlink_tree(root)
    return root


# -- against the host's GNU tool ----------------------------------------------------------

def same_as_gnu(argv: list[str], root: Path) -> None:
    """tysh's stdout and status equal the host tool's (when it is installed)."""
    g = reference.run_tool(argv, root)
    if g is not None:
        r = run(argv, root)
        assert (r.code, r.out) == (g.code, g.text), argv


def both(tmp_path: Path, build: Callable[[Path], None], argv: list[str],
         expected: str, code: int = 0) -> None:
    """Build the same tree twice; tysh must print `expected`, and so must GNU when present."""
    mine, theirs = tmp_path / "t", tmp_path / "g"
    for root in (mine, theirs):
        root.mkdir()
        build(root)
    r = run(argv, mine)
    assert (r.code, r.out) == (code, expected), r.err
    g = reference.run_tool(argv, theirs)
    if g is not None:
        assert (g.code, g.text) == (code, expected)
