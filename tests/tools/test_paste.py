"""paste: files side by side, delimiter lists, serial mode, stdin read alternately."""

from __future__ import annotations

from pathlib import Path

from harness_text import run, write


def test_paste_joins_files_side_by_side_padding_short_ones(tmp_path: Path) -> None:
    write(tmp_path, "a", "1\n2\n3\n")
    write(tmp_path, "b", "x\n")
    assert run(["paste", "a", "b"], tmp_path).out == b"1\tx\n2\t\n3\t\n"


def test_paste_delimiters_cycle(tmp_path: Path) -> None:
    write(tmp_path, "a", "1\n")
    assert run(["paste", "-d", ",:", "a", "a", "a"], tmp_path).out == b"1,1:1\n"


def test_paste_serial_joins_all_lines_of_a_file(tmp_path: Path) -> None:
    assert run(["paste", "-sd,"], tmp_path, stdin="a\nb\nc\n").out == b"a,b,c\n"


def test_paste_repeated_dash_reads_stdin_alternately(tmp_path: Path) -> None:
    assert run(["paste", "-", "-"], tmp_path, stdin="1\n2\n3\n").out == b"1\t2\n3\t\n"


def test_paste_trailing_unescaped_backslash_is_an_error(tmp_path: Path) -> None:
    r = run(["paste", "-d", "\\"], tmp_path, stdin="a\n")
    assert r.code == 1 and "unescaped backslash" in r.err
