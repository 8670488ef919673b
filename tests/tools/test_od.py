"""od: formats, addresses, repeated lines, floats, endianness, skips and errors, run
through a kernel. Dumps of the same files checked against the host's tools are
tests/conformance/pins/tools/od.cases."""

from __future__ import annotations

from tysh import Kernel

BIN = b"hello world\n\x00\x01\x7f\x80\xff"


def _k(**files: bytes | str) -> Kernel:
    return Kernel.isolated(files=dict(files))


def _run(k: Kernel, script: str) -> tuple[int, str, str]:
    r = k.execute(script)
    return r.code, r.text_out(), r.err


def test_od_default_is_octal_shorts_with_a_final_address_line() -> None:
    code, out, _ = _run(_k(**{"b.bin": BIN}), "od b.bin")
    assert code == 0
    assert out == ("0000000 062550 066154 020157 067567 066162 005144 000400 100177\n"
                   "0000020 000377\n0000021\n")


def test_od_hex_bytes_and_chars_share_columns_with_hex_addresses() -> None:
    _, out, _ = _run(_k(**{"b.bin": BIN}), "od -A x -t x1 -c b.bin")
    assert out == (
        "000000  68  65  6c  6c  6f  20  77  6f  72  6c  64  0a  00  01  7f  80\n"
        "         h   e   l   l   o       w   o   r   l   d  \\n  \\0 001 177 200\n"
        "000010  ff\n       377\n000011\n")


def test_od_spreads_padding_over_the_narrower_format() -> None:
    _, out, _ = _run(_k(**{"b.bin": BIN}), "od -t o1 -t x4 -w8 -N 8 b.bin")
    assert out == ("0000000 150 145 154 154 157 040 167 157\n"
                   "               6c6c6568        6f77206f\n0000010\n")


def test_od_marks_repeated_lines_with_a_star_unless_v() -> None:
    k = _k(**{"z": b"\0" * 64})
    assert _run(k, "od -A x z")[1] == (
        "000000 000000 000000 000000 000000 000000 000000 000000 000000\n*\n000040\n")
    assert _run(k, "od -v -A n -t x1 -w32 z")[1] == (" 00" * 32 + "\n") * 2


def test_od_skip_count_named_chars_and_no_address() -> None:
    k = _k(**{"b.bin": BIN})
    assert _run(k, "od -An -j 4 -N 8 -t a b.bin")[1] == "   o  sp   w   o   r   l   d  nl\n"
    assert _run(k, "od -A d -j 3 -N 2 -c b.bin")[1] == "0000003   l   o\n0000005\n"


def test_od_floats_print_the_shortest_round_trip_form() -> None:
    k = _k(**{"f": b"\x00\x00\x80\x3f" + b"\x00" * 4 + b"\x00\x00\x00\x00\x00\x00\xf8\x3f"})
    assert _run(k, "od -An -t f4 -N 4 f")[1] == "               1\n"
    assert _run(k, "od -An -t f8 -j 8 f")[1] == "                      1.5\n"


def test_od_endian_big_and_the_z_text_column() -> None:
    k = _k(**{"b.bin": b"\x01\x02AB"})
    assert _run(k, "od -An --endian=big -t x2 b.bin")[1] == " 0102 4142\n"
    assert _run(k, "od -An -t x1z b.bin")[1] == " 01 02 41 42" + " " * 36 + "  >..AB<\n"


def test_od_errors_bad_type_radix_and_skip_past_end() -> None:
    k = _k(**{"b.bin": b"ab"})
    code, _, err = _run(k, "od -t q b.bin")
    assert code == 1 and "invalid character 'q' in type string 'q'" in err
    code, _, err = _run(k, "od -A z b.bin")
    assert code == 1 and "invalid output address radix 'z'" in err
    code, _, err = _run(k, "od -j 10 b.bin")
    assert (code, err) == (1, "od: cannot skip past end of combined input\n")
    code, _, err = _run(k, "od nope")
    assert (code, err) == (1, "od: nope: No such file or directory\n")


def test_od_reads_several_files_as_one_stream_and_stdin() -> None:
    k = _k(a=b"ab", b=b"cd")
    assert _run(k, "od -An -c a b")[1] == "   a   b   c   d\n"
    assert _run(k, "printf xy | od -An -tx1")[1] == " 78 79\n"
