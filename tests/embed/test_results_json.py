"""Results a model can take: JSON-safe text, plain JSON data."""

from __future__ import annotations

import json
from pathlib import Path

from tysh import Kernel


def test_text_and_json_replace_invalid_bytes_with_u_fffd() -> None:
    k = Kernel.isolated()
    r = k.execute(r"printf 'a\377b\n'; printf 'e\376\n' >&2")
    assert r.out == "a\udcffb\n"  # lossless, as before
    assert r.text() == "a\ufffdb\n"
    got = r.json()
    assert got == {"code": 0, "out": "a\ufffdb\n", "err": "e\ufffd\n", "data": None,
                   "truncated": False}
    json.dumps(got).encode("utf-8")  # encodes: no lone surrogates left


def test_data_is_plain_json_for_structured_output(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x")
    r = Kernel(str(tmp_path)).execute("ls")
    record = {"name": "a.txt", "path": "a.txt", "type": "file", "size": 1}
    assert r.data == [record]
    assert json.loads(json.dumps(r.json()))["data"] == [record]


def test_jq_data_is_plain_json(tmp_path: Path) -> None:
    (tmp_path / "j.json").write_text('{"a": [1, 2.0, "\\u00e9"]}')
    r = Kernel(str(tmp_path)).execute("jq .a j.json")
    assert r.data == [1, 2, "é"]
    assert type(r.data[1]) is int
