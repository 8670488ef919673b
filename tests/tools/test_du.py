"""du: sizes, symlinks, hard links and options, through the binder; the pins also
against GNU du when the host has it (directory sizes and block counts depend on the
host's file system, so none of them is a .cases pin)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import reference
from harness import kernel_run
from harness_files_json import run, same_as_gnu, symlink_tree_in
from harness_text import run as text_run
from harness_text import write

from tysh.kernel.embed.kernel import Kernel

_C = {"LC_ALL": "C"}  # the locale these GNU runs have always used


def _need(tool: str) -> None:
    if reference.have(tool) is None:
        pytest.skip(f"{tool} is not installed")


def test_du_apparent_bytes_post_order_and_hard_links_once(tmp_path: Path) -> None:
    write(tmp_path, "t/a", "x" * 100)
    write(tmp_path, "t/s/b", "y" * 10)
    os.link(tmp_path / "t/a", tmp_path / "t/s/h")
    dsize = (tmp_path / "t").stat().st_size
    ssize = (tmp_path / "t/s").stat().st_size
    r = text_run(["du", "-b", "t"], tmp_path)
    lines = r.text.splitlines()
    assert [x.split("\t")[1] for x in lines] == ["t/s", "t"]
    assert lines[1] == f"{dsize + ssize + 110}\tt"  # the linked 100 bytes once


def test_du_summarize_total_and_json(tmp_path: Path) -> None:
    write(tmp_path, "t/a", "x" * 5000)
    r = text_run(["du", "-s", "-c", "-b", "t"], tmp_path)
    lines = r.text.splitlines()
    assert len(lines) == 2 and lines[1].endswith("\ttotal")
    got = text_run(["du", "--json", "-a", "-b", "t"], tmp_path).json()
    assert {"path": "t/a", "size": 5000} in got


def test_du_missing_path_is_reported_status_1(tmp_path: Path) -> None:
    r = text_run(["du", "nope"], tmp_path)
    assert (r.code, r.err) == (1, "du: cannot access 'nope': No such file or directory\n")


def test_du_human_sizes_follow_gnu_rounding() -> None:
    from tysh.builtins.files.du import human

    assert [human(n, 1024) for n in (0, 1023, 1024, 4097, 13202, 10 * 1024 * 1024)] == [
        "0", "1023", "1.0K", "4.1K", "13K", "10M"]
    assert human(1500, 1000) == "1.5k"


# -- symlinks, repeated operands and options --------------------------------------------

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


# -- apparent sizes against GNU du ------------------------------------------------------

@pytest.mark.parametrize("opts", [["-b"], ["--apparent-size"], ["-a", "-b"], ["-s", "-b"],
                                  ["-c", "-b"], ["-b", "-d", "1"], ["-h", "--apparent-size"],
                                  ["--si", "--apparent-size"], ["-a", "--apparent-size", "-k"]])
def test_du_apparent_sizes_match_gnu(tmp_path: Path, opts: list[str]) -> None:
    _need("du")
    tree = tmp_path / "t"
    for name, size in (("a", 5000), ("s/b", 10), ("s/deep/c", 70000), ("e", 0)):
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_bytes(b"x" * size)
    os.link(tree / "a", tree / "s" / "hard")
    want = reference.run_tool(["du", *opts, "t"], tmp_path, env=_C)
    assert want is not None
    got = kernel_run(Kernel(cwd=str(tmp_path)), ["du", *opts, "t"])
    assert got[0] == want.code
    assert sorted(got[1].splitlines()) == sorted(want.out.splitlines())
