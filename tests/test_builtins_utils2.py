"""The second batch of the utils family: which, tree, comm, column, fold, expand,
unexpand, yes, printenv, nproc, uname, whoami, hostname — run by argv through the binder."""

from __future__ import annotations

import io
import os
from pathlib import Path

from harness import FakeShell, invoke
from harness_text import run, write

from tysh.builtins import get_builtin
from tysh.kernel.base.argv import classify
from tysh.kernel.embed.kernel import Kernel

# -- which -------------------------------------------------------------------------


def test_which_prints_a_builtin_by_name_and_fails_silently_on_a_missing_one(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    r = k.execute("which cat cd nosuch-cmd-xyz")
    assert (r.code, r.text_out()) == (1, "cat\ncd\n")
    assert r.err == ""


def test_which_prints_functions_by_name_and_aliases_like_command_v(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    r = k.execute("f() { :; }; alias ll='ls -l'; which f ll")
    assert r.text_out() == "f\nalias ll='ls -l'\n"


def test_which_finds_programs_on_path_only_when_externals_are_on(tmp_path: Path) -> None:
    prog = tmp_path / "bin" / "myprog"
    prog.parent.mkdir()
    prog.write_text("#!/bin/sh\n")
    prog.chmod(0o755)
    script = f"PATH={tmp_path}/bin; which myprog"
    assert Kernel(cwd=str(tmp_path)).execute(script).code == 1
    on = Kernel(cwd=str(tmp_path), allow_external=True).execute(script)
    assert (on.code, on.text_out()) == (0, f"{prog}\n")


def test_which_all_lists_the_builtin_then_every_path_match(tmp_path: Path) -> None:
    for d in ("b1", "b2"):
        p = tmp_path / d / "cat"
        p.parent.mkdir()
        p.write_text("")
        p.chmod(0o755)
    k = Kernel(cwd=str(tmp_path), allow_external=True)
    r = k.execute(f"PATH={tmp_path}/b1:{tmp_path}/b2; which -a cat")
    assert r.text_out() == f"cat\n{tmp_path}/b1/cat\n{tmp_path}/b2/cat\n"


def test_which_json_gives_name_kind_path_with_null_for_missing(tmp_path: Path) -> None:
    import json

    r = Kernel(cwd=str(tmp_path)).execute("which --json cat nosuch-xyz")
    assert r.code == 1
    assert json.loads(r.text_out()) == [{"name": "cat", "kind": "builtin", "path": None},
                                        {"name": "nosuch-xyz", "kind": None, "path": None}]


# -- tree --------------------------------------------------------------------------

def _tree_fixture(tmp: Path) -> None:
    for name in ("B/z", "a", "d/e/g", "d/f", ".hid"):
        write(tmp, name, "x")
    (tmp / "ld").symlink_to("d")
    (tmp / "la").symlink_to("a")


def test_tree_draws_branches_and_counts_like_tree_2(tmp_path: Path) -> None:
    _tree_fixture(tmp_path)
    r = run(["tree"], tmp_path)
    bar = "│\u00a0\u00a0 "
    assert r.text == (
        ".\n├── B\n│\u00a0\u00a0 └── z\n├── a\n├── d\n"
        f"{bar}├── e\n{bar}{bar}└── g\n{bar}└── f\n"
        "├── la -> a\n└── ld -> d\n\n5 directories, 5 files\n")


def test_tree_hidden_level_dirs_only_and_ignore(tmp_path: Path) -> None:
    _tree_fixture(tmp_path)
    assert run(["tree", "-a", "-L", "1", "--noreport"], tmp_path).text.splitlines()[1] == "├── .hid"
    assert run(["tree", "-d"], tmp_path).text.endswith("\n\n5 directories\n")
    assert run(["tree", "-I", "d|B", "--noreport"], tmp_path).text == (
        ".\n├── a\n├── la -> a\n└── ld -> d\n")


def test_tree_full_path_and_dirsfirst(tmp_path: Path) -> None:
    _tree_fixture(tmp_path)
    lines = run(["tree", "-f", "--dirsfirst", "--noreport", "-L", "1", "."], tmp_path).text.splitlines()
    assert lines[1:] == ["├── ./B", "├── ./d", "├── ./ld -> d", "├── ./a", "└── ./la -> a"]


def test_tree_empty_directory_does_not_count_itself(tmp_path: Path) -> None:
    (tmp_path / "e").mkdir()
    assert run(["tree", "e"], tmp_path).text == "e\n\n0 directories, 0 files\n"


def test_tree_missing_directory_reports_and_exits_2(tmp_path: Path) -> None:
    r = run(["tree", "nope"], tmp_path)
    assert (r.code, r.text) == (2, "nope  [error opening dir]\n\n0 directories, 0 files\n")


def test_tree_rejects_level_zero(tmp_path: Path) -> None:
    r = run(["tree", "-L", "0"], tmp_path)
    assert (r.code, r.err) == (1, "tree: Invalid level, must be greater than 0.\n")


def test_tree_json_is_tree_dash_j_shape(tmp_path: Path) -> None:
    _tree_fixture(tmp_path)
    r = run(["tree", "--json", "-L", "1", "d"], tmp_path)
    assert r.data == [
        {"type": "directory", "name": "d", "contents": [
            {"type": "directory", "name": "e"}, {"type": "file", "name": "f"}]},
        {"type": "report", "directories": 2, "files": 1}]


# -- comm --------------------------------------------------------------------------

def test_comm_three_columns_and_suppression(tmp_path: Path) -> None:
    write(tmp_path, "a", "a\nb\nd\n")
    write(tmp_path, "b", "b\nc\nd\n")
    assert run(["comm", "a", "b"], tmp_path).text == "a\n\t\tb\n\tc\n\t\td\n"
    assert run(["comm", "-12", "a", "b"], tmp_path).text == "b\nd\n"
    assert run(["comm", "-1", "-3", "a", "b"], tmp_path).text == "c\n"


def test_comm_output_delimiter_and_total(tmp_path: Path) -> None:
    write(tmp_path, "a", "a\nb\n")
    write(tmp_path, "b", "b\nc\n")
    r = run(["comm", "--output-delimiter=|", "--total", "a", "b"], tmp_path)
    assert r.text == "a\n||b\n|c\n1|1|1|total\n"


def test_comm_unsorted_input_warns_once_and_exits_1(tmp_path: Path) -> None:
    write(tmp_path, "a", "a\nc\nb\nz\ny\n")
    write(tmp_path, "b", "a\nb\nc\n")
    r = run(["comm", "a", "b"], tmp_path)
    assert r.code == 1
    assert r.err == "comm: file 1 is not in sorted order\ncomm: input is not in sorted order\n"
    assert run(["comm", "--nocheck-order", "a", "b"], tmp_path).code == 0


def test_comm_check_order_stops_at_the_first_disorder(tmp_path: Path) -> None:
    write(tmp_path, "a", "b\na\n")
    write(tmp_path, "b", "b\na\n")
    assert run(["comm", "a", "b"], tmp_path).code == 0  # no unpairable line: unchecked
    r = run(["comm", "--check-order", "a", "b"], tmp_path)
    assert (r.code, r.text) == (1, "\t\tb\n")


def test_comm_reads_stdin_and_reports_operand_errors(tmp_path: Path) -> None:
    write(tmp_path, "b", "x\n")
    assert run(["comm", "-", "b"], tmp_path, stdin="x\n").text == "\t\tx\n"
    r = run(["comm", "b"], tmp_path)
    assert (r.code, r.err.splitlines()[0]) == (1, "comm: missing operand after 'b'")
    assert run(["comm", "b", "nope"], tmp_path).err == "comm: nope: No such file or directory\n"


def test_comm_json_lists_column_and_line(tmp_path: Path) -> None:
    write(tmp_path, "a", "a\nb\n")
    write(tmp_path, "b", "b\n")
    assert run(["comm", "--json", "a", "b"], tmp_path).data == [
        {"column": 1, "line": "a"}, {"column": 3, "line": "b"}]


# -- column ------------------------------------------------------------------------

def test_column_table_pads_all_but_the_last_column(tmp_path: Path) -> None:
    r = run(["column", "-t"], tmp_path, stdin="a b c\nlonger x\n\n")
    assert r.text == "a       b  c\nlonger  x  \n"


def test_column_table_separator_output_separator_and_names(tmp_path: Path) -> None:
    r = run(["column", "-t", "-s", ",", "-o", "|", "-N", "K,V"], tmp_path, stdin="a,1\nbb,,3\n")
    assert r.text == "K |V|\na |1|\nbb| |3\n"


def test_column_fills_columns_then_rows_with_tabs(tmp_path: Path) -> None:
    data = "".join(f"{i}\n" for i in range(1, 7))
    assert run(["column", "-c", "20"], tmp_path, stdin=data).text == "1\t4\n2\t5\n3\t6\n"
    assert run(["column", "-x", "-c", "20"], tmp_path, stdin=data).text == "1\t2\n3\t4\n5\t6\n"


def test_column_json_table_rows_keyed_by_names(tmp_path: Path) -> None:
    r = run(["column", "--json", "-t", "-N", "a,b"], tmp_path, stdin="1 2\n3 4 5\n")
    assert r.data == [{"a": "1", "b": "2"}, {"a": "3", "b": "4", "3": "5"}]


def test_column_display_width_counts_wide_characters_twice(tmp_path: Path) -> None:
    assert run(["column", "-t"], tmp_path, stdin="日本 x\nab y\n").text == "日本  x\nab    y\n"


# -- fold / expand / unexpand -------------------------------------------------------

def test_fold_width_spaces_and_bytes(tmp_path: Path) -> None:
    assert run(["fold", "-w", "5"], tmp_path, stdin="abcdefghij\n").text == "abcde\nfghij\n"
    assert run(["fold", "-s", "-w", "7"], tmp_path, stdin="aa bb cc dd\n").text == "aa bb \ncc dd\n"
    assert run(["fold", "-w", "4"], tmp_path, stdin="a\tb\n").text == "a\n\t\nb\n"
    assert run(["fold", "-b", "-w", "2"], tmp_path, stdin="a\tbc").text == "a\t\nbc"


def test_fold_obsolete_width_and_invalid_width(tmp_path: Path) -> None:
    assert run(["fold", "-3"], tmp_path, stdin="abcdef\n").text == "abc\ndef\n"
    r = run(["fold", "-w", "0"], tmp_path, stdin="x\n")
    assert (r.code, r.err) == (1, "fold: invalid number of columns: '0'\n")


def test_expand_tab_sizes_lists_and_initial(tmp_path: Path) -> None:
    assert run(["expand"], tmp_path, stdin="a\tb\n").text == "a       b\n"
    assert run(["expand", "-t", "4"], tmp_path, stdin="a\tb\n").text == "a   b\n"
    assert run(["expand", "-t", "2,5"], tmp_path, stdin="\ta\tb\tc\n").text == "  a  b c\n"
    assert run(["expand", "-i", "-t", "2"], tmp_path, stdin="\ta\tb\n").text == "  a\tb\n"


def test_unexpand_leading_only_by_default_and_all_with_t(tmp_path: Path) -> None:
    src = "        x       y\n"
    assert run(["unexpand"], tmp_path, stdin=src).text == "\tx       y\n"
    assert run(["unexpand", "-a"], tmp_path, stdin=src).text == "\tx\ty\n"
    assert run(["unexpand", "-t", "4"], tmp_path, stdin="    a   b\n").text == "\ta\tb\n"


def test_unexpand_keeps_a_single_blank_before_a_stop(tmp_path: Path) -> None:
    assert run(["unexpand", "-a"], tmp_path, stdin="abcdefg h\n").text == "abcdefg h\n"


def test_tab_stops_must_ascend(tmp_path: Path) -> None:
    r = run(["expand", "-t", "5,3"], tmp_path, stdin="")
    assert (r.code, r.err) == (1, "expand: tab sizes must be ascending\n")


# -- yes / printenv / nproc / uname / whoami / hostname -------------------------------------


class _Stop(Exception):
    pass


class _Limited(io.BytesIO):
    """A reader that goes away after a few writes, as `head` would."""

    def write(self, b: bytes) -> int:  # type: ignore[override]
        if self.tell() > 20000:
            raise BrokenPipeError
        return super().write(b)


def test_yes_repeats_its_words_until_the_reader_closes(tmp_path: Path) -> None:
    import pytest

    from tysh.kernel.bind.fast import bind_and_convert
    from tysh.kernel.fs.local import LocalFileSystem
    from tysh.kernel.tools.context import Context

    tool = get_builtin("yes")
    assert tool is not None
    _, leaf, inst = bind_and_convert(tool, classify(["a", "b"]))
    out = _Limited()
    ctx = Context("yes", io.BytesIO(), out, io.BytesIO(), LocalFileSystem(),
                  FakeShell(str(tmp_path)))
    with pytest.raises(BrokenPipeError):
        leaf.func(inst, ctx)  # type: ignore[misc]
    assert out.getvalue().split(b"\n")[:3] == [b"a b"] * 3


def test_yes_in_a_pipeline_stops_with_head(tmp_path: Path) -> None:
    r = Kernel(cwd=str(tmp_path)).execute("yes | head -n 3")
    assert (r.code, r.text_out()) == (0, "y\ny\ny\n")


def test_printenv_names_values_and_missing_status(tmp_path: Path) -> None:
    sh = FakeShell(str(tmp_path), env={"A": "1", "B": "two"})
    tool = get_builtin("printenv")
    r = invoke(tool, "printenv", classify(["A", "NOPE", "B"]), sh)
    assert (r.code, r.out) == (1, b"1\ntwo\n")
    r = invoke(tool, "printenv", classify([]), sh)
    assert r.out == b"A=1\nB=two\n"


def test_printenv_sees_the_sessions_exports(tmp_path: Path) -> None:
    r = Kernel(cwd=str(tmp_path)).execute("export ZED=q; printenv ZED; printenv UNEXPORTED_X")
    assert (r.code, r.text_out()) == (1, "q\n")


def test_nproc_is_at_least_one_and_ignore_never_goes_below_one(tmp_path: Path) -> None:
    n = int(run(["nproc"], tmp_path).text)
    assert n >= 1
    assert run(["nproc", "--ignore=1000"], tmp_path).text == "1\n"
    assert int(run(["nproc", "--all"], tmp_path).text) == os.cpu_count()


def test_uname_default_all_and_selected_fields(tmp_path: Path) -> None:
    u = os.uname()
    assert run(["uname"], tmp_path).text == f"{u.sysname}\n"
    assert run(["uname", "-s", "-m"], tmp_path).text == f"{u.sysname} {u.machine}\n"
    assert run(["uname", "-a"], tmp_path).text.startswith(f"{u.sysname} {u.nodename} {u.release} ")
    assert run(["uname", "-p"], tmp_path).text == "unknown\n"


def test_whoami_and_hostname_print_and_hostname_refuses_to_set(tmp_path: Path) -> None:
    import pwd
    import socket

    assert run(["whoami"], tmp_path).text == pwd.getpwuid(os.geteuid()).pw_name + "\n"
    assert run(["hostname"], tmp_path).text == socket.gethostname() + "\n"
    r = run(["hostname", "newname"], tmp_path)
    assert r.code == 1 and "not supported" in r.err


def test_sandboxed_kernels_keep_the_host_user_and_machine_names_out() -> None:
    from tysh import Kernel

    k = Kernel.isolated()
    assert k.execute("whoami; hostname; uname -n").out == "user\nlocalhost\nlocalhost\n"
    named = Kernel.isolated(env={"USER": "ann", "HOSTNAME": "box.example"})
    assert named.execute("whoami; hostname -s; uname -n").out == "ann\nbox\nbox.example\n"
