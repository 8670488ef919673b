"""strings: runs of printable bytes, offsets, minimum length and block boundaries. Dumps of the same files checked against the host's tools are
tests/conformance/pins/tools/strings.cases."""

from __future__ import annotations

from tysh import Kernel


def _k(**files: bytes | str) -> Kernel:
    return Kernel.isolated(files=dict(files))


def _run(k: Kernel, script: str) -> tuple[int, str, str]:
    r = k.execute(script)
    return r.code, r.text_out(), r.err


STR_DATA = b"ab\x00hello\tworld\x01xyzw\x80longerstring\n\nabcd"


def test_strings_prints_runs_of_four_printables_including_tabs() -> None:
    k = _k(s=STR_DATA)
    assert _run(k, "strings s")[1] == "hello\tworld\nxyzw\nlongerstring\nabcd\n"


def test_strings_offsets_min_length_and_file_names() -> None:
    k = _k(s=STR_DATA)
    assert _run(k, "strings -n 3 -t x s")[1] == (
        "      3 hello\tworld\n      f xyzw\n     14 longerstring\n     22 abcd\n")
    assert _run(k, "strings -f -n 12 s")[1] == "s: longerstring\n"
    assert _run(k, "strings -n 0 s")[2] == "strings: invalid minimum string length 0\n"


def test_strings_finds_a_run_that_crosses_a_read_block() -> None:
    data = b"\0" * 65530 + b"abcdefghijkl" + b"\0"
    k = _k(s=data)
    assert _run(k, "strings -t d s")[1] == "  65530 abcdefghijkl\n"
