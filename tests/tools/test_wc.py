"""wc: counts, their order and padding, characters, words across chunks, -L, totals and
--json. The GNU-pinned -L cases are in tests/conformance/pins/tools/wc.cases."""

from __future__ import annotations

from pathlib import Path

from harness_text import run, write


def test_wc_default_prints_lines_words_bytes_padded_to_file_size(tmp_path: Path) -> None:
    write(tmp_path, "a", "hello world\nfoo\n")
    assert run(["wc", "a"], tmp_path).out == b" 2  3 16 a\n"


def test_wc_single_count_single_input_is_unpadded(tmp_path: Path) -> None:
    assert run(["wc", "-l"], tmp_path, stdin="a\nb\n").out == b"2\n"


def test_wc_counts_order_is_fixed_whatever_the_flag_order(tmp_path: Path) -> None:
    write(tmp_path, "a", "ab cd\nef\n")
    assert run(["wc", "-cl", "a"], tmp_path).out == b"2 9 a\n"
    assert run(["wc", "--words", "--lines", "a"], tmp_path).out == b"2 3 a\n"


def test_wc_several_files_print_a_total(tmp_path: Path) -> None:
    write(tmp_path, "a", "a b c\nd\n")
    write(tmp_path, "b", "hello\n")
    assert run(["wc", "a", "b"], tmp_path).out == b" 2  4  8 a\n 1  1  6 b\n 3  5 14 total\n"


def test_wc_chars_count_utf8_characters(tmp_path: Path) -> None:
    write(tmp_path, "u", "héllo wörld\n")
    assert run(["wc", "-m", "u"], tmp_path).out == b"12 u\n"
    assert run(["wc", "-c", "u"], tmp_path).out == b"14 u\n"


def test_wc_words_ignore_control_characters_and_split_on_unicode_spaces(tmp_path: Path) -> None:
    assert run(["wc", "-w"], tmp_path, stdin=b"\x01 a\xff\n").out == b"1\n"
    assert run(["wc", "-w"], tmp_path, stdin="é\u2003x\n").out == b"2\n"


def test_wc_words_spanning_chunk_boundaries_count_once(tmp_path: Path) -> None:
    text = ("word " * 300000).encode()
    assert run(["wc", "-w"], tmp_path, stdin=text).out == b"300000\n"


def test_wc_max_line_length_expands_tabs_and_wide_characters(tmp_path: Path) -> None:
    assert run(["wc", "-L"], tmp_path, stdin="ab\tc\n日本\n").out == b"9\n"


def test_wc_missing_file_reported_and_total_still_printed(tmp_path: Path) -> None:
    write(tmp_path, "a", "x y\n")
    r = run(["wc", "-l", "a", "nosuch"], tmp_path)
    assert (r.code, r.out) == (1, b"1 a\n1 total\n")


def test_wc_json_object_for_one_input(tmp_path: Path) -> None:
    assert run(["wc", "--json"], tmp_path, stdin="a b\n").json() == {
        "lines": 1, "words": 2, "bytes": 4}


def test_wc_json_list_with_total_for_several_files(tmp_path: Path) -> None:
    write(tmp_path, "a", "x\n")
    got = run(["wc", "--json", "-l", "a", "a"], tmp_path).json()
    assert got == [{"path": "a", "lines": 1}, {"path": "a", "lines": 1},
                   {"total": True, "lines": 2}]
