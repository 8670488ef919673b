"""du: symlinks, hard links, sizes and options."""

from __future__ import annotations

import os
from pathlib import Path

import reference
from harness_files_json import run, same_as_gnu, symlink_tree_in


def test_du_counts_a_symlink_itself_not_its_target(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    r = run(["du", "dlink", "link", "dangling"], root)
    assert (r.code, r.out, r.err) == (0, "0\tdlink\n0\tlink\n0\tdangling\n", "")
    g = reference.run_tool(["du", "dlink", "link", "dangling"], root)
    if g is not None:
        assert (g.code, g.text) == (r.code, r.out)
    assert run(["du", "-L", "-s", "dlink"], root).out == run(["du", "-s", "d"], root).out.replace(
        "\td", "\tdlink")


def test_du_counts_a_directory_given_twice_once(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    r = run(["du", "-s", ".", "d"], root)
    assert len(r.out.splitlines()) == 1 and r.out.endswith("\t.\n")
    g = reference.run_tool(["du", "-s", ".", "d"], root)
    if g is not None:
        assert g.text == r.out


def test_du_separate_dirs_exclude_and_null(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    for argv in (["du", "-S", "d"], ["du", "-Sc", "d"], ["du", "-a", "--exclude=*.py", "d"],
                 ["du", "--exclude=sub", "d"], ["du", "-0", "-s", "d"]):
        same_as_gnu(argv, root)
    assert "\0" in run(["du", "-0", "-s", "d"], root).out
    assert "py" not in run(["du", "-a", "--exclude=*.py", "d"], root).out


def test_du_human_sizes_round_up_past_a_unit_boundary(tmp_path: Path) -> None:
    root = tmp_path / "s"
    root.mkdir()
    with open(root / "f", "wb") as f:
        f.truncate(1048577)
    r = run(["du", "-h", "--apparent-size", "f"], root)
    assert r.out == "1.1M\tf\n"
    g = reference.run_tool(["du", "-h", "--apparent-size", "f"], root)
    if g is not None:
        assert g.text == r.out


def test_du_L_counts_a_file_reached_through_a_link_once(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    os.remove(root / "dangling")
    once = run(["du", "-s", "."], root).out
    assert run(["du", "-L", "-s", "."], root).out == once
    same_as_gnu(["du", "-L", "-s", "."], root)


def test_du_s_with_max_depth_0_warns(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    r = run(["du", "-s", "-d", "0", "d"], root)
    assert r.code == 0 and r.err == "du: warning: summarizing is the same as using " \
        "--max-depth=0\n"
