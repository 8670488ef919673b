"""Differential-hunt pins for awk and the POSIX builtins (echo, printf, test): each test
states a behaviour where tysh had departed from gawk / bash, asserts the literal expected
output, and, when the real tool is installed, checks that it agrees."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tysh.kernel.embed.kernel import Kernel

GAWK = shutil.which("gawk")
BASH = shutil.which("bash")


def tysh(tmp: Path, src: str, stdin: bytes = b"") -> tuple[int, bytes, str]:
    r = Kernel(cwd=str(tmp)).execute(src, stdin, binary=True)
    out = r.out if isinstance(r.out, bytes) else r.out.encode("utf-8", "surrogateescape")
    return r.code, out, r.err


def gawk_out(tmp: Path, args: list[str], stdin: bytes = b"") -> bytes | None:
    """gawk's stdout for the same program, or None when gawk is not installed."""
    if GAWK is None:
        return None
    return subprocess.run([GAWK, *args], input=stdin, cwd=tmp, capture_output=True,
                          timeout=20, env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"}).stdout


def check_awk(tmp: Path, prog: str, expected: bytes, stdin: bytes = b"",
              opts: tuple[str, ...] = ()) -> None:
    quoted = " ".join(f"'{a}'" for a in (*opts, prog))
    code, out, err = tysh(tmp, f"awk {quoted}", stdin)
    assert (code, out) == (0, expected), err
    real = gawk_out(tmp, [*opts, prog], stdin)
    if real is not None:
        assert real == expected


# -- awk printf: %c and the integer conversions at gawk's edges --------------------------


@pytest.mark.parametrize(("args", "expected"), [
    ("2^32 + 65", b"A"),         # C's int: the low 32 bits
    ("1114112", b"\xf4\x90\x80\x80"),  # past Unicode: glibc's long UTF-8 form
    ("233", b"\xc3\xa9"),
])
def test_awk_printf_c_of_odd_values_matches_gawk(tmp_path: Path, args: str,
                                                 expected: bytes) -> None:
    check_awk(tmp_path, f'BEGIN {{ printf "%c|", {args} }}', expected + b"|")


@pytest.mark.parametrize(("fmt", "value", "expected"), [
    ("%x", "2^64", b"1.84467e+19"),    # out of C's range: gawk prints it with %g
    ("%u", "2^64", b"1.84467e+19"),
    ("%o", "2^70", b"1.18059e+21"),
    ("%5.2x", "2^70", b"1.2e+21"),
    ("%X", "1e30", b"1e+30"),
    ("%x", "-2^64", b"-1.84467e+19"),
    ("%x", "2^63", b"8000000000000000"),  # still in range
    ("%x", "-2^63", b"8000000000000000"),
    ("%u", "-1", b"18446744073709551615"),
])
def test_awk_printf_unsigned_conversions_out_of_range_fall_back_to_g(
        tmp_path: Path, fmt: str, value: str, expected: bytes) -> None:
    check_awk(tmp_path, f'BEGIN {{ printf "{fmt}|", {value} }}', expected + b"|")


@pytest.mark.parametrize(("fmt", "value", "expected"), [
    ("%+.0d", "0", b""),
])
def test_awk_printf_integer_flags_follow_c(tmp_path: Path, fmt: str, value: str,
                                           expected: bytes) -> None:
    check_awk(tmp_path, f'BEGIN {{ printf "[{fmt}]", {value} }}', b"[" + expected + b"]")


def test_awk_printf_ignores_one_c_length_modifier(tmp_path: Path) -> None:
    # %ld %hd %zd work; a doubled modifier (%lld) prints as itself and takes no argument
    check_awk(tmp_path, 'BEGIN { printf "%ld %lld %hd %zd|%lx\\n", 1, 2, 3, 255 }',
              b"1 %lld 2 3|ff\n")


# -- awk string escapes ------------------------------------------------------------------


def test_awk_octal_escapes_write_raw_bytes(tmp_path: Path) -> None:
    # "\303\251" is the two bytes of é (one character); "\351" is the lone byte 0xE9
    check_awk(tmp_path, 'BEGIN { s = "\\303\\251"; print s, length(s); print "\\351" }',
              b"\xc3\xa9 1\n\xe9\n")


# -- awk field splitting -----------------------------------------------------------------


# -- awk command pipes and getline --------------------------------------------------------


def test_awk_close_of_output_pipe_flushes_stdout_first(tmp_path: Path) -> None:
    prog = 'BEGIN { print "a" | "cat"; print "b"; close("cat"); print "c" }'
    code, out, err = tysh(tmp_path, f"awk '{prog}'")
    assert (code, out) == (0, b"b\na\nc\n"), err
    real = gawk_out(tmp_path, [prog])
    if real is not None:
        assert real == out


# -- test / [ -----------------------------------------------------------------------------


def bash_status(src: str, tmp: Path) -> tuple[int, bytes] | None:
    if BASH is None:
        return None
    p = subprocess.run([BASH, "-c", src], cwd=tmp, capture_output=True, timeout=20)
    return p.returncode, p.stdout


@pytest.mark.parametrize(("expr", "status"), [
    ("99999999999999999999 -gt 1", 2),   # past intmax_t: not an integer
    ("9223372036854775808 -gt 1", 2),
    ("9223372036854775807 -gt 1", 0),
    ("-9223372036854775808 -lt 1", 0),
])
def test_test_integers_outside_intmax_are_errors(tmp_path: Path, expr: str,
                                                 status: int) -> None:
    src = f"test {expr}; echo $?"
    code, out, err = tysh(tmp_path, src)
    assert out == f"{status}\n".encode()
    assert ("integer expression expected" in err) == (status == 2)
    real = bash_status(src, tmp_path)
    if real is not None:
        assert real == (0, out)
