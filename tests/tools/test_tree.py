"""tree: drawing, options and sizes."""

from __future__ import annotations

import os
from pathlib import Path

import reference
from harness_files_json import OLD, run, same_as_gnu, symlink_tree_in


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
