"""The file builtins: ls glob mkdir rm rmdir cp mv touch stat basename dirname realpath ln
chmod, run through the binder against a temporary folder."""

from __future__ import annotations

import os
import stat as stat_mod
from pathlib import Path

import pytest
from harness import make_tree
from harness_files_json import run

from tysh.builtins import get_builtin
from tysh.builtins._common.fileinfo import human_size, mode_string
from tysh.builtins.files.chmod import parse_mode


def make(root: Path, *names: str) -> None:
    """Create files (`a/b.txt`) and folders (`d/`) under root."""
    make_tree(root, *names, content=lambda n: n.split("/")[-1] + "\n")


# -- ls ----------------------------------------------------------------------------------

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


def test_human_size_rounds_up_like_gnu() -> None:
    assert [human_size(n) for n in (0, 1023, 1024, 1536, 1537, 10240, 1 << 20)] == [
        "0", "1023", "1.0K", "1.5K", "1.6K", "10K", "1.0M"]


def test_mode_string_covers_special_bits() -> None:
    assert mode_string(stat_mod.S_IFREG | 0o4755) == "-rwsr-xr-x"
    assert mode_string(stat_mod.S_IFDIR | 0o1777) == "drwxrwxrwt"


# -- glob --------------------------------------------------------------------------------

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


def test_glob_json_is_a_list_of_paths(tmp_path: Path) -> None:
    make(tmp_path, "d/a", "d/b")
    assert run(["glob", "--json", "d/*"], tmp_path).json() == ["d/a", "d/b"]


def test_glob_declares_glob_passthrough() -> None:
    tool = get_builtin("glob")
    assert tool is not None and tool.schema.glob_passthrough


# -- mkdir / rmdir -----------------------------------------------------------------------

def test_mkdir_p_creates_parents_and_tolerates_existing(tmp_path: Path) -> None:
    assert run(["mkdir", "-p", "x/y/z"], tmp_path).code == 0
    assert (tmp_path / "x/y/z").is_dir()
    r = run(["mkdir", "-p", "x/y"], tmp_path)
    assert (r.code, r.err) == (0, "")


def test_mkdir_existing_or_missing_parent_is_an_error(tmp_path: Path) -> None:
    make(tmp_path, "proj/")
    r = run(["mkdir", "proj"], tmp_path)
    assert r.code == 1 and "cannot create directory 'proj': File exists" in r.err
    r = run(["mkdir", "a/b"], tmp_path)
    assert r.code == 1 and "'a/b'" in r.err


def test_mkdir_v_reports_each_created_directory_and_m_sets_mode(tmp_path: Path) -> None:
    r = run(["mkdir", "-pv", "-m", "700", "p/q"], tmp_path)
    assert r.out == "mkdir: created directory 'p'\nmkdir: created directory 'p/q'\n"
    assert (tmp_path / "p/q").stat().st_mode & 0o777 == 0o700


def test_rmdir_removes_empty_and_refuses_non_empty(tmp_path: Path) -> None:
    make(tmp_path, "e/", "full/x")
    assert run(["rmdir", "e"], tmp_path).code == 0
    r = run(["rmdir", "full"], tmp_path)
    assert r.code == 1 and "failed to remove 'full'" in r.err


def test_rmdir_p_removes_the_chain(tmp_path: Path) -> None:
    make(tmp_path, "a/b/c/")
    assert run(["rmdir", "-p", "a/b/c"], tmp_path).code == 0
    assert not (tmp_path / "a").exists()


# -- rm ----------------------------------------------------------------------------------

def test_rm_removes_files_and_reports_missing_ones(tmp_path: Path) -> None:
    make(tmp_path, "a.txt")
    r = run(["rm", "nosuch.txt", "a.txt"], tmp_path)
    assert r.code == 1 and "cannot remove 'nosuch.txt'" in r.err
    assert not (tmp_path / "a.txt").exists()


def test_rm_f_is_silent_about_missing_files(tmp_path: Path) -> None:
    r = run(["rm", "-f", "nosuch"], tmp_path)
    assert (r.code, r.err) == (0, "")


def test_rm_directory_needs_r_and_d_removes_only_empty(tmp_path: Path) -> None:
    make(tmp_path, "adir/x", "empty/")
    r = run(["rm", "adir"], tmp_path)
    assert r.code == 1 and "Is a directory" in r.err
    assert run(["rm", "-d", "empty"], tmp_path).code == 0
    assert run(["rm", "-d", "adir"], tmp_path).code == 1
    assert run(["rm", "-r", "adir"], tmp_path).code == 0
    assert not (tmp_path / "adir").exists()


def test_rm_refuses_dot_dotdot_and_root(tmp_path: Path) -> None:
    make(tmp_path, "keep.txt")
    r = run(["rm", "-rf", ".", ".."], tmp_path)
    assert r.code == 1 and "refusing to remove '.' or '..'" in r.err
    r = run(["rm", "-rf", "/"], tmp_path)
    assert r.code == 1 and "dangerous" in r.err
    assert (tmp_path / "keep.txt").exists()


def test_rm_does_not_follow_symlinked_directories(tmp_path: Path) -> None:
    make(tmp_path, "target/precious", "d/")
    os.symlink(tmp_path / "target", tmp_path / "d/link")
    assert run(["rm", "-r", "d"], tmp_path).code == 0
    assert (tmp_path / "target/precious").exists()


def test_rm_double_dash_removes_a_dash_named_file(tmp_path: Path) -> None:
    (tmp_path / "-f").write_text("")
    assert run(["rm", "--", "-f"], tmp_path).code == 0
    assert not (tmp_path / "-f").exists()


def test_rm_v_reports_removals(tmp_path: Path) -> None:
    make(tmp_path, "d/x")
    assert run(["rm", "-rv", "d"], tmp_path).out == "removed 'd/x'\nremoved directory 'd'\n"


# -- cp / mv -----------------------------------------------------------------------------

def test_cp_copies_and_overwrites(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("new\n")
    (tmp_path / "b").write_text("old content\n")
    assert run(["cp", "a", "b"], tmp_path).code == 0
    assert (tmp_path / "b").read_text() == "new\n"


def test_cp_many_sources_into_a_directory(tmp_path: Path) -> None:
    make(tmp_path, "a.txt", "b.txt", "d/")
    assert run(["cp", "a.txt", "b.txt", "d"], tmp_path).code == 0
    assert sorted(os.listdir(tmp_path / "d")) == ["a.txt", "b.txt"]


def test_cp_many_sources_to_a_non_directory_is_an_error(tmp_path: Path) -> None:
    make(tmp_path, "a", "b", "c")
    r = run(["cp", "a", "b", "c"], tmp_path)
    assert r.code == 1 and "target 'c' is not a directory" in r.err
    r = run(["cp", "a", "b", "nosuch"], tmp_path)
    assert r.code == 1 and "target 'nosuch': No such file or directory" in r.err


def test_cp_directory_needs_r_and_r_copies_trees(tmp_path: Path) -> None:
    make(tmp_path, "src/x", "src/sub/y")
    r = run(["cp", "src", "dst"], tmp_path)
    assert r.code == 1 and "omitting directory 'src'" in r.err
    assert run(["cp", "-r", "src", "dst"], tmp_path).code == 0
    assert (tmp_path / "dst/sub/y").read_text() == "y\n"
    assert run(["cp", "-r", "src", "dst"], tmp_path).code == 0
    assert (tmp_path / "dst/src/x").exists()


def test_cp_refuses_copying_a_directory_into_itself(tmp_path: Path) -> None:
    make(tmp_path, "a/x")
    r = run(["cp", "-r", "a", "a/b"], tmp_path)
    assert r.code == 1 and "into itself" in r.err


def test_cp_missing_source_and_missing_destination(tmp_path: Path) -> None:
    r = run(["cp", "nosuch.txt", "b.txt"], tmp_path)
    assert r.code == 1 and "cannot stat 'nosuch.txt'" in r.err
    make(tmp_path, "a")
    r = run(["cp", "a"], tmp_path)
    assert r.code == 1 and "missing destination file operand after 'a'" in r.err


def test_cp_n_keeps_existing_and_p_keeps_mode_and_time(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("A")
    (tmp_path / "b").write_text("B")
    run(["cp", "-n", "a", "b"], tmp_path)
    assert (tmp_path / "b").read_text() == "B"
    os.chmod(tmp_path / "a", 0o751)
    os.utime(tmp_path / "a", (1000, 1000))
    run(["cp", "-p", "a", "c"], tmp_path)
    st = (tmp_path / "c").stat()
    assert (st.st_mode & 0o777, int(st.st_mtime)) == (0o751, 1000)


def test_cp_new_copy_keeps_executable_bit(tmp_path: Path) -> None:
    (tmp_path / "run.sh").write_text("x")
    os.chmod(tmp_path / "run.sh", 0o755)
    run(["cp", "run.sh", "copy.sh"], tmp_path)
    assert (tmp_path / "copy.sh").stat().st_mode & 0o111


def test_cp_t_names_the_target_directory(tmp_path: Path) -> None:
    make(tmp_path, "a", "b", "d/")
    assert run(["cp", "-t", "d", "a", "b"], tmp_path).code == 0
    assert sorted(os.listdir(tmp_path / "d")) == ["a", "b"]


def test_mv_renames_moves_into_directories_and_overwrites(tmp_path: Path) -> None:
    make(tmp_path, "a.txt", "b.txt", "c.txt", "d/")
    assert run(["mv", "a.txt", "x.txt"], tmp_path).code == 0
    assert run(["mv", "x.txt", "b.txt", "d"], tmp_path).code == 0
    assert sorted(os.listdir(tmp_path / "d")) == ["b.txt", "x.txt"]
    (tmp_path / "new").write_text("new")
    run(["mv", "new", "c.txt"], tmp_path)
    assert (tmp_path / "c.txt").read_text() == "new"


def test_mv_missing_source_and_subdirectory_of_itself(tmp_path: Path) -> None:
    make(tmp_path, "a/x")
    r = run(["mv", "nosuch", "a"], tmp_path)
    assert r.code == 1 and "cannot stat 'nosuch'" in r.err
    r = run(["mv", "a", "a/b"], tmp_path)
    assert r.code == 1 and "subdirectory of itself" in r.err


def test_mv_n_does_not_overwrite(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("A")
    (tmp_path / "b").write_text("B")
    run(["mv", "-n", "a", "b"], tmp_path)
    assert (tmp_path / "b").read_text() == "B" and (tmp_path / "a").exists()


# -- touch -------------------------------------------------------------------------------

def test_touch_creates_keeps_content_and_c_does_not_create(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("keep")
    assert run(["touch", "a", "new"], tmp_path).code == 0
    assert (tmp_path / "a").read_text() == "keep" and (tmp_path / "new").exists()
    assert run(["touch", "-c", "ghost"], tmp_path).code == 0
    assert not (tmp_path / "ghost").exists()


def test_touch_d_and_t_set_the_time_in_the_session_zone(tmp_path: Path) -> None:
    run(["touch", "-d", "2024-01-31 12:00:00", "a"], tmp_path)
    assert (tmp_path / "a").stat().st_mtime == 1706702400
    run(["touch", "-t", "202401311200.30", "b"], tmp_path)
    assert (tmp_path / "b").stat().st_mtime == 1706702430
    run(["touch", "-d", "@1000", "c"], tmp_path)
    assert (tmp_path / "c").stat().st_mtime == 1000


def test_touch_bad_date_and_missing_folder_are_errors(tmp_path: Path) -> None:
    r = run(["touch", "-d", "not a date", "a"], tmp_path)
    assert r.code == 1 and "invalid date format" in r.err
    r = run(["touch", "no/dir/f"], tmp_path)
    assert r.code == 1 and "cannot touch 'no/dir/f'" in r.err


# -- stat / basename / dirname / realpath ------------------------------------------------

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


def test_stat_json_is_an_object_and_missing_file_fails(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("xy")
    data = run(["stat", "--json", "a"], tmp_path).json()
    assert data["size"] == 2 and data["type"] == "regular file" and data["name"] == "a"
    r = run(["stat", "nosuch"], tmp_path)
    assert r.code == 1 and "nosuch" in r.err


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


# -- ln / chmod --------------------------------------------------------------------------

def test_ln_s_makes_symlinks_and_refuses_existing_without_f(tmp_path: Path) -> None:
    make(tmp_path, "a", "b")
    assert run(["ln", "-s", "a", "l"], tmp_path).code == 0
    assert os.readlink(tmp_path / "l") == "a"
    r = run(["ln", "-s", "b", "l"], tmp_path)
    assert r.code == 1 and "File exists" in r.err
    assert run(["ln", "-sf", "b", "l"], tmp_path).code == 0
    assert os.readlink(tmp_path / "l") == "b"


def test_ln_without_s_makes_a_hard_link(tmp_path: Path) -> None:
    make(tmp_path, "a")
    assert run(["ln", "a", "h"], tmp_path).code == 0
    assert (tmp_path / "h").stat().st_ino == (tmp_path / "a").stat().st_ino


def test_ln_into_a_directory_uses_the_target_name(tmp_path: Path) -> None:
    make(tmp_path, "a", "d/")
    assert run(["ln", "-s", "../a", "d"], tmp_path).code == 0
    assert os.readlink(tmp_path / "d/a") == "../a"


def test_chmod_octal_and_symbolic_modes(tmp_path: Path) -> None:
    make(tmp_path, "f")
    os.chmod(tmp_path / "f", 0o644)
    run(["chmod", "u+x,g-r", "f"], tmp_path)
    assert (tmp_path / "f").stat().st_mode & 0o777 == 0o704
    run(["chmod", "600", "f"], tmp_path)
    assert (tmp_path / "f").stat().st_mode & 0o777 == 0o600


def test_chmod_dash_x_is_a_mode_not_an_option(tmp_path: Path) -> None:
    make(tmp_path, "f")
    os.chmod(tmp_path / "f", 0o755)
    assert run(["chmod", "-x", "f"], tmp_path).code == 0
    assert (tmp_path / "f").stat().st_mode & 0o777 == 0o644


def test_chmod_R_recurses_and_missing_file_fails(tmp_path: Path) -> None:
    make(tmp_path, "d/x", "d/sub/y")
    run(["chmod", "-R", "go-rwx", "d"], tmp_path)
    assert (tmp_path / "d/sub/y").stat().st_mode & 0o077 == 0
    r = run(["chmod", "644", "nosuch"], tmp_path)
    assert r.code == 1 and "cannot access 'nosuch'" in r.err


@pytest.mark.parametrize(("spec", "cur", "is_dir", "want"), [
    ("+x", 0o644, False, 0o755),
    ("a=r", 0o777, False, 0o444),
    ("u=rw,go=", 0o777, False, 0o600),
    ("+X", 0o644, True, 0o755),
    ("+X", 0o644, False, 0o644),
    ("g=u", 0o750, False, 0o770),
    ("o+t", 0o777, True, 0o1777),
    ("+w", 0o444, False, 0o644),
])
def test_parse_mode_symbolic(spec: str, cur: int, is_dir: bool, want: int) -> None:
    assert parse_mode(spec, cur, is_dir) == want


def test_every_file_tool_declares_its_effects() -> None:
    ops = {n: get_builtin(n).schema.operations for n in  # type: ignore[union-attr]
           ("rm", "mv", "cp", "touch", "mkdir", "ln", "chmod", "find", "ls", "stat")}
    assert "fs.remove" in ops["rm"] and "fs.rename" in ops["mv"]
    assert {"fs.create", "fs.overwrite"} <= set(ops["cp"])
    assert "fs.create" in ops["touch"] and "fs.create" in ops["mkdir"]
    assert "proc.exec" in ops["find"]
    assert ops["ls"] == () and ops["stat"] == ()


def test_ls_digit_bundle_like_dash_1a_is_read_as_options(tmp_path: Path) -> None:
    make(tmp_path, ".h", "v")
    assert run(["ls", "-1a"], tmp_path).out == ".\n..\n.h\nv\n"
