"""tr: sets, ranges, classes, repeats, delete/squeeze/complement, and GNU's errors. The
GNU-pinned translations are in tests/conformance/pins/tools/tr.cases."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_text import ok, run, same


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


def test_tr_upper_class_in_set2_needs_a_case_class_in_set1(tmp_path: Path) -> None:
    r = run(["tr", "a-c", "[:upper:]"], tmp_path, stdin="abc\n")
    assert r.code == 1 and "misaligned" in r.err


def test_tr_huge_repeat_count_is_capped_not_allocated(tmp_path: Path) -> None:
    assert tr(tmp_path, "ab\n", "a", "[b*999999999999]") == b"bb\n"


def test_tr_two_empty_sets_copy_input(tmp_path: Path) -> None:
    assert tr(tmp_path, "ab\n", "", "") == b"ab\n"


def test_tr_case_classes_must_line_up(tmp_path: Path) -> None:
    misaligned = "tr: misaligned [:upper:] and/or [:lower:] construct\n"
    for sets in (["a[:lower:]", "[:upper:]"], ["-s", "[:alnum:]", "[:upper:]"],
                 ["a", "b[:upper:]"], ["-t", "[:lower:]xyz", "a[:upper:]"]):
        r = same(tmp_path, ["tr", *sets], "aB1\n", "", code=1)
        assert r.err == misaligned, sets
    same(tmp_path, ["tr", "x[:lower:]", "[y*][:upper:]"], "aB1\n", "AB1\n")
    same(tmp_path, ["tr", "-ct", "a", "[:upper:]"], "aB1\n", "aB1K")


def test_tr_longer_set1_and_complement_errors_in_gnu_order(tmp_path: Path) -> None:
    longer = ("tr: when translating with string1 longer than string2,\n"
              "the latter string must not end with a character class\n")
    for sets in (["[:lower:]a", "[:upper:]"], ["-c", "a", "[:upper:]"]):
        r = same(tmp_path, ["tr", *sets], "aB1\n", "", code=1)
        assert r.err == longer, sets
    r = same(tmp_path, ["tr", "-c", "[:lower:]", "xy"], "aB1\n", "", code=1)
    assert r.err == ("tr: when translating with complemented character classes,\n"
                     "string2 must map all characters in the domain to one\n")
    same(tmp_path, ["tr", "-c", "[:lower:]", "x"], "aB1\n", "axxx")
