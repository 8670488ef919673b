"""cut: field, character and byte lists, delimiters, the list parser. The GNU-pinned
cases are in tests/conformance/pins/tools/cut.cases."""

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


def test_cut_empty_delimiter_means_nul(tmp_path: Path) -> None:
    assert cut(tmp_path, "a\0b\nplain\n", "-d", "", "-f2") == b"b\nplain\n"
