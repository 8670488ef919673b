"""xxd: dump layouts, plain and C include forms, -r and the outfile operand. Dumps of the same files checked against the host's tools are
tests/conformance/pins/tools/xxd.cases."""

from __future__ import annotations

from tysh import Kernel

BIN = b"hello world\n\x00\x01\x7f\x80\xff"


def _k(**files: bytes | str) -> Kernel:
    return Kernel.isolated(files=dict(files))


def _run(k: Kernel, script: str) -> tuple[int, str, str]:
    r = k.execute(script)
    return r.code, r.text_out(), r.err


def test_xxd_default_dump_groups_two_bytes_and_pads_the_text_column() -> None:
    _, out, _ = _run(_k(**{"b.bin": BIN}), "xxd b.bin")
    assert out == ("00000000: 6865 6c6c 6f20 776f 726c 640a 0001 7f80  hello world.....\n"
                   "00000010: ff                                       .\n")


def test_xxd_cols_groups_upper_seek_and_len() -> None:
    k = _k(**{"b.bin": BIN})
    assert _run(k, "xxd -g1 -c8 -u -l 8 b.bin")[1] == (
        "00000000: 68 65 6C 6C 6F 20 77 6F  hello wo\n")
    assert _run(k, "xxd -s 3 -l 5 b.bin")[1] == (
        "00000003: 6c6f 2077 6f                             lo wo\n")
    assert _run(k, "xxd -s -2 b.bin")[1] == (
        "0000000f: 80ff                                     ..\n")


def test_xxd_plain_and_c_include() -> None:
    k = _k(**{"my file.bin": BIN})
    assert _run(k, "xxd -p 'my file.bin'")[1] == "68656c6c6f20776f726c640a00017f80ff\n"
    assert _run(k, "xxd -i 'my file.bin'")[1] == (
        "unsigned char my_file_bin[] = {\n"
        "  0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x77, 0x6f, 0x72, 0x6c, 0x64, 0x0a,\n"
        "  0x00, 0x01, 0x7f, 0x80, 0xff\n};\nunsigned int my_file_bin_len = 17;\n")


def test_xxd_reverse_restores_the_bytes_of_a_dump_and_of_plain_hex() -> None:
    k = _k(**{"b.bin": BIN})
    assert _run(k, "xxd b.bin | xxd -r > back; cmp back b.bin")[0] == 0
    assert _run(k, "xxd -p b.bin | xxd -r -p > back2; cmp back2 b.bin")[0] == 0
    assert _run(k, "printf '0000004: 4142\\n' | xxd -r | od -An -c")[1] == (
        "  \\0  \\0  \\0  \\0   A   B\n")


def test_xxd_writes_to_an_outfile_operand_and_reports_a_missing_infile() -> None:
    k = _k(**{"b.bin": b"hi"})
    assert _run(k, "xxd -p b.bin out.txt; cat out.txt")[1] == "6869\n"
    code, _, err = _run(k, "xxd nope")
    assert (code, err) == (2, "xxd: nope: No such file or directory\n")
