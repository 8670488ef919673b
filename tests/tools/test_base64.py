"""base64: wrapping, round trips and invalid input (the GNU pins are
tests/conformance/pins/tools/base64.cases)."""

from __future__ import annotations

from pathlib import Path

from harness_text import run as text_run


def test_base64_wraps_at_76_and_round_trips_bytes(tmp_path: Path) -> None:
    data = bytes(range(256)) * 3
    enc = text_run(["base64"], tmp_path, stdin=data).out
    assert max(len(x) for x in enc.splitlines()) == 76 and enc.endswith(b"\n")
    assert text_run(["base64", "-d"], tmp_path, stdin=enc).out == data
    assert text_run(["base64", "-w", "0"], tmp_path, stdin=b"hi").out == b"aGk="


def test_base64_decode_invalid_input_fails_after_the_valid_part(tmp_path: Path) -> None:
    r = text_run(["base64", "-d"], tmp_path, stdin=b"aGk=!!!!")
    assert (r.code, r.out, r.err) == (1, b"hi", "base64: invalid input\n")
    assert text_run(["base64", "-d", "-i"], tmp_path, stdin=b"aG!k=").out == b"hi"
