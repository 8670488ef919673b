"""seq: operands, precision, widths, formats, errors, and stopping on a closed pipe. The
GNU-pinned width, format and endless cases are in tests/conformance/pins/tools/seq.cases."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_text import FakeShell, ok, run


def seq(tmp: Path, *argv: str) -> str:
    return ok(["seq", *argv], tmp).text


def test_seq_one_two_and_three_operands(tmp_path: Path) -> None:
    assert seq(tmp_path, "3") == "1\n2\n3\n"
    assert seq(tmp_path, "3", "5") == "3\n4\n5\n"
    assert seq(tmp_path, "1", "3", "10") == "1\n4\n7\n10\n"


def test_seq_negative_numbers_and_steps(tmp_path: Path) -> None:
    assert seq(tmp_path, "5", "-2", "-1") == "5\n3\n1\n-1\n"
    assert seq(tmp_path, "-3", "-1") == "-3\n-2\n-1\n"


def test_seq_empty_when_start_is_past_end(tmp_path: Path) -> None:
    assert seq(tmp_path, "5", "1") == ""


def test_seq_decimal_precision_comes_from_first_and_step(tmp_path: Path) -> None:
    assert seq(tmp_path, "0", "0.5", "2") == "0.0\n0.5\n1.0\n1.5\n2.0\n"
    assert seq(tmp_path, "1.5", "3") == "1.5\n2.5\n"
    assert seq(tmp_path, "1", "2.50") == "1\n2\n"
    assert seq(tmp_path, "0.1", "0.1", "0.3") == "0.1\n0.2\n0.3\n"


def test_seq_separator_and_equal_width(tmp_path: Path) -> None:
    assert seq(tmp_path, "-s,", "3") == "1,2,3\n"
    assert seq(tmp_path, "-w", "8", "10") == "08\n09\n10\n"
    assert seq(tmp_path, "-w", "-3", "1") == "-3\n-2\n-1\n00\n01\n"


def test_seq_format(tmp_path: Path) -> None:
    assert seq(tmp_path, "-f", "%03g", "2") == "001\n002\n"
    assert seq(tmp_path, "-f", "%.1f%%", "1") == "1.0%\n"


def test_seq_large_integer_range_written_in_blocks(tmp_path: Path) -> None:
    out = seq(tmp_path, "100000")
    assert out.count("\n") == 100000 and out.endswith("99999\n100000\n")


@pytest.mark.parametrize(("argv", "message"), [
    (["abc"], "invalid floating point argument: 'abc'"),
    (["1", "0", "3"], "invalid Zero increment"),
    ([], "missing operand"),
    (["1", "2", "3", "4"], "extra operand '4'"),
    (["-f", "%d", "3"], "format"),
])
def test_seq_errors_exit_1(tmp_path: Path, argv: list[str], message: str) -> None:
    r = run(["seq", *argv], tmp_path)
    assert r.code == 1 and message in r.err


def test_seq_json_gives_numbers(tmp_path: Path) -> None:
    assert run(["seq", "--json", "3"], tmp_path).json() == [1, 2, 3]
    assert run(["seq", "--json", "0", "0.5", "1"], tmp_path).json() == [0, 0.5, 1]


def test_seq_stops_on_broken_pipe(tmp_path: Path) -> None:
    import io

    from tysh.builtins import get_builtin
    from tysh.kernel.fs.local import LocalFileSystem
    from tysh.kernel.tools.context import Context

    class Closed(io.RawIOBase):
        writes = 0

        def writable(self) -> bool:
            return True

        def write(self, b: object) -> int:
            Closed.writes += 1
            raise BrokenPipeError

    tool = get_builtin("seq")
    assert tool is not None and tool.func is not None and tool.args_class is not None
    ctx = Context("seq", io.BytesIO(), Closed(), io.BytesIO(), LocalFileSystem(),
                  FakeShell(str(tmp_path)))
    with pytest.raises(BrokenPipeError):
        tool.func(tool.args_class(numbers=("1", "1000000000000")), ctx)
    assert Closed.writes == 1


def test_seq_tiny_step_uses_exact_arithmetic_and_terminates(tmp_path: Path) -> None:
    out = seq(tmp_path, "1", "1e-40", "1")
    assert out == "1." + "0" * 40 + "\n"


def test_seq_accepts_hexadecimal_integers(tmp_path: Path) -> None:
    assert seq(tmp_path, "0x3") == "1\n2\n3\n"


def test_a_range_longer_than_a_machine_word_streams_its_head() -> None:
    from tysh import Kernel

    k = Kernel.isolated()
    r = k.execute("seq 9223372036854775808 | head -n 3; seq -s '' 1 12", timeout=5)
    assert (r.code, r.out, r.err) == (0, "1\n2\n3\n123456789101112\n", "")
