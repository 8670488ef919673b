"""ls: listing, sorting, long format, columns, quoting and symlink operands, run through
the binder against a temporary folder; the symlink and time-stamp pins also against GNU
ls when the host has it. Pins that need no symlinks or set times are
tests/conformance/pins/tools/ls.cases."""

from __future__ import annotations

import os
import stat as stat_mod
from pathlib import Path

import pytest
from harness import make_tree
from harness_files_json import both, run, same_as_gnu, symlink_tree, symlink_tree_in

from tysh.builtins._common.fileinfo import human_size, mode_string


def make(root: Path, *names: str) -> None:
    """Create files (`a/b.txt`) and folders (`d/`) under root."""
    make_tree(root, *names, content=lambda n: n.split("/")[-1] + "\n")


# -- listing and order -------------------------------------------------------------------

def test_ls_prints_one_name_per_line_sorted_by_code_point(tmp_path: Path) -> None:
    make(tmp_path, "b.txt", "a.txt", "C.md", "sub/")
    assert run(["ls"], tmp_path).out == "C.md\na.txt\nb.txt\nsub\n"


def test_ls_hides_dot_files_unless_a_or_A(tmp_path: Path) -> None:
    make(tmp_path, ".dot", "visible")
    assert run(["ls"], tmp_path).out == "visible\n"
    assert run(["ls", "-a"], tmp_path).out == ".\n..\n.dot\nvisible\n"
    assert run(["ls", "-A"], tmp_path).out == ".dot\nvisible\n"


def test_ls_dash_one_operand_is_taken_as_the_option(tmp_path: Path) -> None:
    make(tmp_path, "a", "b")
    assert run(["ls", "-1"], tmp_path).out == "a\nb\n"


def test_ls_digit_bundle_like_dash_1a_is_read_as_options(tmp_path: Path) -> None:
    make(tmp_path, ".h", "v")
    assert run(["ls", "-1a"], tmp_path).out == ".\n..\n.h\nv\n"


def test_ls_recursive_prints_headers_and_blank_lines_like_gnu(tmp_path: Path) -> None:
    make(tmp_path, "d/x.txt", "d/sub/y.txt", "d/emptysub/")
    assert run(["ls", "-R", "d"], tmp_path).out == (
        "d:\nemptysub\nsub\nx.txt\n\nd/emptysub:\n\nd/sub:\ny.txt\n"
    )


def test_ls_lists_file_operands_before_directories(tmp_path: Path) -> None:
    make(tmp_path, "a.txt", "b.txt", "d/inner")
    assert run(["ls", "d", "b.txt", "a.txt"], tmp_path).out == "a.txt\nb.txt\n\nd:\ninner\n"


def test_ls_several_directories_get_headers(tmp_path: Path) -> None:
    make(tmp_path, "d1/x", "d1/y", "d2/z")
    assert run(["ls", "d1", "d2"], tmp_path).out == "d1:\nx\ny\n\nd2:\nz\n"


def test_ls_d_lists_directories_themselves(tmp_path: Path) -> None:
    make(tmp_path, "d/x", "e/")
    assert run(["ls", "-d", "d", "e", "."], tmp_path).out == ".\nd\ne\n"


def test_ls_F_marks_directories_executables_and_links(tmp_path: Path) -> None:
    make(tmp_path, "a.txt", "dir1/", "run.sh")
    os.chmod(tmp_path / "run.sh", 0o755)
    os.symlink("a.txt", tmp_path / "ln")
    assert run(["ls", "-F"], tmp_path).out == "a.txt\ndir1/\nln@\nrun.sh*\n"


def test_ls_r_reverses_and_t_S_sort_by_time_and_size(tmp_path: Path) -> None:
    make(tmp_path, "a", "b", "c")
    assert run(["ls", "-r"], tmp_path).out == "c\nb\na\n"
    os.utime(tmp_path / "b", (1000, 1000))
    os.utime(tmp_path / "a", (3000, 3000))
    os.utime(tmp_path / "c", (2000, 2000))
    assert run(["ls", "-t"], tmp_path).out == "a\nc\nb\n"
    (tmp_path / "b").write_text("x" * 100)
    assert run(["ls", "-S"], tmp_path).out.splitlines()[0] == "b"


def test_ls_missing_operand_reports_and_exits_2_but_lists_the_rest(tmp_path: Path) -> None:
    make(tmp_path, "a.txt")
    r = run(["ls", "nosuch", "a.txt"], tmp_path)
    assert (r.code, r.out) == (2, "a.txt\n")
    assert "ls: cannot access 'nosuch': No such file or directory" in r.err


# -- long format ------------------------------------------------------------------------

def test_ls_long_format_matches_gnu_columns(tmp_path: Path) -> None:
    make(tmp_path, "a.txt", "big/")
    (tmp_path / "a.txt").write_text("hello\n")
    os.chmod(tmp_path / "a.txt", 0o640)
    ts = 1_500_000_000  # 2017-07-14 02:40 UTC: older than six months, so the year shows
    os.utime(tmp_path / "a.txt", (ts, ts))
    lines = run(["ls", "-l"], tmp_path).out.splitlines()
    assert lines[0].startswith("total ")
    a_line = next(x for x in lines if x.endswith(" a.txt"))
    parts = a_line.split()
    assert parts[0] == "-rw-r-----" and parts[4] == "6"
    assert a_line.endswith("Jul 14  2017 a.txt")
    assert any(x.startswith("drwx") and x.endswith(" big") for x in lines)


def test_ls_long_shows_symlink_target(tmp_path: Path) -> None:
    make(tmp_path, "a.txt")
    os.symlink("a.txt", tmp_path / "ln")
    line = [x for x in run(["ls", "-l"], tmp_path).out.splitlines() if "ln" in x][0]
    assert line.startswith("l") and line.endswith("ln -> a.txt")


def test_human_size_rounds_up_like_gnu() -> None:
    assert [human_size(n) for n in (0, 1023, 1024, 1536, 1537, 10240, 1 << 20)] == [
        "0", "1023", "1.0K", "1.5K", "1.6K", "10K", "1.0M"]


def test_mode_string_covers_special_bits() -> None:
    assert mode_string(stat_mod.S_IFREG | 0o4755) == "-rwsr-xr-x"
    assert mode_string(stat_mod.S_IFDIR | 0o1777) == "drwxrwxrwt"


def test_ls_long_shows_a_symlink_operand_to_a_directory_as_the_link(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    out = run(["ls", "-l", "dlink"], root).out
    assert out.startswith("lrwxrwxrwx 1 ") and out.endswith(" 1 Sep 13  2020 dlink -> d\n")
    same_as_gnu(["ls", "-l", "dlink"], root)


def test_ls_size_blocks_inode_and_owner_less_long_forms(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    out = run(["ls", "-s", "d"], root).out.splitlines()
    assert out[0].startswith("total ") and out[1].endswith(" f1.py")
    assert run(["ls", "-go", "a.txt"], root).out == "-rw-r--r-- 1 6 Sep 13  2020 a.txt\n"
    for argv in (["ls", "-s", "d"], ["ls", "-lo", "d"], ["ls", "-lg", "d"], ["ls", "-sC", "d"]):
        same_as_gnu(argv, root)


def test_ls_long_size_option_is_allocated_size_like_gnu(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    assert run(["ls", "--size", "d"], root).out == run(["ls", "-s", "d"], root).out
    same_as_gnu(["ls", "--size", "d"], root)


def test_ls_time_styles(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    tail = " a.txt\n"
    assert run(["ls", "-l", "--time-style=long-iso", "a.txt"], root).out.endswith(
        " 2020-09-13 12:26" + tail)
    assert run(["ls", "--full-time", "a.txt"], root).out.endswith(
        " 2020-09-13 12:26:40.000000000 +0000" + tail)
    assert run(["ls", "-l", "--time-style=+%Y", "a.txt"], root).out.endswith(" 2020" + tail)
    for argv in (["ls", "-l", "--time-style=long-iso", "a.txt"], ["ls", "--full-time", "d"],
                 ["ls", "-l", "--time-style=iso", "d"], ["ls", "-l", "--time-style=+%Y", "d"]):
        same_as_gnu(argv, root)


def test_ls_si_and_human_sizes_round_up_past_a_unit_boundary(tmp_path: Path) -> None:
    root = tmp_path / "s"
    root.mkdir()
    for n in (1000, 1001, 1048576, 1048577):
        with open(root / f"f{n}", "wb") as f:
            f.truncate(n)
    sizes = [ln.split()[4] for ln in run(["ls", "-l", "--si"], root).out.splitlines()[1:]]
    assert sizes == ["1.0k", "1.1k", "1.1M", "1.1M"]
    sizes = [ln.split()[4] for ln in run(["ls", "-lh"], root).out.splitlines()[1:]]
    assert sizes == ["1000", "1001", "1.0M", "1.1M"]
    for argv in (["ls", "-l", "--si"], ["ls", "-lh"]):
        same_as_gnu(argv, root)


def test_ls_n_alone_is_a_numeric_long_listing(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    out = run(["ls", "-n", "a.txt"], root).out
    uid, gid = os.getuid(), os.getgid()
    assert out == f"-rw-r--r-- 1 {uid} {gid} 6 Sep 13  2020 a.txt\n"
    same_as_gnu(["ls", "-n", "a.txt"], root)


def test_ls_long_file_operands_share_widths_with_directory_operands(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    first = run(["ls", "-l", "a.txt", "d"], root).out.splitlines()[0]
    width = len(str(os.stat(root / "d").st_size))  # 6 is padded to the width of d's size
    assert first.endswith(" " + "6".rjust(width) + " Sep 13  2020 a.txt")
    for argv in (["ls", "-l", "a.txt", "d"], ["ls", "-ls", "a.txt", "d"]):
        same_as_gnu(argv, root)


def test_ls_long_classify_marks_the_link_target(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    out = run(["ls", "-lF", "dlink", "dangling"], root).out.splitlines()
    assert out[0].endswith(" dangling -> nowhere") and out[1].endswith(" dlink -> d/")
    assert run(["ls", "-lp", "dlink"], root).out.endswith(" dlink -> d\n")
    for argv in (["ls", "-lF", "dlink", "dangling"], ["ls", "-lp", "dlink"]):
        same_as_gnu(argv, root)


# -- symlink operands --------------------------------------------------------------------

def test_ls_classify_and_directory_do_not_follow_symlink_operands(tmp_path: Path) -> None:
    both(tmp_path, symlink_tree, ["ls", "-F", "link", "dangling", "dlink"],
         "dangling@\ndlink@\nlink@\n")
    root = symlink_tree_in(tmp_path)
    assert run(["ls", "dlink"], root).out == "f1.py\nf2.txt\nsub\n"  # plain ls follows it
    assert run(["ls", "dlink/", "-l"], root).out.startswith("total ")


def test_ls_dereference_L_lists_the_target(tmp_path: Path) -> None:
    both(tmp_path, symlink_tree, ["ls", "-L", "dlink"], "f1.py\nf2.txt\nsub\n")
    root = symlink_tree_in(tmp_path)
    r = run(["ls", "-L", "-l", "link", "dangling"], root)
    assert r.code == 2 and "cannot access 'dangling'" in r.err
    assert r.out.startswith("-rw-r--r-- 1 ") and r.out.endswith(" link\n")


def test_ls_L_reports_a_dangling_link_only_when_it_needs_its_data(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    r = run(["ls", "-L"], root)
    assert (r.code, r.err) == (0, "")
    r = run(["ls", "-L", "-t"], root)
    assert (r.code, r.err) == (1, "ls: cannot access 'dangling': No such file or directory\n")
    assert r.out.splitlines()[-1] == "dangling"
    for argv in (["ls", "-L"], ["ls", "-Lt"]):
        same_as_gnu(argv, root)


def test_ls_RL_stops_at_a_link_back_to_an_ancestor(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    os.symlink("..", tmp_path / "a" / "b" / "up")
    r = run(["ls", "-RL", "a"], tmp_path)
    assert (r.code, r.out) == (2, "a:\nb\n\na/b:\nup\n")
    assert r.err == "ls: a/b/up: not listing already-listed directory\n"
    same_as_gnu(["ls", "-RL", "a"], tmp_path)


@pytest.mark.parametrize("argv", [["ls", "-lL"], ["ls", "-R", "-I", "sub", "d"]])
def test_ls_new_options_never_crash(tmp_path: Path, argv: list[str]) -> None:
    root = symlink_tree_in(tmp_path)
    r = run(argv, root)
    assert "Traceback" not in r.err and r.code in (0, 1)


# -- quoting and columns ----------------------------------------------------------------

def test_ls_quote_name_and_indicator_style(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    assert run(["ls", "-Q", "d"], root).out == '"f1.py"\n"f2.txt"\n"sub"\n'
    assert run(["ls", "--indicator-style=slash", "d"], root).out == "f1.py\nf2.txt\nsub/\n"
    assert run(["ls", "--indicator-style=file-type", "link"], root).out == "link@\n"
    for argv in (["ls", "-Q", "d"], ["ls", "--indicator-style=file-type"]):
        same_as_gnu(argv, root)


def test_ls_quote_name_quotes_directory_headers(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    assert run(["ls", "-Q", "a.txt", "d"], root).out == (
        '"a.txt"\n\n"d":\n"f1.py"\n"f2.txt"\n"sub"\n')
    same_as_gnu(["ls", "-Q", "a.txt", "d"], root)


def test_ls_columns_count_display_width(tmp_path: Path) -> None:
    for name in ("日本語", "é", "abc", "new\nline", "sp ace"):
        (tmp_path / name).write_text("")
    out = run(["ls", "-C"], tmp_path).out
    assert out == "abc  new\nline  sp ace  é  日本語\n"
    same_as_gnu(["ls", "-C"], tmp_path)


# -- typed output -----------------------------------------------------------------------

def test_ls_json_gives_entries_with_name_type_size(tmp_path: Path) -> None:
    make(tmp_path, "a.txt", "d/")
    data = run(["ls", "--json"], tmp_path).json()
    assert data[0] == {"name": "a.txt", "path": "a.txt", "type": "file", "size": 6}
    assert data[1]["type"] == "directory"


def test_ls_output_nodes_carry_entry_types_for_the_repl(tmp_path: Path) -> None:
    make(tmp_path, "a.txt", "d/", "x.sh")
    os.chmod(tmp_path / "x.sh", 0o755)
    r = run(["ls"], tmp_path)
    assert r.output is not None
    assert [n.entry_type for n in r.output.root] == ["file", "directory", "executable"]
