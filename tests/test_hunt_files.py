"""Differential bug hunt on the file tools (ls find du tree touch rm chmod): each test pins
one behaviour where tysh differed from GNU coreutils/findutils or tree 2.1. Where the real
tool is on the host the test also compares against it; the literal expectation keeps the
test meaningful without it."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from harness_files_json import run

OLD = 1_600_000_000  # 2020-09-13: older than six months
_ENV = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"}


def gnu(argv: list[str], cwd: Path) -> tuple[int, str, str] | None:
    """The host tool's (status, stdout, stderr), or None when it is not installed."""
    if shutil.which(argv[0]) is None:
        return None
    p = subprocess.run(argv, cwd=cwd, env={**_ENV, "HOME": str(cwd)}, capture_output=True,
                       check=False)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def both(tmp_path: Path, build: Callable[[Path], None], argv: list[str],
         expected: str, code: int = 0) -> None:
    """Build the same tree twice; tysh must print `expected`, and so must GNU when present."""
    mine, theirs = tmp_path / "t", tmp_path / "g"
    for root in (mine, theirs):
        root.mkdir()
        build(root)
    r = run(argv, mine)
    assert (r.code, r.out) == (code, expected), r.err
    g = gnu(argv, theirs)
    if g is not None:
        assert (g[0], g[1]) == (code, expected)


def _tree(root: Path) -> None:
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


# -- find -printf ------------------------------------------------------------------------

def test_find_printf_honours_flags_width_and_precision(tmp_path: Path) -> None:
    both(tmp_path, _tree, ["find", "d", "-name", "*.py", "-printf", "[%-6f][%5s][%.2f][%#m]\n"],
         "[f1.py ][    3][f1][0644]\n[g.py  ][    2][g.][0644]\n")


def test_find_printf_unknown_directive_is_printed_after_a_warning(tmp_path: Path) -> None:
    _tree(tmp_path)
    r = run(["find", "a.txt", "-printf", "%j|\n"], tmp_path)
    assert (r.code, r.out) == (0, "%j|\n")
    assert "unrecognized format directive" in r.err


def test_find_printf_lone_percent_at_the_end_is_an_error(tmp_path: Path) -> None:
    _tree(tmp_path)
    r = run(["find", "a.txt", "-printf", "x%"], tmp_path)
    assert (r.code, r.out) == (1, "")
    assert "% at end of format string" in r.err


# -- ls ----------------------------------------------------------------------------------

def _mk(tmp_path: Path) -> Path:
    root = tmp_path / "x"
    root.mkdir()
    _tree(root)
    return root


def same_as_gnu(argv: list[str], root: Path) -> None:
    """tysh's stdout and status equal the host tool's (when it is installed)."""
    g = gnu(argv, root)
    if g is not None:
        r = run(argv, root)
        assert (r.code, r.out) == (g[0], g[1]), argv


def test_ls_long_shows_a_symlink_operand_to_a_directory_as_the_link(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    out = run(["ls", "-l", "dlink"], root).out
    assert out.startswith("lrwxrwxrwx 1 ") and out.endswith(" 1 Sep 13  2020 dlink -> d\n")
    same_as_gnu(["ls", "-l", "dlink"], root)


def test_ls_classify_and_directory_do_not_follow_symlink_operands(tmp_path: Path) -> None:
    both(tmp_path, _tree, ["ls", "-F", "link", "dangling", "dlink"],
         "dangling@\ndlink@\nlink@\n")
    root = _mk(tmp_path)
    assert run(["ls", "dlink"], root).out == "f1.py\nf2.txt\nsub\n"  # plain ls follows it
    assert run(["ls", "dlink/", "-l"], root).out.startswith("total ")


def test_ls_dereference_L_lists_the_target(tmp_path: Path) -> None:
    both(tmp_path, _tree, ["ls", "-L", "dlink"], "f1.py\nf2.txt\nsub\n")
    root = _mk(tmp_path)
    r = run(["ls", "-L", "-l", "link", "dangling"], root)
    assert r.code == 2 and "cannot access 'dangling'" in r.err
    assert r.out.startswith("-rw-r--r-- 1 ") and r.out.endswith(" link\n")


def test_ls_sorts_by_extension_and_groups_directories_first(tmp_path: Path) -> None:
    def build(root: Path) -> None:
        for n in ("b.txt", "a.sh", "c", "z.a"):
            (root / n).write_text("")
        (root / "dir").mkdir()
    both(tmp_path, build, ["ls", "-X"], "c\ndir\nz.a\na.sh\nb.txt\n")
    assert run(["ls", "--group-directories-first"], tmp_path / "t").out == (
        "dir\na.sh\nb.txt\nc\nz.a\n")
    same_as_gnu(["ls", "--group-directories-first"], tmp_path / "t")


def test_ls_ignore_and_hide_patterns(tmp_path: Path) -> None:
    def build(root: Path) -> None:
        for n in ("a.txt", "b.md", ".h.txt", "keep~"):
            (root / n).write_text("")
    root = tmp_path / "r"
    root.mkdir()
    build(root)
    assert run(["ls", "-I", "*.txt"], root).out == "b.md\nkeep~\n"
    assert run(["ls", "--hide=*.txt", "-A"], root).out == ".h.txt\na.txt\nb.md\nkeep~\n"
    assert run(["ls", "-B"], root).out == "a.txt\nb.md\n"
    assert run(["ls", "-a", "-I", ".*"], root).out == "a.txt\nb.md\nkeep~\n"
    for argv in (["ls", "-I", "*.txt"], ["ls", "-a", "-I", ".*"], ["ls", "-B"]):
        same_as_gnu(argv, root)


def test_ls_columns_C_x_and_m_follow_gnu_layout_off_a_terminal(tmp_path: Path) -> None:
    for i in range(1, 31):
        (tmp_path / f"file_{i}{'_longer_name' if i % 3 == 0 else ''}").write_text("")
    out = run(["ls", "-C"], tmp_path).out
    assert out.splitlines()[0] == "file_1\t\t     file_19\t\t  file_28"
    x = run(["ls", "-x"], tmp_path).out
    assert x.splitlines()[0] == "file_1\t\t     file_10\t\t  file_11"
    m = run(["ls", "-m"], tmp_path).out
    assert m.splitlines()[0] == "file_1, file_10, file_11, file_12_longer_name, file_13, file_14,"
    for argv in (["ls", "-C"], ["ls", "-x"], ["ls", "-m"], ["ls", "-sC"], ["ls", "-CF"]):
        same_as_gnu(argv, tmp_path)


def test_ls_size_blocks_inode_and_owner_less_long_forms(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    out = run(["ls", "-s", "d"], root).out.splitlines()
    assert out[0].startswith("total ") and out[1].endswith(" f1.py")
    assert run(["ls", "-go", "a.txt"], root).out == "-rw-r--r-- 1 6 Sep 13  2020 a.txt\n"
    for argv in (["ls", "-s", "d"], ["ls", "-lo", "d"], ["ls", "-lg", "d"], ["ls", "-sC", "d"]):
        same_as_gnu(argv, root)


def test_ls_time_styles(tmp_path: Path) -> None:
    root = _mk(tmp_path)
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


def test_ls_quote_name_and_indicator_style(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    assert run(["ls", "-Q", "d"], root).out == '"f1.py"\n"f2.txt"\n"sub"\n'
    assert run(["ls", "--indicator-style=slash", "d"], root).out == "f1.py\nf2.txt\nsub/\n"
    assert run(["ls", "--indicator-style=file-type", "link"], root).out == "link@\n"
    for argv in (["ls", "-Q", "d"], ["ls", "--indicator-style=file-type"]):
        same_as_gnu(argv, root)


# -- du ----------------------------------------------------------------------------------

def test_du_counts_a_symlink_itself_not_its_target(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    r = run(["du", "dlink", "link", "dangling"], root)
    assert (r.code, r.out, r.err) == (0, "0\tdlink\n0\tlink\n0\tdangling\n", "")
    g = gnu(["du", "dlink", "link", "dangling"], root)
    if g is not None:
        assert (g[0], g[1]) == (r.code, r.out)
    assert run(["du", "-L", "-s", "dlink"], root).out == run(["du", "-s", "d"], root).out.replace(
        "\td", "\tdlink")


def test_du_counts_a_directory_given_twice_once(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    r = run(["du", "-s", ".", "d"], root)
    assert len(r.out.splitlines()) == 1 and r.out.endswith("\t.\n")
    g = gnu(["du", "-s", ".", "d"], root)
    if g is not None:
        assert g[1] == r.out


def test_du_separate_dirs_exclude_and_null(tmp_path: Path) -> None:
    root = _mk(tmp_path)
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
    g = gnu(["du", "-h", "--apparent-size", "f"], root)
    if g is not None:
        assert g[1] == r.out


# -- tree --------------------------------------------------------------------------------

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
        g = gnu(argv, mine)
        if g is not None:
            assert g[1].split("\n", 1)[1] == run(argv, mine).out.split("\n", 1)[1], argv


def test_tree_classify_and_no_indent(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    assert run(["tree", "-F", "d"], root).out == (
        "d/\n├── f1.py\n├── f2.txt\n└── sub/\n    └── g.py\n\n2 directories, 3 files\n")
    assert run(["tree", "-i", "d"], root).out == (
        "d\nf1.py\nf2.txt\nsub\ng.py\n\n2 directories, 3 files\n")
    for argv in (["tree", "-F", "d"], ["tree", "-i", "d"], ["tree", "-F", "."]):
        same_as_gnu(argv, root)


# -- touch rm chmod ----------------------------------------------------------------------

def test_touch_h_is_no_dereference_not_help(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    r = run(["touch", "-h", "a.txt"], root)
    assert (r.code, r.out, r.err) == (0, "", "")
    r = run(["touch", "-h", "newfile"], root)
    assert r.code == 1 and not (root / "newfile").exists()
    assert "setting times of 'newfile': No such file or directory" in r.err


def test_rm_refuses_a_symlink_to_a_directory_named_with_a_slash(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    r = run(["rm", "dlink/"], root)
    assert (r.code, r.err) == (1, "rm: cannot remove 'dlink/': Is a directory\n")
    r = run(["rm", "-r", "dlink/"], root)
    assert (r.code, r.err) == (1, "rm: cannot remove 'dlink/': Not a directory\n")
    assert run(["rm", "-rf", "dlink/"], root).code == 0
    assert os.path.islink(root / "dlink") and (root / "d" / "f1.py").exists()


def test_chmod_verbose_shows_symbolic_modes(tmp_path: Path) -> None:
    def build(root: Path) -> None:
        (root / "a").write_text("")
        os.chmod(root / "a", 0o644)
    both(tmp_path, build, ["chmod", "-v", "4755", "a"],
         "mode of 'a' changed from 0644 (rw-r--r--) to 4755 (rwsr-xr-x)\n")
    root = tmp_path / "t"
    assert run(["chmod", "-v", "4755", "a"], root).out == (
        "mode of 'a' retained as 4755 (rwsr-xr-x)\n")


@pytest.mark.parametrize("argv", [["ls", "-lL"], ["ls", "-R", "-I", "sub", "d"]])
def test_ls_new_options_never_crash(tmp_path: Path, argv: list[str]) -> None:
    root = _mk(tmp_path)
    r = run(argv, root)
    assert "Traceback" not in r.err and r.code in (0, 1)


# -- find predicates ---------------------------------------------------------------------

def test_find_lname_samefile_and_newermt(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    assert run(["find", ".", "-lname", "a*"], root).out == "./link\n"
    assert run(["find", ".", "-ilname", "A.TXT"], root).out == "./link\n"
    assert run(["find", ".", "-samefile", "a.txt"], root).out == "./a.txt\n"
    out = run(["find", "d", "-newermt", "2020-01-01", "-name", "*.py"], root).out
    assert sorted(out.splitlines()) == ["d/f1.py", "d/sub/g.py"]
    assert run(["find", "d", "-newermt", "2021-01-01", "-type", "f"], root).out == ""
    r = run(["find", "d", "-newermt", "bogus"], root)
    assert r.code == 1 and "bogus" in r.err
    for argv in (["find", ".", "-lname", "a*"], ["find", ".", "-samefile", "a.txt"],
                 ["find", "d", "-newermt", "2021-01-01", "-type", "f"]):
        same_as_gnu(argv, root)


def test_find_fprint_writes_the_file_and_suppresses_print(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    r = run(["find", "d", "-name", "f1.py", "-fprint", "out.txt"], root)
    assert (r.code, r.out) == (0, "")
    assert (root / "out.txt").read_text() == "d/f1.py\n"
    r = run(["find", "d", "-name", "f1.py", "-fprintf", "o2", "%f|%s\n"], root)
    assert (r.out, (root / "o2").read_text()) == ("", "f1.py|3\n")
    run(["find", "d", "-name", "none", "-fprint", "o3"], root)
    assert (root / "o3").read_text() == ""


def test_find_anewer_compares_access_time(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    os.utime(root / "d" / "f1.py", (OLD + 100, OLD - 100))  # read after a.txt changed
    out = run(["find", "d", "-anewer", "a.txt", "-type", "f"], root).out
    assert out == "d/f1.py\n"
    same_as_gnu(["find", "d", "-anewer", "a.txt", "-type", "f"], root)


# -- realpath ----------------------------------------------------------------------------

def test_realpath_resolves_link_dotdot_physically_by_default(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    os.symlink("d/sub", root / "sl")
    real = os.path.realpath(root)
    assert run(["realpath", "sl/.."], root).out == real + "/d\n"
    assert run(["realpath", "-L", "sl/.."], root).out == real + "\n"
    assert run(["realpath", "-s", "sl/.."], root).out == real + "\n"
    for argv in (["realpath", "sl/.."], ["realpath", "-L", "sl/.."]):
        same_as_gnu(argv, root)


def test_realpath_relative_base(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    r = run(["realpath", "--relative-base=.", "d/f1.py", "/"], root)
    assert r.out == "d/f1.py\n/\n"
    r = run(["realpath", "--relative-to=d", "--relative-base=.", "d/sub", "a.txt", "/"], root)
    assert r.out == "sub\n../a.txt\n/\n"
    same_as_gnu(["realpath", "--relative-to=d", "--relative-base=.", "d/sub", "a.txt", "/"],
                root)


# -- cp mv -------------------------------------------------------------------------------

def test_cp_of_a_dangling_link_fails_like_gnu(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    r = run(["cp", "dangling", "x"], root)
    assert (r.code, r.err) == (1, "cp: cannot stat 'dangling': No such file or directory\n")
    assert not os.path.lexists(root / "x")
    assert run(["cp", "-P", "dangling", "y"], root).code == 0
    assert os.readlink(root / "y") == "nowhere"


def test_cp_link_and_symbolic_link_options(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    assert run(["cp", "-l", "a.txt", "hard"], root).code == 0
    assert os.stat(root / "a.txt").st_nlink == 2
    assert run(["cp", "-s", "a.txt", "sym"], root).code == 0
    assert os.readlink(root / "sym") == "a.txt"
    r = run(["cp", "-s", "a.txt", "d/"], root)
    assert (r.code, r.err) == (1, "cp: d/a.txt: can make relative symbolic links only in "
                                  "current directory\n")
    r = run(["cp", "-d", "link", "copy"], root)
    assert r.code == 0 and os.readlink(root / "copy") == "a.txt"


def test_mv_refuses_a_symlink_named_with_a_trailing_slash(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    r = run(["mv", "dlink/", "x"], root)
    assert (r.code, r.err) == (1, "mv: cannot move 'dlink/' to 'x': Not a directory\n")
    assert os.path.islink(root / "dlink") and not os.path.lexists(root / "x")


def test_find_regex_defaults_to_emacs_syntax_and_honours_regextype(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    cases = [
        (["find", "d", "-regex", r".*\.\(py\|txt\)"], ["d/f1.py", "d/f2.txt", "d/sub/g.py"]),
        (["find", "d", "-regex", r".*\.(py|txt)"], []),  # emacs: bare parens are literal
        (["find", "d", "-regex", r".*/f[0-9]+\.py"], ["d/f1.py"]),
        (["find", "d", "-regextype", "posix-extended", "-regex", r".*/f[0-9]\.(py|txt)"],
         ["d/f1.py", "d/f2.txt"]),
        (["find", "d", "-regextype", "posix-basic", "-regex", r".*/f[0-9]\{1\}\.py"],
         ["d/f1.py"]),
    ]
    for argv, expected in cases:
        r = run(argv, root)
        assert sorted(r.out.splitlines()) == expected, argv
        g = gnu(argv, root)
        if g is not None:
            assert sorted(g[1].splitlines()) == expected, argv
    r = run(["find", "d", "-regextype", "bogus", "-regex", "x"], root)
    assert r.code == 1 and "Unknown regular expression type 'bogus'" in r.err


def test_find_xtype_looks_through_links(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    assert run(["find", ".", "-xtype", "l"], root).out == "./dangling\n"
    assert run(["find", ".", "-type", "l", "-xtype", "d"], root).out == "./dlink\n"
    assert run(["find", ".", "-type", "l", "-xtype", "f"], root).out == "./link\n"
    for argv in (["find", ".", "-xtype", "l"], ["find", ".", "-type", "l", "-xtype", "d"]):
        same_as_gnu(argv, root)


def test_find_size_with_a_bad_unit_names_the_unit(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    r = run(["find", "d", "-size", "2x"], root)
    assert (r.code, r.err) == (1, "find: invalid -size type `x'\n")


# -- mkdir -------------------------------------------------------------------------------

def test_mkdir_p_walks_the_path_as_written(tmp_path: Path) -> None:
    r = run(["mkdir", "-pv", "x/../y", "./p/./q", "s//t/"], tmp_path)
    assert r.out == (
        "mkdir: created directory 'x'\nmkdir: created directory 'x/../y'\n"
        "mkdir: created directory './p'\nmkdir: created directory './p/./q'\n"
        "mkdir: created directory 's'\nmkdir: created directory 's//t/'\n")
    assert (tmp_path / "x").is_dir() and (tmp_path / "y").is_dir()
    g_root = tmp_path / "g"
    g_root.mkdir()
    g = gnu(["mkdir", "-pv", "x/../y", "./p/./q", "s//t/"], g_root)
    if g is not None:
        assert g[1] == r.out


def test_mkdir_empty_name_fails(tmp_path: Path) -> None:
    for argv in (["mkdir", ""], ["mkdir", "-p", ""]):
        r = run(argv, tmp_path)
        assert (r.code, r.err) == (1, "mkdir: cannot create directory '': No such file or "
                                      "directory\n")


def test_mkdir_p_through_a_file_is_not_a_directory(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("")
    r = run(["mkdir", "-p", "f/../r"], tmp_path)
    assert (r.code, r.err) == (1, "mkdir: cannot create directory 'f': Not a directory\n")


# -- ls, more ----------------------------------------------------------------------------

def test_ls_long_size_option_is_allocated_size_like_gnu(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    assert run(["ls", "--size", "d"], root).out == run(["ls", "-s", "d"], root).out
    same_as_gnu(["ls", "--size", "d"], root)


def test_ls_columns_count_display_width(tmp_path: Path) -> None:
    for name in ("日本語", "é", "abc", "new\nline", "sp ace"):
        (tmp_path / name).write_text("")
    out = run(["ls", "-C"], tmp_path).out
    assert out == "abc  new\nline  sp ace  é  日本語\n"
    same_as_gnu(["ls", "-C"], tmp_path)


# -- tree, more --------------------------------------------------------------------------

def test_tree_pattern_prune_charset_and_sort_options(tmp_path: Path) -> None:
    root = _mk(tmp_path)
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


def test_ls_n_alone_is_a_numeric_long_listing(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    out = run(["ls", "-n", "a.txt"], root).out
    uid, gid = os.getuid(), os.getgid()
    assert out == f"-rw-r--r-- 1 {uid} {gid} 6 Sep 13  2020 a.txt\n"
    same_as_gnu(["ls", "-n", "a.txt"], root)


def test_ls_long_file_operands_share_widths_with_directory_operands(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    first = run(["ls", "-l", "a.txt", "d"], root).out.splitlines()[0]
    width = len(str(os.stat(root / "d").st_size))  # 6 is padded to the width of d's size
    assert first.endswith(" " + "6".rjust(width) + " Sep 13  2020 a.txt")
    for argv in (["ls", "-l", "a.txt", "d"], ["ls", "-ls", "a.txt", "d"]):
        same_as_gnu(argv, root)


def test_ls_quote_name_quotes_directory_headers(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    assert run(["ls", "-Q", "a.txt", "d"], root).out == (
        '"a.txt"\n\n"d":\n"f1.py"\n"f2.txt"\n"sub"\n')
    same_as_gnu(["ls", "-Q", "a.txt", "d"], root)


def test_ls_long_classify_marks_the_link_target(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    out = run(["ls", "-lF", "dlink", "dangling"], root).out.splitlines()
    assert out[0].endswith(" dangling -> nowhere") and out[1].endswith(" dlink -> d/")
    assert run(["ls", "-lp", "dlink"], root).out.endswith(" dlink -> d\n")
    for argv in (["ls", "-lF", "dlink", "dangling"], ["ls", "-lp", "dlink"]):
        same_as_gnu(argv, root)


def test_ls_L_reports_a_dangling_link_only_when_it_needs_its_data(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    r = run(["ls", "-L"], root)
    assert (r.code, r.err) == (0, "")
    r = run(["ls", "-L", "-t"], root)
    assert (r.code, r.err) == (1, "ls: cannot access 'dangling': No such file or directory\n")
    assert r.out.splitlines()[-1] == "dangling"
    for argv in (["ls", "-L"], ["ls", "-Lt"]):
        same_as_gnu(argv, root)


# -- stat --------------------------------------------------------------------------------

def test_stat_format_flags_precision_and_unknown_directives(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    os.utime(root / "a.txt", (OLD, OLD))
    argv = ["stat", "-c", "%+05s|%-+4s|%#a|%.3Y|%.0Y|%q|%05a", "a.txt"]
    r = run(argv, root)
    assert r.out == f"+0006|+6  |0644|{OLD}.000|{OLD}|?|00644\n"
    same_as_gnu(argv, root)


def test_du_L_counts_a_file_reached_through_a_link_once(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    os.remove(root / "dangling")
    once = run(["du", "-s", "."], root).out
    assert run(["du", "-L", "-s", "."], root).out == once
    same_as_gnu(["du", "-L", "-s", "."], root)


def test_du_s_with_max_depth_0_warns(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    r = run(["du", "-s", "-d", "0", "d"], root)
    assert r.code == 0 and r.err == "du: warning: summarizing is the same as using " \
        "--max-depth=0\n"


# -- touch dates -------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["Jan 2 2020", "2 Jan 2020", "01/02/2020", "2020/01/02"])
def test_touch_d_reads_gnu_date_forms(tmp_path: Path, text: str) -> None:
    (tmp_path / "f").write_text("")
    r = run(["touch", "-d", text, "f"], tmp_path)
    assert (r.code, r.err) == (0, "")
    assert os.stat(tmp_path / "f").st_mtime == 1577923200  # 2020-01-02 00:00 UTC


def test_touch_d_relative_items_and_time_option(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("")
    for text in ("-1 day", "+2 hours", "next monday", "yesterday 12:00", "last week"):
        assert run(["touch", "-d", text, "f"], tmp_path).code == 0, text
    assert run(["touch", "--time=mtime", "-d", "@5", "f"], tmp_path).code == 0
    assert os.stat(tmp_path / "f").st_mtime == 5


def test_find_newermt_reads_gnu_date_forms(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    out = run(["find", "d", "-newermt", "Sep 12 2020", "-name", "f1.py"], root).out
    assert out == "d/f1.py\n"
    same_as_gnu(["find", "d", "-newermt", "Sep 12 2020", "-name", "f1.py"], root)


# -- symlink loops -----------------------------------------------------------------------

def test_ls_RL_stops_at_a_link_back_to_an_ancestor(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    os.symlink("..", tmp_path / "a" / "b" / "up")
    r = run(["ls", "-RL", "a"], tmp_path)
    assert (r.code, r.out) == (2, "a:\nb\n\na/b:\nup\n")
    assert r.err == "ls: a/b/up: not listing already-listed directory\n"
    same_as_gnu(["ls", "-RL", "a"], tmp_path)


def test_realpath_reports_a_symlink_loop(tmp_path: Path) -> None:
    os.symlink("loop2", tmp_path / "loop1")
    os.symlink("loop1", tmp_path / "loop2")
    for argv in (["realpath", "loop1"], ["realpath", "-e", "loop1"]):
        r = run(argv, tmp_path)
        assert (r.code, r.out) == (1, ""), argv
        assert r.err == "realpath: loop1: Too many levels of symbolic links\n"
        same_as_gnu(argv, tmp_path)
    assert run(["realpath", "-m", "loop1"], tmp_path).code == 0


def test_find_L_reports_loops_without_listing_the_looping_entry(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    os.symlink("..", tmp_path / "a" / "b" / "up")
    os.symlink("l2", tmp_path / "l1")
    os.symlink("l1", tmp_path / "l2")
    r = run(["find", "-L", "a"], tmp_path)
    assert (r.code, r.out) == (1, "a\na/b\n")
    assert r.err == ("find: File system loop detected; 'a/b/up' is part of the same file "
                     "system loop as 'a'.\n")
    r = run(["find", "-L", ".", "-name", "l*"], tmp_path)
    assert (r.code, r.out) == (1, "")
    assert "'./l1': Too many levels of symbolic links" in r.err
    g = gnu(["find", "-L", "a"], tmp_path)
    if g is not None:
        assert (g[0], g[1]) == (1, "a\na/b\n")


# -- -i prompts --------------------------------------------------------------------------

def test_cp_and_mv_i_ask_before_overwriting(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("a\n")
    (tmp_path / "z").write_text("z\n")
    r = run(["cp", "-i", "a", "z"], tmp_path, stdin=b"n\n")
    assert (r.code, r.err, (tmp_path / "z").read_text()) == (0, "cp: overwrite 'z'? ", "z\n")
    r = run(["mv", "-i", "a", "z"], tmp_path, stdin=b"n\n")
    assert (r.code, r.err, (tmp_path / "a").exists()) == (0, "mv: overwrite 'z'? ", True)
    r = run(["cp", "-i", "a", "z"], tmp_path, stdin=b"y\n")
    assert (r.code, (tmp_path / "z").read_text()) == (0, "a\n")
    r = run(["cp", "-i", "a", "new"], tmp_path)
    assert (r.code, r.err, (tmp_path / "new").read_text()) == (0, "", "a\n")


def test_rm_ri_asks_before_descending(tmp_path: Path) -> None:
    root = _mk(tmp_path)
    r = run(["rm", "-ri", "d"], root, stdin=b"n\n")
    assert (r.code, r.err) == (0, "rm: descend into directory 'd'? ")
    assert (root / "d" / "f1.py").exists()
