"""The calc family (expr bc factor numfmt): literal GNU outputs, and the same scripts
against the host's GNU tools when installed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from tysh import Kernel


def run(script: str, files: dict[str, str] | None = None) -> tuple[str, str, int]:
    res = Kernel.isolated(files=files or {}).execute(script)
    return res.text_out(), res.err, res.code


def gnu(script: str) -> tuple[str, int]:
    p = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                       env={**os.environ, "LC_ALL": "C"}, check=False)
    return p.stdout, p.returncode


# ------------------------------------------------------------------ expr

EXPR_CASES = [
    ("expr 5 \\* 3", "15\n", 0),
    ("expr 7 / 2 + 7 % 2", "4\n", 0),
    ("expr -5 % 3", "-2\n", 0),
    ("expr 99999999999999999999 + 1", "100000000000000000000\n", 0),
    ("expr abc : 'a\\(b\\)'", "b\n", 0),
    ("expr abc : 'ab'", "2\n", 0),
    ("expr abc : 'x'", "0\n", 1),
    ("expr abc : 'x\\(b\\)'", "\n", 1),
    ("expr substr hello 2 3", "ell\n", 0),
    ("expr index hello lo", "3\n", 0),
    ("expr length hello", "5\n", 0),
    ("expr match abc 'a.*'", "3\n", 0),
    ("expr 0", "0\n", 1),
    ("expr ''", "\n", 1),
    ("expr 1 \\| 0", "1\n", 0),
    ("expr 0 \\| ''", "0\n", 1),
    ("expr 0 \\& 1", "0\n", 1),
    ("expr 1 \\| 1 / 0", "1\n", 0),
    ("expr + length", "length\n", 0),
    ("expr 10 \\< 9", "0\n", 1),
    ("expr a \\< b", "1\n", 0),
    ("expr 01 = 1", "1\n", 0),
    ("expr -- 3 + 1", "4\n", 0),
    ("expr \\( 1 + 2 \\) \\* 3", "9\n", 0),
]


@pytest.mark.parametrize(("script", "out", "code"), EXPR_CASES)
def test_expr_prints_gnu_result_and_status(script: str, out: str, code: int) -> None:
    got, err, status = run(script)
    assert (got, status) == (out, code), err


EXPR_ERRORS = [
    ("expr 5 + x", "expr: non-integer argument\n"),
    ("expr 1 +", "expr: syntax error: missing argument after '+'\n"),
    ("expr 1 2", "expr: syntax error: unexpected argument '2'\n"),
    ("expr \\( 1", "expr: syntax error: expecting ')' after '1'\n"),
    ("expr 5 / 0", "expr: division by zero\n"),
    ("expr abc : 'a\\('", "expr: Unmatched ( or \\(\n"),
    ("expr", "expr: missing operand\nTry 'expr --help' for more information.\n"),
]


@pytest.mark.parametrize(("script", "err"), EXPR_ERRORS)
def test_expr_invalid_expression_reports_like_gnu_with_status_2(script: str, err: str) -> None:
    out, got, code = run(script)
    assert (out, got, code) == ("", err, 2)


def test_expr_json_gives_number_or_string() -> None:
    assert json.loads(run("expr --json 3 + 4")[0]) == 7
    assert json.loads(run("expr --json abc : '\\(a\\)'")[0]) == "a"


@pytest.mark.skipif(shutil.which("expr") is None, reason="GNU expr not installed")
@pytest.mark.parametrize(("script", "out", "code"), EXPR_CASES)
def test_expr_matches_gnu_expr(script: str, out: str, code: int) -> None:
    assert gnu(script) == (out, code)


# ------------------------------------------------------------------ bc

BC_CASES = [
    ("scale=2; 3/4", "", ".75\n"),
    ("scale=2; 1/1", "", "1.00\n"),
    ("scale=2; -1/3", "", "-.33\n"),
    ("-0", "", "0\n"),
    ("x=3; x*2", "", "6\n"),
    ("-2^2", "", "4\n"),
    ("1.5^2", "", "2.2\n"),
    ("scale=3; 2^-2", "", ".250\n"),
    ("5 % 3; scale=2; 5 % 3", "", "2\n.02\n"),
    ("obase=2; 10.5", "", "1010.1000\n"),
    ("obase=16; 255; -255", "", "FF\n-FF\n"),
    ("obase=20; 123", "", " 06 03\n"),
    ("ibase=16; FF; A", "", "255\n10\n"),
    ("sqrt(2); scale=10; sqrt(2)", "", "1\n1.4142135623\n"),
    ("length(123.45); scale(1.230)", "", "5\n3\n"),
    ("2^300", "", "20370359763344860862684456884093781610514683936659362506361404493543\\\n"
                  "81299763336706183397376\n"),
    ('print "a\\n", 1, "\\n"', "", "a\n1\n"),
    ("define f(x) { auto y; y = x*2; return y+1 }; f(3)", "", "7\n"),
    ("define fact(n) {\n if (n <= 1) return 1\n return n * fact(n-1)\n}\nfact(25)", "",
     "15511210043330985984000000\n"),
    ("x++; x; ++x; x--", "", "0\n1\n2\n2\n"),
    ("for (i=0;i<3;i++) i", "", "0\n1\n2\n"),
    ("i=0; while (i<3) { i; i+=1 }", "", "0\n1\n2\n"),
    ("!0; 1&&0; 0||2", "", "1\n0\n1\n"),
    ("a[2]=5; a[2]+1", "", "6\n"),
    ("a = 3 < 5; a", "", "1\n3\n"),
    ("if (1 > 2) 3 else 4", "", "4\n"),
    ("/* c */ 3 # d\n4", "", "3\n4\n"),
    ("1; quit; 2", "", ""),
    ("if (0) quit\n5", "", ""),
    ("s(1); c(1); a(1); l(2); e(1); j(1,2); scale", "-l",
     ".84147098480789650665\n.54030230586813971740\n.78539816339744830961\n"
     ".69314718055994530941\n2.71828182845904523536\n.57672480775687338720\n20\n"),
    ("scale=5; s(0.5); l(10); e(-1)", "-l", ".47942\n2.30258\n.36787\n"),
]


@pytest.mark.parametrize(("prog", "opts", "out"), BC_CASES)
def test_bc_prints_gnu_results(prog: str, opts: str, out: str) -> None:
    got, err, code = run(f"bc {opts} < p.bc", {"p.bc": prog + "\n"})
    assert (got, code) == (out, 0), err


@pytest.mark.skipif(shutil.which("bc") is None, reason="GNU bc not installed")
@pytest.mark.parametrize(("prog", "opts", "out"), BC_CASES)
def test_bc_matches_gnu_bc(prog: str, opts: str, out: str, tmp_path: object) -> None:
    p = subprocess.run(["bc", *opts.split()], input=prog + "\n", capture_output=True,
                       text=True, check=False)
    assert p.stdout == out


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


# ------------------------------------------------------------------ factor

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


@pytest.mark.skipif(shutil.which("factor") is None, reason="GNU factor not installed")
def test_factor_matches_gnu_factor() -> None:
    script = "factor 84 97 1000000007 18446744073709551617 1000000016000000063"
    assert sorted(run(script)[0].splitlines()) == sorted(gnu(script)[0].splitlines())


# ------------------------------------------------------------------ numfmt

NUMFMT_CASES = [
    ("numfmt --to=iec 1048576", "1.0M\n"),
    ("numfmt --to=iec 1000 1023 1024 1025 1536 10240 1048575 999999",
     "1000\n1023\n1.0K\n1.1K\n1.5K\n10K\n1.0M\n977K\n"),
    ("numfmt --to=si 1000 999 1500 123456789 1999", "1.0K\n999\n1.5K\n124M\n2.0K\n"),
    ("numfmt --to=iec-i 4096", "4.0Ki\n"),
    ("numfmt --from=iec 1K 1.5M", "1024\n1572864\n"),
    ("numfmt --from=auto 1K 1Ki", "1000\n1024\n"),
    ("numfmt --to=iec --suffix=B 2048", "2.0KB\n"),
    ("numfmt --padding=8 --to=iec 2048", "    2.0K\n"),
    ("echo 'a:2048:b' | numfmt -d: --field=2 --to=iec", "a:2.0K:b\n"),
    ("printf 'size\\n2048\\n' | numfmt --header --to=iec", "size\n2.0K\n"),
    ("printf '  2048 x\\n     1 y\\n' | numfmt --to=iec", "  2.0K x\n     1 y\n"),
    ("numfmt --format=%.2f 3.14159", "3.15\n"),
    ("numfmt --format='%08.1f' --to=iec 2048", "000002.0K\n"),
    ("numfmt --to=iec --round=down 1500", "1.4K\n"),
    ("numfmt --to=si 0.5 12.34 99.5", "0\n13\n100\n"),
    ("numfmt --to=iec -- -2048", "-2.0K\n"),
]


@pytest.mark.parametrize(("script", "out"), NUMFMT_CASES)
def test_numfmt_prints_gnu_result(script: str, out: str) -> None:
    got, err, code = run(script)
    assert (got, code) == (out, 0), err


@pytest.mark.skipif(shutil.which("numfmt") is None, reason="GNU numfmt not installed")
@pytest.mark.parametrize(("script", "out"), NUMFMT_CASES)
def test_numfmt_matches_gnu_numfmt(script: str, out: str) -> None:
    assert gnu(script) == (out, 0)


def test_numfmt_invalid_number_aborts_with_status_2() -> None:
    assert run("numfmt abc 12") == ("", "numfmt: invalid number: 'abc'\n", 2)
    assert run("numfmt 1K")[1] == "numfmt: rejecting suffix in input: '1K' (consider using --from)\n"


def test_numfmt_invalid_warn_passes_through() -> None:
    assert run("numfmt --invalid=warn abc 12") == ("abc\n12\n", "numfmt: invalid number: 'abc'\n", 0)


def test_numfmt_json_values() -> None:
    assert json.loads(run("numfmt --json --to=iec 2048 1")[0]) == ["2.0K", "1"]


def test_calc_tools_declare_no_operations() -> None:
    from tysh.builtins import get_builtin

    for name in ("expr", "bc", "factor", "numfmt"):
        t = get_builtin(name)
        assert t is not None and t.schema.operations == ()


@pytest.mark.parametrize("src", [
    "factor 340282366920938463463374607431768211457",  # two minutes of Pollard rho
    "echo 'while (1) { }' | bc",
    "echo 'for (;;) { }' | bc",
    "echo 'define f(x) { while (1) { } }; f(1)' | bc",
])
def test_a_time_limit_stops_a_long_computation(src: str) -> None:
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
