"""uniq: adjacent runs, counts, -d/-u/-D, skipping, --group, output operand. The
GNU-pinned --all-repeated and --group cases are in tests/conformance/pins/tools/uniq.cases."""

from __future__ import annotations

from pathlib import Path

from harness_text import run, write


def test_uniq_collapses_adjacent_runs_only(tmp_path: Path) -> None:
    assert run(["uniq"], tmp_path, stdin="a\na\nb\na\n").out == b"a\nb\na\n"


def test_uniq_count_uses_seven_wide_column(tmp_path: Path) -> None:
    assert run(["uniq", "-c"], tmp_path, stdin="x\nx\ny\n").out == b"      2 x\n      1 y\n"


def test_uniq_repeated_unique_and_all_repeated(tmp_path: Path) -> None:
    data = "a\na\nb\nc\nc\n"
    assert run(["uniq", "-d"], tmp_path, stdin=data).out == b"a\nc\n"
    assert run(["uniq", "-u"], tmp_path, stdin=data).out == b"b\n"
    assert run(["uniq", "-D"], tmp_path, stdin=data).out == b"a\na\nc\nc\n"


def test_uniq_counts_with_repeated_or_unique_and_both_print_nothing(tmp_path: Path) -> None:
    data = "a\na\nb\n" + "c\n" * 12
    assert run(["uniq", "-cd"], tmp_path, stdin=data).out == b"      2 a\n     12 c\n"
    assert run(["uniq", "-cu"], tmp_path, stdin=data).out == b"      1 b\n"
    assert run(["uniq", "-d", "-u"], tmp_path, stdin=data).out == b""


def test_uniq_count_across_batches_matches_one_batch(tmp_path: Path) -> None:
    lines = [f"{i // 3}" for i in range(300_000)]  # runs of 3, more than one read
    out = run(["uniq", "-c"], tmp_path, stdin="\n".join(lines) + "\n").out.split(b"\n")
    assert out[0] == b"      3 0" and out[-2] == b"      3 99999" and len(out) == 100_001


def test_uniq_skip_fields_chars_and_check_chars(tmp_path: Path) -> None:
    assert run(["uniq", "-f", "1"], tmp_path, stdin="1 a\n2 a\n3 b\n").out == b"1 a\n3 b\n"
    assert run(["uniq", "-s", "2"], tmp_path, stdin="xxab\nyyab\n").out == b"xxab\n"
    assert run(["uniq", "-w", "1"], tmp_path, stdin="ab\nac\nb\n").out == b"ab\nb\n"


def test_uniq_ignore_case_keeps_first_spelling(tmp_path: Path) -> None:
    assert run(["uniq", "-ic"], tmp_path, stdin="Apple\napple\npear\n").out == \
        b"      2 Apple\n      1 pear\n"


def test_uniq_unterminated_last_line_equals_terminated(tmp_path: Path) -> None:
    assert run(["uniq"], tmp_path, stdin="a\na").out == b"a\n"


def test_uniq_writes_to_output_operand(tmp_path: Path) -> None:
    write(tmp_path, "in", "a\na\n")
    r = run(["uniq", "in", "out"], tmp_path)
    assert (r.out, (tmp_path / "out").read_bytes()) == (b"", b"a\n")


def test_uniq_count_json_gives_count_and_line(tmp_path: Path) -> None:
    assert run(["uniq", "-c", "--json"], tmp_path, stdin="x\nx\ny\n").json() == [
        {"count": 2, "line": "x"}, {"count": 1, "line": "y"}]


def test_uniq_all_repeated_with_count_is_an_error(tmp_path: Path) -> None:
    r = run(["uniq", "-D", "-c"], tmp_path, stdin="a\na\n")
    assert r.code == 1 and "meaningless" in r.err


def test_uniq_negative_skip_is_an_error(tmp_path: Path) -> None:
    r = run(["uniq", "-f", "-1"], tmp_path, stdin="a\n")
    assert r.code == 1 and "invalid number of fields to skip" in r.err


def test_uniq_runs_spanning_read_chunks_are_counted_once(tmp_path: Path) -> None:
    data = "x\n" * 700000 + "y\n"
    assert run(["uniq", "-c"], tmp_path, stdin=data).out == b" 700000 x\n      1 y\n"


def test_uniq_group_rejects_counting_options(tmp_path: Path) -> None:
    r = run(["uniq", "--group", "-c"], tmp_path, "a\na\nA\nb\nb\nb\nc\n")
    assert (r.code, r.err) == (1, "uniq: --group is mutually exclusive with -c/-d/-D/-u\n")
