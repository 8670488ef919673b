"""cmp: the first difference, EOF messages, -l/-b, limits and skips, trouble. Dumps of the same files checked against the host's tools are
tests/conformance/pins/tools/cmp.cases."""

from __future__ import annotations

from tysh import Kernel


def _k(**files: bytes | str) -> Kernel:
    return Kernel.isolated(files=dict(files))


def _run(k: Kernel, script: str) -> tuple[int, str, str]:
    r = k.execute(script)
    return r.code, r.text_out(), r.err


CMP_FILES = {"c1": "abc\ndef\n", "c2": "abc\ndxf\nzz", "c3": "abc\n", "c4": ""}


def test_cmp_reports_the_first_difference_by_byte_and_line() -> None:
    k = _k(**CMP_FILES)
    assert _run(k, "cmp c1 c2") == (1, "c1 c2 differ: byte 6, line 2\n", "")
    assert _run(k, "cmp -b c1 c2")[1] == "c1 c2 differ: byte 6, line 2 is 145 e 170 x\n"
    assert _run(k, "cmp c1 c1") == (0, "", "")
    assert _run(k, "cmp -s c1 c2") == (1, "", "")


def test_cmp_eof_messages_name_the_shorter_file() -> None:
    k = _k(**CMP_FILES)
    assert _run(k, "cmp c1 c3") == (1, "", "cmp: EOF on c3 after byte 4, line 1\n")
    assert _run(k, "cmp c4 c1") == (1, "", "cmp: EOF on c4 which is empty\n")
    assert _run(k, "cmp -l c1 c3") == (1, "", "cmp: EOF on c3 after byte 4\n")


def test_cmp_verbose_lists_every_differing_byte_in_octal() -> None:
    k = _k(**CMP_FILES)
    assert _run(k, "cmp -l c1 c2")[1] == "6 145 170\n"
    assert _run(k, "cmp -lb c1 c2")[1] == "6 145 e    170 x\n"
    assert _run(k, "printf '\\200\\n' | cmp -b - c1")[1] == (
        "- c1 differ: byte 1, line 1 is 200 M-^@ 141 a\n")


def test_cmp_limit_and_skips() -> None:
    k = _k(**CMP_FILES)
    assert _run(k, "cmp -n 3 c1 c2")[0] == 0
    assert _run(k, "cmp -i 4:5 c1 c2")[1] == "c1 c2 differ: byte 1, line 1\n"
    assert _run(k, "cmp c1 c2 1 1")[1] == "c1 c2 differ: byte 5, line 2\n"


def test_cmp_trouble_is_status_2() -> None:
    k = _k(**CMP_FILES)
    assert _run(k, "cmp c1 nope") == (2, "", "cmp: nope: No such file or directory\n")
    code, _, err = _run(k, "cmp")
    assert code == 2 and err.startswith("cmp: missing operand")


def test_cmp_compares_large_inputs_across_blocks() -> None:
    a = b"x" * 200_000 + b"\n" * 3 + b"A"
    b = b"x" * 200_000 + b"\n" * 3 + b"B"
    k = _k(a=a, b=b)
    assert _run(k, "cmp a b")[1] == "a b differ: byte 200004, line 4\n"
