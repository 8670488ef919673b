"""cat, tac, rev and tee (one module, text/cat.py). The GNU-pinned tac and tee cases are
in tests/conformance/pins/tools/tac.cases and tee.cases."""

from __future__ import annotations

from pathlib import Path

from harness_text import run, write


def test_cat_concatenates_files_and_stdin_dash_in_order(tmp_path: Path) -> None:
    write(tmp_path, "a", "A\n")
    write(tmp_path, "b", "B\n")
    r = run(["cat", "a", "-", "b"], tmp_path, stdin="S\n")
    assert (r.code, r.out) == (0, b"A\nS\nB\n")


def test_cat_passes_invalid_utf8_bytes_unchanged(tmp_path: Path) -> None:
    data = bytes(range(256)) * 3
    write(tmp_path, "bin", data)
    assert run(["cat", "bin"], tmp_path).out == data


def test_cat_missing_file_reports_and_continues_with_status_1(tmp_path: Path) -> None:
    write(tmp_path, "a", "A\n")
    r = run(["cat", "nope", "a"], tmp_path)
    assert (r.code, r.out) == (1, b"A\n")
    assert "cat: nope: No such file or directory" in r.err


def test_cat_n_numbers_lines_continuing_across_files(tmp_path: Path) -> None:
    write(tmp_path, "a", "x\ny\n")
    write(tmp_path, "b", "z\n")
    assert run(["cat", "-n", "a", "b"], tmp_path).out == b"     1\tx\n     2\ty\n     3\tz\n"


def test_cat_n_unterminated_line_runs_into_next_file_without_new_number(tmp_path: Path) -> None:
    write(tmp_path, "a", "first\nsecond")
    write(tmp_path, "b", "third\n")
    assert run(["cat", "-n", "a", "b"], tmp_path).out == b"     1\tfirst\n     2\tsecondthird\n"


def test_cat_b_numbers_only_nonblank_lines(tmp_path: Path) -> None:
    write(tmp_path, "a", "a\n\nc\n\n")
    assert run(["cat", "-b", "a"], tmp_path).out == b"     1\ta\n\n     2\tc\n\n"


def test_cat_s_squeezes_runs_of_blank_lines(tmp_path: Path) -> None:
    write(tmp_path, "a", "\n\na\n\n\n\nb\n")
    assert run(["cat", "-s", "a"], tmp_path).out == b"\na\n\nb\n"


def test_cat_show_all_uses_caret_and_meta_notation(tmp_path: Path) -> None:
    write(tmp_path, "a", b"a\x01b\tc\xff\x7f\n")
    assert run(["cat", "-A", "a"], tmp_path).out == b"a^Ab^IcM-^?^?$\n"


def test_cat_E_marks_line_ends_and_T_shows_tabs(tmp_path: Path) -> None:
    write(tmp_path, "a", "a\tb\n")
    assert run(["cat", "-ET", "a"], tmp_path).out == b"a^Ib$\n"


def test_cat_json_gives_array_of_lines(tmp_path: Path) -> None:
    write(tmp_path, "a", "x\ny\n")
    assert run(["cat", "--json", "a"], tmp_path).json() == ["x", "y"]


def test_tac_reverses_lines_and_keeps_unterminated_last_line_first(tmp_path: Path) -> None:
    write(tmp_path, "a", "a\nb\nc")
    assert run(["tac", "a"], tmp_path).out == b"cb\na\n"


def test_tac_reverses_each_file_separately(tmp_path: Path) -> None:
    write(tmp_path, "a", "1\n2\n")
    write(tmp_path, "b", "3\n4\n")
    assert run(["tac", "a", "b"], tmp_path).out == b"2\n1\n4\n3\n"


def test_tac_separator_option(tmp_path: Path) -> None:
    assert run(["tac", "-s", ",", ], tmp_path, stdin="a,b,c,").out == b"c,b,a,"


def test_rev_reverses_characters_not_bytes(tmp_path: Path) -> None:
    assert run(["rev"], tmp_path, stdin="héllo\nab").out == "olléh\nba".encode()


def test_tee_writes_stdout_and_every_file(tmp_path: Path) -> None:
    r = run(["tee", "x", "y"], tmp_path, stdin="data\n")
    assert r.out == b"data\n"
    assert (tmp_path / "x").read_bytes() == (tmp_path / "y").read_bytes() == b"data\n"


def test_tee_a_appends(tmp_path: Path) -> None:
    write(tmp_path, "log", "one\n")
    run(["tee", "-a", "log"], tmp_path, stdin="two\n")
    assert (tmp_path / "log").read_bytes() == b"one\ntwo\n"


def test_tee_unwritable_file_reports_and_still_copies_to_stdout(tmp_path: Path) -> None:
    r = run(["tee", "nodir/x"], tmp_path, stdin="d\n")
    assert (r.code, r.out) == (1, b"d\n")
    assert "nodir/x" in r.err


def test_tee_declares_overwrite_operation() -> None:
    from tysh.builtins import get_builtin

    t = get_builtin("tee")
    assert t is not None and "fs.overwrite" in t.schema.operations
