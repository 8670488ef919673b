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
    ("-1", b"\xff"),             # a negative code: C's low byte, raw
    ("-200", b"8"),
    ("2^32 + 65", b"A"),         # C's int: the low 32 bits
    ("1114112", b"\xf4\x90\x80\x80"),  # past Unicode: glibc's long UTF-8 form
    ("55296", b"\x00"),          # a surrogate: wcrtomb fails, gawk writes NUL
    ("233", b"\xc3\xa9"),
    ('""', b"\x00"),             # the empty string's terminating NUL
])
def test_awk_printf_c_of_odd_values_matches_gawk(tmp_path: Path, args: str,
                                                 expected: bytes) -> None:
    check_awk(tmp_path, f'BEGIN {{ printf "%c|", {args} }}', expected + b"|")


def test_awk_printf_c_of_empty_string_is_a_padded_nul(tmp_path: Path) -> None:
    check_awk(tmp_path, 'BEGIN { printf "%5c|", "" }', b"    \x00|")


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
    ("%+012.2i", "-3.7", b"         -03"),   # a precision turns the 0 flag off
    ("%+012.X", "123456789", b"     75BCD15"),  # + means nothing to unsigned
    ("% 5o", "8", b"   10"),
    ("%-5.0o", "0", b"     "),               # zero precision: 0 prints no digits
    ("%+.0d", "0", b""),
    ("%+0.10u", "65", b"0000000065"),
    ("%#x", "255", b"0xff"),
    ("%#o", "8", b"010"),
    ("%05d", "-42", b"-0042"),
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


def test_awk_hex_escapes_take_at_most_two_digits(tmp_path: Path) -> None:
    check_awk(tmp_path, 'BEGIN { print "\\x41g\\x4a4" }', b"AgJ4\n")


def test_awk_v_assignment_processes_hex_escapes(tmp_path: Path) -> None:
    check_awk(tmp_path, "BEGIN { print x }", b"AA\n", opts=("-v", "x=\\101\\x41"))


# -- awk field splitting -----------------------------------------------------------------


def test_awk_single_backslash_fs_is_literal(tmp_path: Path) -> None:
    check_awk(tmp_path, "{ print $2 }", b"b\n", stdin=b"a\\b\n", opts=("-F\\\\",))
    check_awk(tmp_path, 'BEGIN { n = split("x\\\\y", q, "\\\\"); print n, q[2] }', b"2 y\n")


# -- awk command pipes and getline --------------------------------------------------------


def test_awk_output_pipe_output_comes_before_later_buffered_prints(tmp_path: Path) -> None:
    # gawk and mawk: `{print | "sort"} END {print "total"}` ends with the total
    prog = 'BEGIN { print "head" } { print | "sort" } END { print "total" }'
    code, out, err = tysh(tmp_path, f"awk '{prog}'", b"b\na\n")
    assert (code, out) == (0, b"head\na\nb\ntotal\n"), err
    real = gawk_out(tmp_path, [prog], b"b\na\n")
    if real is not None:
        assert real == out


def test_awk_close_of_output_pipe_flushes_stdout_first(tmp_path: Path) -> None:
    prog = 'BEGIN { print "a" | "cat"; print "b"; close("cat"); print "c" }'
    code, out, err = tysh(tmp_path, f"awk '{prog}'")
    assert (code, out) == (0, b"b\na\nc\n"), err
    real = gawk_out(tmp_path, [prog])
    if real is not None:
        assert real == out


def test_awk_cmd_getline_does_not_count_nr(tmp_path: Path) -> None:
    prog = '{ "echo sub" | getline; print; "echo v" | getline v; print v, NR }'
    code, out, err = tysh(tmp_path, f"awk '{prog}'", b"x\n")
    assert (code, out) == (0, b"sub\nv 1\n"), err
    real = gawk_out(tmp_path, [prog], b"x\n")
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


def test_test_dash_n_is_a_file_operator(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x\n")
    src = "test -N f; echo $?; test -N nosuch; echo $?"
    code, out, err = tysh(tmp_path, src)
    assert out == b"0\n1\n", err
    real = bash_status(src, tmp_path)
    if real is not None:
        assert real == (0, out)


def test_env_i_and_env_u_hide_variables_from_in_process_commands_too() -> None:
    from tysh import Kernel

    k = Kernel.isolated(env={"KEEP": "k", "DROP": "d"})
    r = k.execute("env -u DROP printenv DROP; echo $?; env -i A=1 env; env -i printenv KEEP;"
                  " echo $?; printenv DROP")
    assert (r.out, r.code) == ("1\nA=1\n1\nd\n", 0)


def test_timeout_with_kill_reports_137_as_gnu() -> None:
    from tysh import Kernel

    r = Kernel.isolated().execute("timeout -s KILL 0.1 sleep 5; echo $?")
    assert r.out == "137\n"
