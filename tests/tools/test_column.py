"""column: tables, separators, names, filling and display width (the util-linux pins
are tests/conformance/pins/tools/column.cases)."""

from __future__ import annotations

from pathlib import Path

from harness_text import run as text_run


def test_column_table_pads_all_but_the_last_column(tmp_path: Path) -> None:
    r = text_run(["column", "-t"], tmp_path, stdin="a b c\nlonger x\n\n")
    assert r.text == "a       b  c\nlonger  x  \n"


def test_column_table_separator_output_separator_and_names(tmp_path: Path) -> None:
    r = text_run(["column", "-t", "-s", ",", "-o", "|", "-N", "K,V"], tmp_path, stdin="a,1\nbb,,3\n")
    assert r.text == "K |V|\na |1|\nbb| |3\n"


def test_column_fills_columns_then_rows_with_tabs(tmp_path: Path) -> None:
    data = "".join(f"{i}\n" for i in range(1, 7))
    assert text_run(["column", "-c", "20"], tmp_path, stdin=data).text == "1\t4\n2\t5\n3\t6\n"
    assert text_run(["column", "-x", "-c", "20"], tmp_path, stdin=data).text == "1\t2\n3\t4\n5\t6\n"


def test_column_json_table_rows_keyed_by_names(tmp_path: Path) -> None:
    r = text_run(["column", "--json", "-t", "-N", "a,b"], tmp_path, stdin="1 2\n3 4 5\n")
    assert r.data == [{"a": "1", "b": "2"}, {"a": "3", "b": "4", "3": "5"}]


def test_column_display_width_counts_wide_characters_twice(tmp_path: Path) -> None:
    assert text_run(["column", "-t"], tmp_path, stdin="日本 x\nab y\n").text == "日本  x\nab    y\n"
