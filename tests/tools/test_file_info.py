"""The tools that describe a path: stat basename dirname realpath, through the binder
against a temporary folder; the symlink and format pins also against GNU coreutils
when the host has it (tests/conformance/pins/tools/realpath.cases holds the rest)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from harness import make_tree
from harness_files_json import OLD, run, same_as_gnu, symlink_tree_in


def make(root: Path, *names: str) -> None:
    """Create files (`a/b.txt`) and folders (`d/`) under root."""
    make_tree(root, *names, content=lambda n: n.split("/")[-1] + "\n")


# -- stat -------------------------------------------------------------------------------

def test_stat_format_directives(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello")
    os.chmod(tmp_path / "a.txt", 0o644)
    r = run(["stat", "-c", "%n %s %a %A %F", "a.txt"], tmp_path)
    assert r.out == "a.txt 5 644 -rw-r--r-- regular file\n"
    r = run(["stat", "--printf", "%s\\t%n\\n", "a.txt"], tmp_path)
    assert r.out == "5\ta.txt\n"


def test_stat_default_output_names_file_size_and_type(tmp_path: Path) -> None:
    make(tmp_path, "d/")
    out = run(["stat", "d"], tmp_path).out
    assert out.startswith("  File: d\n  Size: ") and "directory" in out


def test_stat_json_is_a_list_of_file_records_and_missing_file_fails(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("xy")
    [data] = run(["stat", "--json", "a"], tmp_path).json()
    assert (data["path"], data["name"], data["type"], data["size"]) == ("a", "a", "file", 2)
    assert data["description"] == "regular file"
    r = run(["stat", "nosuch"], tmp_path)
    assert r.code == 1 and "nosuch" in r.err


def test_stat_format_flags_precision_and_unknown_directives(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    os.utime(root / "a.txt", (OLD, OLD))
    argv = ["stat", "-c", "%+05s|%-+4s|%#a|%.3Y|%.0Y|%q|%05a", "a.txt"]
    r = run(argv, root)
    assert r.out == f"+0006|+6  |0644|{OLD}.000|{OLD}|?|00644\n"
    same_as_gnu(argv, root)


# -- basename / dirname -----------------------------------------------------------------

@pytest.mark.parametrize(("argv", "out"), [
    (["basename", "a/b/c.txt"], "c.txt\n"),
    (["basename", "a/b/report.txt", ".txt"], "report\n"),
    (["basename", "-s", ".txt", "x/one.txt", "y/two.txt"], "one\ntwo\n"),
    (["basename", "-a", "dir/a", "dir2/b.c"], "a\nb.c\n"),
    (["basename", "a/b//"], "b\n"),
    (["basename", "/"], "/\n"),
    (["basename", ".txt", ".txt"], ".txt\n"),
    (["dirname", "a/b/c.txt", "/usr/bin/env"], "a/b\n/usr/bin\n"),
    (["dirname", "file.txt", "."], ".\n.\n"),
    (["dirname", "a/b/", "a/b//c//", "/", "/x"], "a\na/b\n/\n/\n"),
])
def test_basename_and_dirname_match_gnu(tmp_path: Path, argv: list[str], out: str) -> None:
    assert run(argv, tmp_path).out == out


def test_basename_extra_operand_is_an_error(tmp_path: Path) -> None:
    r = run(["basename", "a", "b", "c"], tmp_path)
    assert r.code == 1 and "extra operand 'c'" in r.err


# -- realpath ---------------------------------------------------------------------------

def test_realpath_resolves_links_and_checks_existence(tmp_path: Path) -> None:
    make(tmp_path, "a.txt")
    os.symlink("a.txt", tmp_path / "ln")
    real = os.path.realpath(tmp_path)
    assert run(["realpath", "ln"], tmp_path).out == f"{real}/a.txt\n"
    r = run(["realpath", "nosuch/x"], tmp_path)
    assert r.code == 1 and "nosuch/x: No such file or directory" in r.err
    assert run(["realpath", "-m", "nosuch/x"], tmp_path).out == f"{real}/nosuch/x\n"
    assert run(["realpath", "-e", "missing"], tmp_path).code == 1
    assert run(["realpath", "missing"], tmp_path).out == f"{real}/missing\n"


def test_realpath_resolves_link_dotdot_physically_by_default(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    os.symlink("d/sub", root / "sl")
    real = os.path.realpath(root)
    assert run(["realpath", "sl/.."], root).out == real + "/d\n"
    assert run(["realpath", "-L", "sl/.."], root).out == real + "\n"
    assert run(["realpath", "-s", "sl/.."], root).out == real + "\n"
    for argv in (["realpath", "sl/.."], ["realpath", "-L", "sl/.."]):
        same_as_gnu(argv, root)


def test_realpath_reports_a_symlink_loop(tmp_path: Path) -> None:
    os.symlink("loop2", tmp_path / "loop1")
    os.symlink("loop1", tmp_path / "loop2")
    for argv in (["realpath", "loop1"], ["realpath", "-e", "loop1"]):
        r = run(argv, tmp_path)
        assert (r.code, r.out) == (1, ""), argv
        assert r.err == "realpath: loop1: Too many levels of symbolic links\n"
        same_as_gnu(argv, tmp_path)
    assert run(["realpath", "-m", "loop1"], tmp_path).code == 0
