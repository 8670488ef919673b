"""The tools that change the tree: mkdir rmdir rm cp mv touch ln, run through the binder
against a temporary folder; the pins on symlinks, prompts and error messages also
against GNU coreutils when the host has it. Pins that are a command line and its
output are tests/conformance/pins/tools/{mkdir,touch}.cases."""

from __future__ import annotations

import os
from pathlib import Path

from harness import make_tree
from harness_files_json import run, symlink_tree_in


def make(root: Path, *names: str) -> None:
    """Create files (`a/b.txt`) and folders (`d/`) under root."""
    make_tree(root, *names, content=lambda n: n.split("/")[-1] + "\n")


# -- mkdir / rmdir ----------------------------------------------------------------------

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


def test_mkdir_empty_name_fails(tmp_path: Path) -> None:
    for argv in (["mkdir", ""], ["mkdir", "-p", ""]):
        r = run(argv, tmp_path)
        assert (r.code, r.err) == (1, "mkdir: cannot create directory '': No such file or "
                                      "directory\n")


def test_mkdir_p_through_a_file_is_not_a_directory(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("")
    r = run(["mkdir", "-p", "f/../r"], tmp_path)
    assert (r.code, r.err) == (1, "mkdir: cannot create directory 'f': Not a directory\n")


def test_rmdir_removes_empty_and_refuses_non_empty(tmp_path: Path) -> None:
    make(tmp_path, "e/", "full/x")
    assert run(["rmdir", "e"], tmp_path).code == 0
    r = run(["rmdir", "full"], tmp_path)
    assert r.code == 1 and "failed to remove 'full'" in r.err


def test_rmdir_p_removes_the_chain(tmp_path: Path) -> None:
    make(tmp_path, "a/b/c/")
    assert run(["rmdir", "-p", "a/b/c"], tmp_path).code == 0
    assert not (tmp_path / "a").exists()


# -- rm ---------------------------------------------------------------------------------

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


def test_rm_refuses_a_symlink_to_a_directory_named_with_a_slash(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    r = run(["rm", "dlink/"], root)
    assert (r.code, r.err) == (1, "rm: cannot remove 'dlink/': Is a directory\n")
    r = run(["rm", "-r", "dlink/"], root)
    assert (r.code, r.err) == (1, "rm: cannot remove 'dlink/': Not a directory\n")
    assert run(["rm", "-rf", "dlink/"], root).code == 0
    assert os.path.islink(root / "dlink") and (root / "d" / "f1.py").exists()


def test_rm_ri_asks_before_descending(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    r = run(["rm", "-ri", "d"], root, stdin=b"n\n")
    assert (r.code, r.err) == (0, "rm: descend into directory 'd'? ")
    assert (root / "d" / "f1.py").exists()


# -- cp / mv ----------------------------------------------------------------------------

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


def test_cp_of_a_dangling_link_fails_like_gnu(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    r = run(["cp", "dangling", "x"], root)
    assert (r.code, r.err) == (1, "cp: cannot stat 'dangling': No such file or directory\n")
    assert not os.path.lexists(root / "x")
    assert run(["cp", "-P", "dangling", "y"], root).code == 0
    assert os.readlink(root / "y") == "nowhere"


def test_cp_link_and_symbolic_link_options(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    assert run(["cp", "-l", "a.txt", "hard"], root).code == 0
    assert os.stat(root / "a.txt").st_nlink == 2
    assert run(["cp", "-s", "a.txt", "sym"], root).code == 0
    assert os.readlink(root / "sym") == "a.txt"
    r = run(["cp", "-s", "a.txt", "d/"], root)
    assert (r.code, r.err) == (1, "cp: d/a.txt: can make relative symbolic links only in "
                                  "current directory\n")
    r = run(["cp", "-d", "link", "copy"], root)
    assert r.code == 0 and os.readlink(root / "copy") == "a.txt"


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


def test_mv_refuses_a_symlink_named_with_a_trailing_slash(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    r = run(["mv", "dlink/", "x"], root)
    assert (r.code, r.err) == (1, "mv: cannot move 'dlink/' to 'x': Not a directory\n")
    assert os.path.islink(root / "dlink") and not os.path.lexists(root / "x")


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


# -- touch ------------------------------------------------------------------------------

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


def test_touch_h_is_no_dereference_not_help(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    r = run(["touch", "-h", "a.txt"], root)
    assert (r.code, r.out, r.err) == (0, "", "")
    r = run(["touch", "-h", "newfile"], root)
    assert r.code == 1 and not (root / "newfile").exists()
    assert "setting times of 'newfile': No such file or directory" in r.err


# -- ln ---------------------------------------------------------------------------------

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
