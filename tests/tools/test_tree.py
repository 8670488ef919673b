"""tree: drawing, counts, options and sizes like tree 2.1, through the binder; and the
same argv against the host's tree when it has one (the fixtures hold symlinks, so
none of this is a .cases pin)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import reference
from harness import kernel_run
from harness_files_json import OLD, run, same_as_gnu, symlink_tree_in
from harness_text import run as text_run
from harness_text import write

from tysh.kernel.embed.kernel import Kernel

_ENV = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
_ENV.update(LC_ALL="C.UTF-8", TZ="UTC")


def _need(tool: str) -> None:
    if reference.have(tool) is None:
        pytest.skip(f"{tool} is not installed")


def _tree_fixture(tmp: Path) -> None:
    for name in ("B/z", "a", "d/e/g", "d/f", ".hid"):
        write(tmp, name, "x")
    (tmp / "ld").symlink_to("d")
    (tmp / "la").symlink_to("a")


def test_tree_draws_branches_and_counts_like_tree_2(tmp_path: Path) -> None:
    _tree_fixture(tmp_path)
    r = text_run(["tree"], tmp_path)
    bar = "│\u00a0\u00a0 "
    assert r.text == (
        ".\n├── B\n│\u00a0\u00a0 └── z\n├── a\n├── d\n"
        f"{bar}├── e\n{bar}{bar}└── g\n{bar}└── f\n"
        "├── la -> a\n└── ld -> d\n\n5 directories, 5 files\n")


def test_tree_hidden_level_dirs_only_and_ignore(tmp_path: Path) -> None:
    _tree_fixture(tmp_path)
    assert text_run(["tree", "-a", "-L", "1", "--noreport"], tmp_path).text.splitlines()[1] == "├── .hid"
    assert text_run(["tree", "-d"], tmp_path).text.endswith("\n\n5 directories\n")
    assert text_run(["tree", "-I", "d|B", "--noreport"], tmp_path).text == (
        ".\n├── a\n├── la -> a\n└── ld -> d\n")


def test_tree_full_path_and_dirsfirst(tmp_path: Path) -> None:
    _tree_fixture(tmp_path)
    lines = text_run(["tree", "-f", "--dirsfirst", "--noreport", "-L", "1", "."], tmp_path).text.splitlines()
    assert lines[1:] == ["├── ./B", "├── ./d", "├── ./ld -> d", "├── ./a", "└── ./la -> a"]


def test_tree_empty_directory_does_not_count_itself(tmp_path: Path) -> None:
    (tmp_path / "e").mkdir()
    assert text_run(["tree", "e"], tmp_path).text == "e\n\n0 directories, 0 files\n"


def test_tree_missing_directory_reports_and_exits_2(tmp_path: Path) -> None:
    r = text_run(["tree", "nope"], tmp_path)
    assert (r.code, r.text) == (2, "nope  [error opening dir]\n\n0 directories, 0 files\n")


def test_tree_rejects_level_zero(tmp_path: Path) -> None:
    r = text_run(["tree", "-L", "0"], tmp_path)
    assert (r.code, r.err) == (1, "tree: Invalid level, must be greater than 0.\n")


def test_tree_json_is_tree_dash_j_shape(tmp_path: Path) -> None:
    _tree_fixture(tmp_path)
    r = text_run(["tree", "--json", "-L", "1", "d"], tmp_path)
    assert r.data == [
        {"type": "directory", "name": "d", "contents": [
            {"type": "directory", "name": "e"}, {"type": "file", "name": "f"}]},
        {"type": "report", "directories": 2, "files": 1}]


# -- sizes, patterns, sorting and classification ----------------------------------------

def test_tree_h_prints_human_sizes_not_the_help(tmp_path: Path) -> None:
    def build(root: Path) -> None:
        (root / "d").mkdir()
        for name, n in (("a", 3), ("b", 10189), ("c", 10433332), ("e", 15360)):
            with open(root / "d" / name, "wb") as f:
                f.truncate(n)
    mine = tmp_path / "m"
    mine.mkdir()
    build(mine)
    r = run(["tree", "-h", "d/a", "d"], mine)
    lines = r.out.splitlines()
    assert lines[2:6] == ["├── [   3]  a", "├── [10.0K]  b", "├── [9.9M]  c", "└── [ 15K]  e"]
    for argv in (["tree", "-h", "d"], ["tree", "-s", "d"], ["tree", "-p", "-s", "d"]):
        g = reference.run_tool(argv, mine)
        if g is not None:
            assert g.text.split("\n", 1)[1] == run(argv, mine).out.split("\n", 1)[1], argv


def test_tree_classify_and_no_indent(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    assert run(["tree", "-F", "d"], root).out == (
        "d/\n├── f1.py\n├── f2.txt\n└── sub/\n    └── g.py\n\n2 directories, 3 files\n")
    assert run(["tree", "-i", "d"], root).out == (
        "d\nf1.py\nf2.txt\nsub\ng.py\n\n2 directories, 3 files\n")
    for argv in (["tree", "-F", "d"], ["tree", "-i", "d"], ["tree", "-F", "."]):
        same_as_gnu(argv, root)


def test_tree_pattern_prune_charset_and_sort_options(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    (root / "d" / "empty").mkdir()
    os.utime(root / "d" / "f2.txt", (OLD + 5, OLD + 5))
    os.utime(root / "d" / "empty", (OLD + 9, OLD + 9))
    assert run(["tree", "-P", "*.py", "--prune", "."], root).out == (
        ".\n└── d\n    ├── f1.py\n    └── sub\n        └── g.py\n\n3 directories, 2 files\n")
    assert run(["tree", "-P", "*.py", "d"], root).out == (
        "d\n├── empty\n├── f1.py\n└── sub\n    └── g.py\n\n3 directories, 2 files\n")
    assert run(["tree", "--charset=ascii", "d"], root).out == (
        "d\n|-- empty\n|-- f1.py\n|-- f2.txt\n`-- sub\n    `-- g.py\n\n"
        "3 directories, 3 files\n")
    assert run(["tree", "-r", "d"], root).out.splitlines()[1:5] == [
        "├── sub", "│\u00a0\u00a0 └── g.py", "├── f2.txt", "├── f1.py"]
    assert run(["tree", "-t", "-L", "1", "d"], root).out.splitlines()[1:5] == [
        "├── f1.py", "├── sub", "├── f2.txt", "└── empty"]
    for argv in (["tree", "-P", "*.py", "--prune", "."], ["tree", "-P", "*.py", "d"],
                 ["tree", "--charset=ascii", "d"], ["tree", "-r", "d"],
                 ["tree", "-t", "-L", "1", "d"], ["tree", "-L", "1", "--prune", "."]):
        same_as_gnu(argv, root)


# -- against the host's tree ------------------------------------------------------------

def _wide_tree(tmp: Path) -> Path:
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
    root = _wide_tree(tmp_path)
    argv = ["tree", *opts]
    want = reference.run_tool(argv, root, env=_ENV)
    assert want is not None
    assert kernel_run(Kernel(cwd=str(root)), argv) == (want.code, want.out)


@pytest.mark.parametrize("opts", [[], ["-d"], ["-L", "1"], ["--noreport", "-a"], ["emptydir"]],
                         ids=" ".join)
def test_tree_json_matches_tree_dash_j(tmp_path: Path, opts: list[str]) -> None:
    _need("tree")
    root = _wide_tree(tmp_path)
    want = reference.run_tool(["tree", "-J", *opts], root, env=_ENV)
    assert want is not None
    got = Kernel(cwd=str(root)).execute_argv("tree", ["--json", *opts], b"", binary=True)
    out = got.out if isinstance(got.out, bytes) else got.out.encode()
    assert (got.code, json.loads(out)) == (want.code, json.loads(want.out))
