"""The checksum tools: md5sum sha1sum sha256sum sha512sum (and, with --tag/-a, cksum
sha224sum sha384sum b2sum): sums, escaped names, --check lists and typed output. The
GNU pins are tests/conformance/pins/tools/{md5sum,sha1sum,sha256sum,sha512sum,cksum}.cases."""

from __future__ import annotations

import hashlib
from pathlib import Path

from harness_text import run as text_run
from harness_text import write

from tysh.kernel.embed.kernel import Kernel


def test_sha256sum_prints_hash_and_name(tmp_path: Path) -> None:
    write(tmp_path, "f", "hi\n")
    want = hashlib.sha256(b"hi\n").hexdigest()
    assert text_run(["sha256sum", "f"], tmp_path).text == f"{want}  f\n"
    assert text_run(["md5sum", "-b"], tmp_path, stdin="hi\n").text == (
        hashlib.md5(b"hi\n").hexdigest() + " *-\n")


def test_sha256sum_missing_file_reports_and_continues(tmp_path: Path) -> None:
    write(tmp_path, "f", "x")
    r = text_run(["sha1sum", "nope", "f"], tmp_path)
    assert r.code == 1 and r.err == "sha1sum: nope: No such file or directory\n"
    assert r.text.endswith("  f\n")


def test_checksum_escapes_backslash_and_newline_names(tmp_path: Path) -> None:
    write(tmp_path, "a\\b", "x")
    assert text_run(["md5sum", "a\\b"], tmp_path).text.startswith("\\")
    assert text_run(["md5sum", "a\\b"], tmp_path).text.endswith("  a\\\\b\n")


def test_check_reports_ok_failed_and_summary(tmp_path: Path) -> None:
    write(tmp_path, "f", "hi\n")
    good = hashlib.sha256(b"hi\n").hexdigest()
    write(tmp_path, "sums", f"{good}  f\n{'0' * 64}  f\n")
    r = text_run(["sha256sum", "-c", "sums"], tmp_path)
    assert (r.code, r.text) == (1, "f: OK\nf: FAILED\n")
    assert r.err == "sha256sum: WARNING: 1 computed checksum did NOT match\n"
    assert text_run(["sha256sum", "-c", "--quiet", "sums"], tmp_path).text == "f: FAILED\n"
    s = text_run(["sha256sum", "-c", "--status", "sums"], tmp_path)
    assert (s.code, s.text, s.err) == (1, "", "")


def test_check_reads_bsd_tag_lines(tmp_path: Path) -> None:
    write(tmp_path, "f", "hi\n")
    tagged = text_run(["sha512sum", "--tag", "f"], tmp_path).text
    write(tmp_path, "sums", tagged)
    assert text_run(["sha512sum", "-c", "sums"], tmp_path).text == "f: OK\n"


def test_checksum_json_lists_file_and_hash(tmp_path: Path) -> None:
    write(tmp_path, "f", "")
    assert text_run(["md5sum", "--json", "f"], tmp_path).json() == [
        {"path": "f", "hash": hashlib.md5(b"").hexdigest()}]


# -- cksum, sha224sum, sha384sum, b2sum --------------------------------------------------

def _k(**files: bytes | str) -> Kernel:
    return Kernel.isolated(files=dict(files))


def _run(k: Kernel, script: str) -> tuple[int, str, str]:
    r = k.execute(script)
    return r.code, r.text_out(), r.err


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
