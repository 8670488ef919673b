"""The bytes family: od xxd cmp cksum sha224sum sha384sum b2sum strings truncate.

Unit tests run through a Kernel (in-memory or a confined tmp dir) and assert literal
output; differential tests compare with the host's GNU/xxd tools when installed."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tysh import Kernel
from tysh.builtins import get_builtin

BIN = b"hello world\n\x00\x01\x7f\x80\xff"


def _k(**files: bytes | str) -> Kernel:
    return Kernel.isolated(files=dict(files))


def _run(k: Kernel, script: str) -> tuple[int, str, str]:
    r = k.execute(script)
    return r.code, r.text_out(), r.err


# ------------------------------------------------------------------------- od


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


# ------------------------------------------------------------------------- xxd


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


# ------------------------------------------------------------------------- cmp


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


# ------------------------------------------------------------------------- sums


def test_cksum_prints_the_posix_crc_and_size() -> None:
    k = _k(c1="abc\ndef\n", e="")
    assert _run(k, "cksum c1 e")[1] == "2475781078 8 c1\n4294967295 0 e\n"
    assert _run(k, "cksum < c1")[1] == "2475781078 8\n"


def test_cksum_algorithms_are_tagged_unless_untagged_and_check_back() -> None:
    k = _k(c1="abc\ndef\n")
    assert _run(k, "cksum -a md5 c1")[1] == "MD5 (c1) = f72fe788e136ba9e53518afa8b407eac\n"
    assert _run(k, "cksum -a sha256 --untagged c1")[1] == (
        "924d391c158a46409fdff363063d718ea0bc00b14556f129984942af91233bbe  c1\n")
    assert _run(k, "cksum -a sha1 c1 > t; cksum -c t") == (0, "c1: OK\n", "")


def test_sha224_sha384_and_b2sum_write_and_check_lists() -> None:
    k = _k(c1="abc\ndef\n")
    code, out, _ = _run(k, "b2sum -l 256 c1")
    assert out == "93db5c43a05da603cbaf9dc9fec05b484f4deb11af1581060a656d62a7973f1d  c1\n"
    assert _run(k, "b2sum -l 256 --tag c1")[1].startswith("BLAKE2b-256 (c1) = 93db5c43")
    for tool in ("sha224sum", "sha384sum", "b2sum"):
        assert _run(k, f"{tool} c1 > s; {tool} -c s") == (0, "c1: OK\n", ""), tool
        assert _run(k, f"echo x > c1; {tool} -c s")[0] == 1
        k = _k(c1="abc\ndef\n")


# ------------------------------------------------------------------------- strings


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


# ------------------------------------------------------------------------- truncate


def test_truncate_creates_grows_with_zeros_and_shrinks() -> None:
    k = _k(c1="abc\ndef\n")
    assert _run(k, "truncate -s 5 new; od -An -c new")[1] == "  \\0  \\0  \\0  \\0  \\0\n"
    assert _run(k, "truncate -s +2 c1; od -An -c c1")[1] == (
        "   a   b   c  \\n   d   e   f  \\n  \\0  \\0\n")
    assert _run(k, "truncate -s 2 c1; cat c1")[1] == "ab"


def test_truncate_relative_sizes_suffixes_and_reference() -> None:
    k = _k(c1="abc\ndef\n")
    assert _run(k, "truncate -s %3 c1; wc -c < c1")[1].strip() == "9"
    assert _run(k, "truncate -s /4 c1; wc -c < c1")[1].strip() == "8"
    assert _run(k, "truncate -s '<5' c1; wc -c < c1")[1].strip() == "5"
    assert _run(k, "truncate -s 1K x; wc -c < x")[1].strip() == "1024"
    assert _run(k, "truncate -s 1KB y; wc -c < y")[1].strip() == "1000"
    assert _run(k, "truncate -r c1 z; wc -c < z")[1].strip() == "5"
    assert _run(k, "truncate -r c1 -s +1 z2; wc -c < z2")[1].strip() == "6"


def test_truncate_no_create_and_errors() -> None:
    k = _k()
    assert _run(k, "truncate -c -s 5 nn; test -e nn")[0] == 1
    code, _, err = _run(k, "truncate nn")
    assert code == 1 and "you must specify either" in err
    assert _run(k, "truncate -s xx y")[2] == "truncate: Invalid number: \u2018xx\u2019\n"
    assert _run(k, "truncate -s 5")[2].startswith("truncate: missing file operand")
    assert _run(k, "truncate -s 5 no/x")[2] == (
        "truncate: cannot open 'no/x' for writing: No such file or directory\n")


def test_truncate_on_a_real_directory(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"0123456789")
    k = Kernel(cwd=str(tmp_path))
    assert k.execute("truncate -s 4 f; truncate -s +3 f").code == 0
    assert (tmp_path / "f").read_bytes() == b"0123\0\0\0"


# ------------------------------------------------------------------------- json


def test_json_shapes_of_cmp_cksum_and_strings() -> None:
    k = _k(**CMP_FILES, s=STR_DATA)
    assert json.loads(_run(k, "cmp --json c1 c2")[1]) == {"same": False, "byte": 6, "line": 2}
    assert json.loads(_run(k, "cmp --json c1 c1")[1]) == {"same": True}
    assert json.loads(_run(k, "cmp --json -l c1 c2")[1]) == [{"byte": 6, "a": 101, "b": 120}]
    assert json.loads(_run(k, "cksum --json c1")[1]) == [
        {"file": "c1", "crc": 2475781078, "size": 8}]
    assert json.loads(_run(k, "strings --json -n 12 s")[1]) == [
        {"file": "s", "offset": 20, "string": "longerstring"}]
    assert json.loads(_run(k, "sha224sum --json c3")[1])[0]["file"] == "c3"


def test_only_writers_declare_operations() -> None:
    def ops(name: str) -> set[str]:
        t = get_builtin(name)
        assert t is not None, name
        return set(t.schema.operations)

    for name in ("od", "cmp", "cksum", "sha224sum", "sha384sum", "b2sum", "strings"):
        assert ops(name) == set(), name
    for name in ("truncate", "xxd"):
        assert ops(name) == {"fs.create", "fs.overwrite"}, name
    r = Kernel.isolated().execute("truncate --help")
    assert "--size" in r.text_out()


# ------------------------------------------------------------------------- vs host


def _host(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} not installed")
    return path


DIFF_CASES = [
    ("od", "od b.bin"), ("od", "od -Ax -tx1 -c b.bin"), ("od", "od -Ad -t d1 -t u2 b.bin"),
    ("od", "od -An -t f4 -t f8 b.bin"), ("od", "od -ta -w8 b.bin"),
    ("od", "od -t d4 -t d8 -t u1 -t u4 -t o4 -t x8 b.bin"), ("od", "od -tx2z -tcz b.bin"),
    ("od", "od -j3 -N9 -c b.bin"), ("od", "od -w -tx1 b.bin"), ("od", "od --endian=big -x b.bin"),
    ("xxd", "xxd b.bin"), ("xxd", "xxd -g3 b.bin"), ("xxd", "xxd -g0 -c5 b.bin"),
    ("xxd", "xxd -i b.bin"), ("xxd", "xxd -p -c4 b.bin"),
    ("cmp", "cmp b.bin c.bin"), ("cmp", "cmp -lb b.bin c.bin"),
    ("cksum", "cksum b.bin c.bin"), ("strings", "strings -td -n2 b.bin"),
]


@pytest.mark.parametrize(("tool", "script"), DIFF_CASES)
def test_output_matches_the_host_tool(tool: str, script: str, tmp_path: Path) -> None:
    _host(tool)
    (tmp_path / "b.bin").write_bytes(BIN)
    (tmp_path / "c.bin").write_bytes(b"hellO World\n\x00\x02")
    host = subprocess.run(script, shell=True, cwd=tmp_path, capture_output=True, check=False)
    r = Kernel(cwd=str(tmp_path)).execute(script)
    assert (r.code, r.text_out()) == (host.returncode, host.stdout.decode("utf-8",
                                                                           "surrogateescape"))
