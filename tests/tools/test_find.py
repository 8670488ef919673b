"""find: its expression grammar (find_expr) and the walk, through the builtin; the pins
on symlinks, times and error messages, against GNU find when the host has it. Pins
that need none of those are tests/conformance/pins/tools/find.cases."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import reference
from harness import make_tree as tree
from harness_files_json import OLD, FakeShell, run, same_as_gnu, symlink_tree, symlink_tree_in

from tysh.builtins import get_builtin

# -- the expression grammar and the walk ------------------------------------------------

def lines(tmp_path: Path, *argv: str) -> list[str]:
    r = run(["find", *argv], tmp_path)
    assert r.code == 0, r.err
    return r.out.splitlines()


def test_find_without_expression_prints_everything_in_sorted_walk_order(tmp_path: Path) -> None:
    tree(tmp_path, "README.md", "src/main.py", "src/util.py", "empty/")
    assert lines(tmp_path, ".") == [
        ".", "./README.md", "./empty", "./src", "./src/main.py", "./src/util.py"]


def test_find_defaults_to_the_current_directory(tmp_path: Path) -> None:
    tree(tmp_path, "a")
    assert lines(tmp_path) == [".", "./a"]


def test_name_matches_the_base_name_and_iname_ignores_case(tmp_path: Path) -> None:
    tree(tmp_path, "a.TXT", "b.txt", "d/c.txt")
    assert lines(tmp_path, ".", "-name", "*.txt") == ["./b.txt", "./d/c.txt"]
    assert lines(tmp_path, ".", "-iname", "*.txt") == ["./a.TXT", "./b.txt", "./d/c.txt"]


def test_name_star_matches_hidden_names_and_dot_itself(tmp_path: Path) -> None:
    tree(tmp_path, ".env", "v.txt")
    assert lines(tmp_path, ".", "-name", ".*") == [".", "./.env"]


def test_type_selects_files_directories_and_lists(tmp_path: Path) -> None:
    tree(tmp_path, "d/f")
    os.symlink("d", tmp_path / "l")
    assert lines(tmp_path, ".", "-type", "d") == [".", "./d"]
    assert lines(tmp_path, ".", "-type", "l") == ["./l"]
    assert lines(tmp_path, ".", "-type", "f,l") == ["./d/f", "./l"]


def test_maxdepth_and_mindepth_bound_the_walk(tmp_path: Path) -> None:
    tree(tmp_path, "top", "a/mid", "a/b/deep")
    assert lines(tmp_path, ".", "-maxdepth", "1") == [".", "./a", "./top"]
    assert lines(tmp_path, ".", "-mindepth", "2", "-type", "f") == ["./a/b/deep", "./a/mid"]


def test_path_pattern_star_crosses_slashes(tmp_path: Path) -> None:
    tree(tmp_path, "src/a.py", "src/sub/b.py", "test/c.py")
    assert lines(tmp_path, ".", "-path", "./src/*") == ["./src/a.py", "./src/sub", "./src/sub/b.py"]


def test_not_and_bang_negate(tmp_path: Path) -> None:
    tree(tmp_path, "a.md", "b.txt")
    assert lines(tmp_path, ".", "-type", "f", "-not", "-name", "*.txt") == ["./a.md"]
    assert lines(tmp_path, ".", "-type", "f", "!", "-name", "*.md") == ["./b.txt"]


def test_and_binds_tighter_than_or_and_parentheses_group(tmp_path: Path) -> None:
    tree(tmp_path, "a.py", "b.md", "c.md/")
    assert lines(tmp_path, ".", "-type", "f", "(", "-name", "*.py", "-o", "-name", "*.md", ")") == [
        "./a.py", "./b.md"]
    assert lines(tmp_path, ".", "-type", "f", "-name", "*.py", "-o", "-name", "*.md") == [
        "./a.py", "./b.md", "./c.md"]


def test_explicit_print_turns_off_the_implicit_one(tmp_path: Path) -> None:
    tree(tmp_path, "a.py", "b.md")
    assert lines(tmp_path, ".", "-name", "*.py", "-print", "-o", "-name", "*.md") == ["./a.py"]


def test_comma_evaluates_both_sides(tmp_path: Path) -> None:
    tree(tmp_path, "a")
    assert lines(tmp_path, ".", "-name", "a", "-printf", "1\\n", ",", "-name", "a",
                 "-printf", "2\\n") == ["1", "2"]


def test_start_point_with_trailing_slash_is_kept(tmp_path: Path) -> None:
    tree(tmp_path, "src/lib/x.py")
    assert lines(tmp_path, "src/", "-type", "d") == ["src/", "src/lib"]


def test_missing_start_point_reports_and_continues(tmp_path: Path) -> None:
    tree(tmp_path, "a/1.txt")
    r = run(["find", "nosuch", "a"], tmp_path)
    assert (r.code, r.out) == (1, "a\na/1.txt\n")
    assert "find: 'nosuch': No such file or directory" in r.err


def test_prune_skips_a_subtree(tmp_path: Path) -> None:
    tree(tmp_path, "keep/a", "skip/b")
    out = lines(tmp_path, ".", "-name", "skip", "-prune", "-o", "-type", "f", "-print")
    assert out == ["./keep/a"]


def test_exec_runs_once_per_file_with_braces_replaced(tmp_path: Path) -> None:
    tree(tmp_path, "a.txt", "b.txt")
    sh = FakeShell(str(tmp_path))
    r = run(["find", ".", "-name", "*.txt", "-exec", "basename", "{}", ";"], tmp_path, shell=sh)
    assert r.out == "a.txt\nb.txt\n"
    assert sh.calls == [["basename", "./a.txt"], ["basename", "./b.txt"]]


def test_exec_plus_batches_paths_into_one_command(tmp_path: Path) -> None:
    tree(tmp_path, "a.txt", "b.txt")
    sh = FakeShell(str(tmp_path))
    r = run(["find", ".", "-name", "*.txt", "-exec", "basename", "-a", "{}", "+"], tmp_path,
            shell=sh)
    assert r.out == "a.txt\nb.txt\n"
    assert sh.calls == [["basename", "-a", "./a.txt", "./b.txt"]]


def test_exec_result_is_the_test_value(tmp_path: Path) -> None:
    tree(tmp_path, "a", "b")
    sh = FakeShell(str(tmp_path))
    r = run(["find", ".", "-type", "f", "-exec", "rm", "{}", ";", "-print"], tmp_path, shell=sh)
    assert r.out == "./a\n./b\n"
    assert not (tmp_path / "a").exists()


def test_delete_removes_depth_first(tmp_path: Path) -> None:
    tree(tmp_path, "d/sub/x.tmp", "d/y.tmp", "keep.txt")
    assert run(["find", "d", "-delete"], tmp_path).code == 0
    assert not (tmp_path / "d").exists() and (tmp_path / "keep.txt").exists()


def test_empty_size_and_newer(tmp_path: Path) -> None:
    tree(tmp_path, "full", "e/")
    (tmp_path / "zero").write_text("")
    (tmp_path / "big").write_text("x" * 3000)
    assert lines(tmp_path, ".", "-empty") == ["./e", "./zero"]
    assert lines(tmp_path, ".", "-type", "f", "-size", "+1k") == ["./big"]
    assert lines(tmp_path, ".", "-type", "f", "-size", "-1") == ["./zero"]
    os.utime(tmp_path / "full", (1000, 1000))
    assert "./full" not in lines(tmp_path, ".", "-newer", "full")


def test_printf_directives(tmp_path: Path) -> None:
    tree(tmp_path, "d/f.txt")
    out = lines(tmp_path, "d", "-type", "f", "-printf", "%p|%f|%h|%P|%s|%d|%y\\n")
    assert out == ["d/f.txt|f.txt|d|f.txt|2|1|f"]


def test_print0_separates_with_nul(tmp_path: Path) -> None:
    tree(tmp_path, "a")
    assert run(["find", ".", "-type", "f", "-print0"], tmp_path).out == "./a\0"


def test_quit_stops_after_the_first_match(tmp_path: Path) -> None:
    tree(tmp_path, "a", "b", "c")
    assert lines(tmp_path, ".", "-type", "f", "-print", "-quit") == ["./a"]


def test_json_gives_a_list_of_file_records(tmp_path: Path) -> None:
    tree(tmp_path, "a")
    got = run(["find", ".", "--json"], tmp_path).json()
    assert [(r["path"], r["name"], r["type"]) for r in got] == [
        (".", ".", "directory"), ("./a", "a", "file")]


@pytest.mark.parametrize(("argv", "message"), [
    (["-bogus"], "unknown predicate '-bogus'"),
    (["-name"], "missing argument to '-name'"),
    (["-name", "a", "extra"], "paths must precede expression: 'extra'"),
    (["(", "-name", "a"], "expecting to find a ')'"),
    (["-name", "a", ")"], "too many ')'"),
    (["-o"], "invalid expression"),
    (["-maxdepth", "x"], "positive decimal integer"),
    (["-type", "q"], "Unknown argument to -type"),
    (["-exec", "ls", "{}"], "missing argument to '-exec'"),
])
def test_bad_expressions_are_usage_errors(tmp_path: Path, argv: list[str], message: str) -> None:
    r = run(["find", ".", *argv], tmp_path)
    assert r.code == 1 and message in r.err


def test_find_is_raw_argv_and_declares_exec_and_remove() -> None:
    tool = get_builtin("find")
    assert tool is not None and tool.schema.raw_argv
    assert {"proc.exec", "fs.remove"} <= set(tool.schema.operations)


def test_follow_L_descends_symlinked_directories(tmp_path: Path) -> None:
    tree(tmp_path, "real/x")
    os.symlink("real", tmp_path / "ln")
    assert "./ln/x" not in lines(tmp_path, ".")
    assert "./ln/x" in lines(tmp_path, "-L", ".")


# -- -printf ----------------------------------------------------------------------------

def test_find_printf_unknown_directive_is_printed_after_a_warning(tmp_path: Path) -> None:
    symlink_tree(tmp_path)
    r = run(["find", "a.txt", "-printf", "%j|\n"], tmp_path)
    assert (r.code, r.out) == (0, "%j|\n")
    assert "unrecognized format directive" in r.err


def test_find_printf_lone_percent_at_the_end_is_an_error(tmp_path: Path) -> None:
    symlink_tree(tmp_path)
    r = run(["find", "a.txt", "-printf", "x%"], tmp_path)
    assert (r.code, r.out) == (1, "")
    assert "% at end of format string" in r.err


# -- predicates on links, times, sizes and regular expressions --------------------------

def test_find_lname_samefile_and_newermt(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
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


def test_find_newermt_reads_gnu_date_forms(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    out = run(["find", "d", "-newermt", "Sep 12 2020", "-name", "f1.py"], root).out
    assert out == "d/f1.py\n"
    same_as_gnu(["find", "d", "-newermt", "Sep 12 2020", "-name", "f1.py"], root)


def test_find_anewer_compares_access_time(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    os.utime(root / "d" / "f1.py", (OLD + 100, OLD - 100))  # read after a.txt changed
    out = run(["find", "d", "-anewer", "a.txt", "-type", "f"], root).out
    assert out == "d/f1.py\n"
    same_as_gnu(["find", "d", "-anewer", "a.txt", "-type", "f"], root)


def test_find_xtype_looks_through_links(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    assert run(["find", ".", "-xtype", "l"], root).out == "./dangling\n"
    assert run(["find", ".", "-type", "l", "-xtype", "d"], root).out == "./dlink\n"
    assert run(["find", ".", "-type", "l", "-xtype", "f"], root).out == "./link\n"
    for argv in (["find", ".", "-xtype", "l"], ["find", ".", "-type", "l", "-xtype", "d"]):
        same_as_gnu(argv, root)


def test_find_size_with_a_bad_unit_names_the_unit(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    r = run(["find", "d", "-size", "2x"], root)
    assert (r.code, r.err) == (1, "find: invalid -size type `x'\n")


def test_find_unknown_regextype_is_an_error(tmp_path: Path) -> None:
    root = symlink_tree_in(tmp_path)
    r = run(["find", "d", "-regextype", "bogus", "-regex", "x"], root)
    assert r.code == 1 and "Unknown regular expression type 'bogus'" in r.err


# -- symlink loops ----------------------------------------------------------------------

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
    g = reference.run_tool(["find", "-L", "a"], tmp_path)
    if g is not None:
        assert (g.code, g.text) == (1, "a\na/b\n")
