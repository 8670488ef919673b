"""The checksum tools: md5sum sha1sum sha256sum sha512sum (and, with --tag/-a, cksum
sha224sum sha384sum b2sum): sums, escaped names, --check lists and typed output. The
GNU pins are tests/conformance/pins/tools/{md5sum,sha1sum,sha256sum,sha512sum,cksum}.cases."""

from __future__ import annotations

import hashlib
from pathlib import Path

from harness_text import run as text_run
from harness_text import write


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
        {"file": "f", "hash": hashlib.md5(b"").hexdigest()}]
