"""factor: operands, stdin, big numbers, typed output and the time limit (checked
against GNU factor in tests/conformance/pins/tools/factor.cases)."""

from __future__ import annotations

import json

import pytest

from tysh import Kernel


def run(script: str, files: dict[str, str] | None = None) -> tuple[str, str, int]:
    res = Kernel.isolated(files=files or {}).execute(script)
    return res.text_out(), res.err, res.code


def test_factor_operands_and_invalid_words() -> None:
    out, err, code = run("factor 84 +12 0 1 x 18446744073709551617")
    assert out == "84: 2 2 3 7\n12: 2 2 3\n0:\n1:\n18446744073709551617: 274177 67280421310721\n"
    assert err == "factor: 'x' is not a valid positive integer\n"
    assert code == 1


def test_factor_reads_stdin_words() -> None:
    assert run("printf '12 9\\n15\\n' | factor") == ("12: 2 2 3\n9: 3 3\n15: 3 5\n", "", 0)


def test_factor_big_semiprime_by_pollard_rho() -> None:
    out = run("factor 1000000000000000000000000000007")[0]
    assert out == "1000000000000000000000000000007: 251897 387727 10238844796821566353\n"


def test_factor_json_rows() -> None:
    assert json.loads(run("factor --json 12")[0]) == [{"number": 12, "factors": [2, 2, 3]}]


@pytest.mark.parametrize("src", [
    "factor 340282366920938463463374607431768211457",  # two minutes of Pollard rho
])
def test_a_time_limit_stops_a_long_factorization(src: str) -> None:
    import time

    from tysh import Kernel

    t = time.monotonic()
    r = Kernel.isolated().execute(src, timeout=0.3)
    assert r.code == 124 and "time limit" in r.err
    assert time.monotonic() - t < 3
