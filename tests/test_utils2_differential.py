"""The second utils batch against the host's tools (GNU coreutils, util-linux column,
tree): the same argv through the real tool (a subprocess, C.UTF-8 locale, COLUMNS
unset) and through an in-process Kernel with externals off, stdout and status compared
byte for byte. A case is skipped when its tool is missing."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from harness import host_run, kernel_run  # noqa: E402

from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.fs.local import LocalFileSystem

_ENV = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
_ENV.update(LC_ALL="C.UTF-8", TZ="UTC")

_FILES = {
    "s1": b"apple\nbanana\ncherry\nfig\n",
    "s2": b"banana\ncarrot\nfig\ngrape\n",
    "u1": b"a\nc\nb\nz\ny\n",
    "u2": b"a\nb\nc\n",
    "nonl": b"a\nb",
    "t1": b"a b  c\nlonger x\n\n  lead  sp\nd,,e\n   \nq,r,,s\n",
    "wide": "日本 x\nab y\né z\n".encode(),
    "f1": (b"hello world this is a long line with some words in it\n\tx\tyy\tzzz end\n"
           b"ab\bcd\re long\n        eight\n    four    mid  two \t tab\nabcdefg h\n"
           b"abcdefg \tx\na\tbcdefghij\tk\n" + b"word " * 40 + b"\nnonl words here"),
    "n200": b"".join(b"%d\n" % i for i in range(1, 201)),
    "words": b"".join(b"w%s\n" % (b"x" * (i % 13)) for i in range(60)),
}


def _setup(tmp: Path) -> None:
    for name, data in _FILES.items():
        (tmp / name).write_bytes(data)


def _host(argv: list[str], cwd: Path, stdin: bytes = b"") -> tuple[int, bytes]:
    return host_run(argv, cwd, stdin, _ENV)


_ours = kernel_run


def _need(tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")


_CASES = [
    *(["comm", *o] for o in (
        ["s1", "s2"], ["-1", "s1", "s2"], ["-2", "s1", "s2"], ["-3", "s1", "s2"],
        ["-12", "s1", "s2"], ["-23", "s2", "s1"], ["-13", "s1", "s2"], ["--total", "s1", "s2"],
        ["--output-delimiter=::", "s1", "s2"], ["--output-delimiter=", "s1", "s2"],
        ["u1", "u2"], ["--check-order", "u1", "u2"], ["--nocheck-order", "u1", "u2"],
        ["u1", "u1"], ["nonl", "u2"], ["-", "s2"], ["s1"], ["s1", "s2", "u1"],
        ["s1", "nosuch"], ["-z", "s1", "s2"])),
    *(["column", *o] for o in (
        ["n200"], ["-x", "n200"], ["-c", "40", "n200"], ["-x", "-c", "30", "words"], ["words"],
        ["t1"], ["-t", "t1"], ["-t", "-s,", "t1"], ["-t", "-s", " ", "t1"],
        ["-t", "-s", ",b", "t1"], ["-t", "-o", "|", "t1"], ["-t", "-N", "A,B,C", "t1"],
        ["-t", "-N", "A", "-o", " : ", "t1"], ["-t", "wide"], ["nosuch", "t1"], ["-c", "8", "t1"])),
    *(["fold", *o] for o in (
        ["f1"], ["-w", "10", "f1"], ["-s", "-w", "10", "f1"], ["-b", "-w", "7", "f1"],
        ["-s", "-w", "5", "f1"], ["-5", "f1"], ["-w", "0", "f1"], ["-w", "x", "f1"],
        ["-w", "9", "f1", "nosuch"], ["-bs", "-w", "6", "f1"], ["-w", "1", "wide"])),
    *([t, *o] for t in ("expand", "unexpand") for o in (
        ["f1"], ["-t", "4", "f1"], ["-t", "4,10,12", "f1"], ["-t", "3", "f1"],
        ["-t", "0", "f1"], ["-t", "5,3", "f1"], ["-3", "f1"], ["-t", "2", "-t", "7", "f1"],
        ["-3,5", "f1"], ["nosuch"], ["-"])),
    *(["unexpand", *o] for o in (["-a", "f1"], ["--first-only", "-t", "4", "f1"],
                                 ["-a", "-t", "2,9", "f1"])),
    ["expand", "-i", "f1"], ["expand", "-i", "-t", "3", "f1"],
    ["uname"], ["uname", "-a"], ["uname", "-s", "-r"], ["uname", "-snrvmo"], ["uname", "-p"],
    ["uname", "-i", "-m"], ["nproc"], ["nproc", "--all"], ["nproc", "--ignore=1"],
    ["whoami"], ["hostname"], ["printenv", "HOME"], ["printenv", "HOME", "NOPE_X"],
    ["printenv", "-0", "PATH", "HOME"],
]


@pytest.mark.parametrize("argv", _CASES, ids=" ".join)
def test_matches_the_host_tool(tmp_path: Path, argv: list[str]) -> None:
    _need(argv[0])
    _setup(tmp_path)
    # the host's filesystem, unconfined: only there do whoami/hostname report the host
    # (a sandboxed kernel gives neutral names; test_builtins_utils2 pins that)
    k = Kernel(cwd=str(tmp_path), env={"HOME": _ENV.get("HOME", "/"), "PATH": _ENV["PATH"]},
               fs=LocalFileSystem())
    stdin = _FILES["s1"]
    assert _ours(k, argv, stdin) == _host(argv, tmp_path, stdin)


def _tree_fixture(tmp: Path) -> Path:
    root = tmp / "t"
    for name in ("B/z", "a", "d/e/g", "d/f", ".h/x", ".hid", "sp ace", "Zed", "_u", "b-1",
                 "b.1", "tab\tx", "éa", "w/v/u/k"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(b"x")
    (root / "emptydir").mkdir()
    (root / "la").symlink_to("a")
    (root / "ld").symlink_to("d")
    (root / "dangling").symlink_to("nowhere")
    return root


_TREE_OPTS = [[], ["-a"], ["-d"], ["-L", "1"], ["-L", "2", "-a"], ["-f"], ["--noreport"],
              ["--dirsfirst"], ["-I", "d|B"], ["-I", "*a*", "-I", "w"], ["-d", "-L", "2"],
              ["-f", "--dirsfirst", "-a"], ["d", "."], ["emptydir"], ["nosuch"], ["a"],
              ["-L", "0"], ["w"], ["-a", "-I", ".h"]]


@pytest.mark.parametrize("opts", _TREE_OPTS, ids=" ".join)
def test_tree_matches_tree(tmp_path: Path, opts: list[str]) -> None:
    _need("tree")
    root = _tree_fixture(tmp_path)
    argv = ["tree", *opts]
    assert _ours(Kernel(cwd=str(root)), argv) == _host(argv, root)


@pytest.mark.parametrize("opts", [[], ["-d"], ["-L", "1"], ["--noreport", "-a"], ["emptydir"]],
                         ids=" ".join)
def test_tree_json_matches_tree_dash_j(tmp_path: Path, opts: list[str]) -> None:
    _need("tree")
    root = _tree_fixture(tmp_path)
    code, want = _host(["tree", "-J", *opts], root)
    got = Kernel(cwd=str(root)).execute_argv("tree", ["--json", *opts], b"", binary=True)
    out = got.out if isinstance(got.out, bytes) else got.out.encode()
    assert (got.code, json.loads(out)) == (code, json.loads(want))
