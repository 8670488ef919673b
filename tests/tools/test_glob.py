"""glob: recursive patterns, hidden names, --exclude and its typed output."""

from __future__ import annotations

from pathlib import Path

from harness import make_tree
from harness_files_json import run

from tysh.builtins import get_builtin


def make(root: Path, *names: str) -> None:
    """Create files (`a/b.txt`) and folders (`d/`) under root."""
    make_tree(root, *names, content=lambda n: n.split("/")[-1] + "\n")


def test_glob_expands_recursive_patterns_sorted(tmp_path: Path) -> None:
    make(tmp_path, "a.py", "src/b.py", "src/deep/c.py", "src/d.txt")
    assert run(["glob", "**/*.py"], tmp_path).out == "a.py\nsrc/b.py\nsrc/deep/c.py\n"


def test_glob_skips_hidden_names_unless_the_pattern_starts_with_a_dot(tmp_path: Path) -> None:
    make(tmp_path, ".env", "x.env", ".git/config")
    assert run(["glob", "*env"], tmp_path).out == "x.env\n"
    assert run(["glob", ".*"], tmp_path).out == ".env\n.git\n"
    assert run(["glob", "**/config"], tmp_path).code == 1


def test_glob_exclude_drops_components_and_paths(tmp_path: Path) -> None:
    make(tmp_path, "a.js", "node_modules/x.js", "src/gen/y.js", "src/z.js")
    r = run(["glob", "**/*.js", "--exclude", "node_modules", "--exclude", "src/gen"], tmp_path)
    assert r.out == "a.js\nsrc/z.js\n"


def test_glob_no_match_names_the_pattern_and_exits_1(tmp_path: Path) -> None:
    make(tmp_path, "a.txt")
    r = run(["glob", "*.txt", "*.nope"], tmp_path)
    assert (r.code, r.out) == (1, "a.txt\n")
    assert "glob: no matches: *.nope" in r.err


def test_glob_json_is_a_list_of_file_records(tmp_path: Path) -> None:
    make(tmp_path, "d/a", "d/b")
    got = run(["glob", "--json", "d/*"], tmp_path).json()
    assert [(r["path"], r["name"], r["type"]) for r in got] == [
        ("d/a", "a", "file"), ("d/b", "b", "file")]


def test_glob_declares_glob_passthrough() -> None:
    tool = get_builtin("glob")
    assert tool is not None and tool.schema.glob_passthrough
