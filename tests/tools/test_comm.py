"""comm: columns, delimiters, order checks and operands, through the binder. The GNU
pins that are a command line and its output are tests/conformance/pins/tools/comm.cases."""

from __future__ import annotations

from pathlib import Path

from harness_text import run as text_run
from harness_text import write

from tysh.kernel.embed.kernel import Kernel


def _kernel(tmp: Path) -> Kernel:
    k = Kernel(cwd=str(tmp))
    k.execute("TZ=UTC")
    return k


def _ours(k: Kernel, argv: list[str], stdin: bytes = b"") -> tuple[int, bytes, str]:
    r = k.execute_argv(argv[0], argv[1:], stdin, binary=True)
    out = r.out if isinstance(r.out, bytes) else r.out.encode()
    return r.code, out, r.err


def test_comm_three_columns_and_suppression(tmp_path: Path) -> None:
    write(tmp_path, "a", "a\nb\nd\n")
    write(tmp_path, "b", "b\nc\nd\n")
    assert text_run(["comm", "a", "b"], tmp_path).text == "a\n\t\tb\n\tc\n\t\td\n"
    assert text_run(["comm", "-12", "a", "b"], tmp_path).text == "b\nd\n"
    assert text_run(["comm", "-1", "-3", "a", "b"], tmp_path).text == "c\n"


def test_comm_output_delimiter_and_total(tmp_path: Path) -> None:
    write(tmp_path, "a", "a\nb\n")
    write(tmp_path, "b", "b\nc\n")
    r = text_run(["comm", "--output-delimiter=|", "--total", "a", "b"], tmp_path)
    assert r.text == "a\n||b\n|c\n1|1|1|total\n"


def test_comm_unsorted_input_warns_once_and_exits_1(tmp_path: Path) -> None:
    write(tmp_path, "a", "a\nc\nb\nz\ny\n")
    write(tmp_path, "b", "a\nb\nc\n")
    r = text_run(["comm", "a", "b"], tmp_path)
    assert r.code == 1
    assert r.err == "comm: file 1 is not in sorted order\ncomm: input is not in sorted order\n"
    assert text_run(["comm", "--nocheck-order", "a", "b"], tmp_path).code == 0


def test_comm_check_order_stops_at_the_first_disorder(tmp_path: Path) -> None:
    write(tmp_path, "a", "b\na\n")
    write(tmp_path, "b", "b\na\n")
    assert text_run(["comm", "a", "b"], tmp_path).code == 0  # no unpairable line: unchecked
    r = text_run(["comm", "--check-order", "a", "b"], tmp_path)
    assert (r.code, r.text) == (1, "\t\tb\n")


def test_comm_reads_stdin_and_reports_operand_errors(tmp_path: Path) -> None:
    write(tmp_path, "b", "x\n")
    assert text_run(["comm", "-", "b"], tmp_path, stdin="x\n").text == "\t\tx\n"
    r = text_run(["comm", "b"], tmp_path)
    assert (r.code, r.err.splitlines()[0]) == (1, "comm: missing operand after 'b'")
    assert text_run(["comm", "b", "nope"], tmp_path).err == "comm: nope: No such file or directory\n"


def test_comm_json_lists_column_and_line(tmp_path: Path) -> None:
    write(tmp_path, "a", "a\nb\n")
    write(tmp_path, "b", "b\n")
    assert text_run(["comm", "--json", "a", "b"], tmp_path).data == [
        {"column": 1, "line": "a"}, {"column": 3, "line": "b"}]


def test_comm_reports_disorder_in_each_file_then_in_the_input(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"two\nthree\n")
    (tmp_path / "b").write_bytes(b"two\nfour\n")
    code, _, err = _ours(_kernel(tmp_path), ["comm", "a", "b"])
    assert err == ("comm: file 2 is not in sorted order\ncomm: file 1 is not in sorted order\n"
                   "comm: input is not in sorted order\n")
