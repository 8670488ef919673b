"""bc: pipes and file operands, errors, typed output, time limits and cancelling, and
numbers past Python's digit guard. Results checked against GNU bc 1.07.1 are
tests/conformance/pins/tools/bc.cases."""

from __future__ import annotations

import json

import pytest

from tysh import Kernel


def run(script: str, files: dict[str, str] | None = None) -> tuple[str, str, int]:
    res = Kernel.isolated(files=files or {}).execute(script)
    return res.text_out(), res.err, res.code


def test_bc_pipe_and_file_operand() -> None:
    assert run("echo 'scale=2; 3/4' | bc")[0] == ".75\n"
    assert run("bc f.bc < /dev/null", {"f.bc": "2+2\nquit\n"})[0] == "4\n"


def test_bc_division_by_zero_skips_rest_of_line_and_continues() -> None:
    out, err, code = run("printf '1/0; 2\\n3\\n' | bc")
    assert (out, code) == ("3\n", 0)
    assert "Divide by zero" in err


def test_bc_syntax_error_drops_the_line() -> None:
    out, err, _ = run("printf '1 +; 3\\n4\\n' | bc")
    assert out == "4\n"
    assert err == "(standard_in) 1: syntax error\n"


def test_bc_json_gives_printed_lines() -> None:
    assert json.loads(run("echo '1+2; 2^300' | bc --json")[0])[0] == "3"


def test_bc_non_utf8_input_does_not_crash() -> None:
    _, err, _ = run("printf '\\377\\n1\\n' | bc")
    assert "Traceback" not in err


@pytest.mark.parametrize("src", [
    "echo 'while (1) { }' | bc",
    "echo 'for (;;) { }' | bc",
    "echo 'define f(x) { while (1) { } }; f(1)' | bc",
])
def test_a_time_limit_stops_a_long_bc_computation(src: str) -> None:
    import time

    from tysh import Kernel

    t = time.monotonic()
    r = Kernel.isolated().execute(src, timeout=0.3)
    assert r.code == 124 and "time limit" in r.err
    assert time.monotonic() - t < 3


def test_cancel_stops_bc_in_an_endless_loop() -> None:
    import threading
    import time

    from tysh import Kernel

    k = Kernel.isolated()
    threading.Timer(0.2, k.cancel).start()
    t = time.monotonic()
    r = k.execute("echo 'while (1) { }' | bc")
    assert r.code == 130 and time.monotonic() - t < 3


def test_bc_and_expr_print_numbers_past_pythons_4300_digit_guard() -> None:
    from tysh import Kernel

    k = Kernel.isolated()
    from decimal import Decimal

    want = str(Decimal(2**20000))
    big = k.execute("echo '2^20000' | BC_LINE_LENGTH=0 bc").out.strip()
    assert big == want and len(big) == 6021
    r = k.execute(f"expr {big} + 1; expr {big} \\* 2 --json")
    lines = r.out.split("\n")
    assert r.code == 0 and lines[0] == str(Decimal(2**20000 + 1))
    assert lines[1] == '"' + str(Decimal(2**20001)) + '"'  # too long for a JSON int here
    assert k.execute("echo 'scale=5000; 1/3' | BC_LINE_LENGTH=0 bc").out == "." + "3" * 5000 + "\n"
