"""cut and tr."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_text import ok, run

from tysh.builtins.text.cut import ListError, parse_list


def cut(tmp: Path, stdin: str, *argv: str) -> bytes:
    return ok(["cut", *argv], tmp, stdin).out


def test_cut_field_lists_and_ranges(tmp_path: Path) -> None:
    assert cut(tmp_path, "a:b:c:d:e\n", "-d:", "-f1,3") == b"a:c\n"
    assert cut(tmp_path, "a:b:c:d:e\n", "-d:", "-f2-") == b"b:c:d:e\n"
    assert cut(tmp_path, "a:b:c:d:e\n", "-d:", "-f-2,4") == b"a:b:d\n"


def test_cut_field_order_follows_input_not_list(tmp_path: Path) -> None:
    assert cut(tmp_path, "1:2:3\n", "-d:", "-f3,1") == b"1:3\n"


def test_cut_line_without_delimiter_passes_whole_unless_s(tmp_path: Path) -> None:
    assert cut(tmp_path, "a,b\nplain\n", "-d,", "-f2") == b"b\nplain\n"
    assert cut(tmp_path, "a,b\nplain\n", "-d,", "-f2", "-s") == b"b\n"


def test_cut_output_delimiter_and_complement(tmp_path: Path) -> None:
    assert cut(tmp_path, "a:b:c:d\n", "-d:", "-f1,3-", "--output-delimiter= | ") == b"a | c | d\n"
    assert cut(tmp_path, "a:b:c:d\n", "-d:", "-f2", "--complement") == b"a:c:d\n"


def test_cut_characters_count_utf8_characters_and_bytes_count_bytes(tmp_path: Path) -> None:
    assert cut(tmp_path, "héllo\n", "-c", "2-3") == "él\n".encode()
    assert cut(tmp_path, "abcdef\n", "-b", "-2") == b"ab\n"


def test_cut_default_delimiter_is_tab(tmp_path: Path) -> None:
    assert cut(tmp_path, "k\tv\n", "-f2") == b"v\n"


def test_cut_requires_a_list(tmp_path: Path) -> None:
    r = run(["cut"], tmp_path, stdin="x\n")
    assert r.code == 1 and "you must specify a list" in r.err


@pytest.mark.parametrize(("spec", "message"), [
    ("0", "numbered from 1"), ("3-1", "decreasing range"), ("x", "invalid field value"),
])
def test_cut_list_errors(spec: str, message: str) -> None:
    with pytest.raises(ListError, match=message):
        parse_list(spec, "field")


def test_cut_list_ranges_merge() -> None:
    assert parse_list("5,1-2,2-3,7-", "field") == [(1, 3), (5, 5), (7, 1 << 62)]


def tr(tmp: Path, stdin: str | bytes, *argv: str) -> bytes:
    return ok(["tr", *argv], tmp, stdin).out


def test_tr_ranges_and_classes_translate(tmp_path: Path) -> None:
    assert tr(tmp_path, "Hello, World\n", "a-z", "A-Z") == b"HELLO, WORLD\n"
    assert tr(tmp_path, "Hi 1\n", "[:upper:]", "[:lower:]") == b"hi 1\n"


def test_tr_pads_short_set2_with_its_last_character(tmp_path: Path) -> None:
    assert tr(tmp_path, "abcdef\n", "a-f", "xy") == b"xyyyyy\n"


def test_tr_truncate_set1(tmp_path: Path) -> None:
    assert tr(tmp_path, "abc\n", "-t", "abc", "xy") == b"xyc\n"


def test_tr_delete_squeeze_and_complement(tmp_path: Path) -> None:
    assert tr(tmp_path, "hello world\n", "-d", "lo") == b"he wrd\n"
    assert tr(tmp_path, "aaabbb   dd\n", "-s", "a-z ") == b"ab d\n"
    assert tr(tmp_path, "abc-123_X!\n", "-cd", "[:alnum:]") == b"abc123X"
    assert tr(tmp_path, "hi there, you!\n", "-c", "a-z\\n", "_") == b"hi_there__you_\n"


def test_tr_squeeze_carries_across_chunks(tmp_path: Path) -> None:
    assert tr(tmp_path, "a" * 3_000_000 + "\n", "-s", "a") == b"a\n"


def test_tr_escapes_octal_and_repeat_constructs(tmp_path: Path) -> None:
    assert tr(tmp_path, "a,b\n", ",", "\\n") == b"a\nb\n"
    assert tr(tmp_path, "abc\n", "\\141", "X") == b"Xbc\n"
    assert tr(tmp_path, "abcdef\n", "a-f", "[x*2]yz") == b"xxyzzz\n"


def test_tr_passes_non_ascii_bytes_through(tmp_path: Path) -> None:
    assert tr(tmp_path, "héllo\n", "a-z", "A-Z") == "HéLLO\n".encode()


@pytest.mark.parametrize(("argv", "message"), [
    ([], "missing operand"),
    (["a"], "missing operand after 'a'"),
    (["-d", "a", "b"], "extra operand 'b'"),
    (["z-a", "x"], "reverse collating sequence"),
    ([" ", "[:alpha:]"], "only character classes"),
])
def test_tr_usage_errors_exit_1(tmp_path: Path, argv: list[str], message: str) -> None:
    r = run(["tr", *argv], tmp_path, stdin="x\n")
    assert r.code == 1 and message in r.err


def test_cut_empty_delimiter_means_nul(tmp_path: Path) -> None:
    assert cut(tmp_path, "a\0b\nplain\n", "-d", "", "-f2") == b"b\nplain\n"


def test_tr_upper_class_in_set2_needs_a_case_class_in_set1(tmp_path: Path) -> None:
    r = run(["tr", "a-c", "[:upper:]"], tmp_path, stdin="abc\n")
    assert r.code == 1 and "misaligned" in r.err


def test_tr_huge_repeat_count_is_capped_not_allocated(tmp_path: Path) -> None:
    assert tr(tmp_path, "ab\n", "a", "[b*999999999999]") == b"bb\n"


def test_tr_two_empty_sets_copy_input(tmp_path: Path) -> None:
    assert tr(tmp_path, "ab\n", "", "") == b"ab\n"


def test_paste_trailing_unescaped_backslash_is_an_error(tmp_path: Path) -> None:
    r = run(["paste", "-d", "\\"], tmp_path, stdin="a\n")
    assert r.code == 1 and "unescaped backslash" in r.err
