"""The one file-record layout and `r.data` with or without `--json` (docs/embedding.md,
"Typed values")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tysh import Kernel

TYPES = {"file", "directory", "symlink", "fifo", "socket", "char", "block", "unknown"}


def _tree(tmp_path: Path) -> Kernel:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "b.txt").write_text("x y z\n")
    (tmp_path / "a.txt").write_text("hello\n")
    (tmp_path / "l").symlink_to("a.txt")
    return Kernel(str(tmp_path))


# every tool that reports files: its --json is a list of records with a "path" as the
# text shows it; the listings add "name", "type" (one vocabulary) and "size"
LISTINGS = ["ls", "ls -l", "ls -R", "find .", "find . -type f -printf '%s\\n'", "glob '*'",
            "stat a.txt d l", "tar cf t.tar d; tar tf t.tar"]
PATH_RECORDS = ["du -a", "grep -r x", "grep -rc x", "grep -rl x", "grep -rL x",
                "wc a.txt d/b.txt", "md5sum a.txt", "cksum a.txt", "head -n1 a.txt d/b.txt",
                "strings a.txt"]


def _with_json(script: str) -> str:
    head, _, last = script.rpartition("; ")
    name, _, rest = last.partition(" ")
    return f"{head}; " * bool(head) + f"{name} --json {rest}"


@pytest.mark.parametrize("script", LISTINGS + PATH_RECORDS)
def test_every_file_reporting_tool_uses_the_one_record_layout(
        tmp_path: Path, script: str) -> None:
    r = _tree(tmp_path).execute(_with_json(script))
    assert r.code == 0, r.err
    value = r.data
    assert isinstance(value, list) and value
    for rec in value:
        if rec.get("total"):
            continue
        assert isinstance(rec["path"], str) and rec["path"]
        assert "file" not in rec and "bytes" not in rec or script.startswith("wc")
        if script in LISTINGS:
            assert isinstance(rec["name"], str) and rec["name"]
            assert rec["type"] in TYPES
            assert rec["path"].rstrip("/").endswith(rec["name"])
            if "size" in rec:
                assert isinstance(rec["size"], int) and rec["size"] >= 0


@pytest.mark.parametrize("script", [
    "ls", "ls -l", "find .", "find . -name '*.txt'", "du", "du -sh d", "stat a.txt",
    "stat -c %s a.txt", "wc a.txt d/b.txt", "wc -l a.txt", "grep -rc x", "grep -rl x",
    "md5sum a.txt", "glob '*.txt'",
])
def test_data_is_the_typed_value_without_json_and_text_is_unchanged(
        tmp_path: Path, script: str) -> None:
    k = _tree(tmp_path)
    text = k.execute(script)
    with_json = k.execute(_with_json(script))
    assert text.code == with_json.code == 0
    assert text.data == with_json.data and text.data
    assert not text.out.lstrip().startswith(("[", "{"))


def test_find_records_name_type_and_size(tmp_path: Path) -> None:
    r = _tree(tmp_path).execute("find . -name 'l' -o -name 'd' -o -name 'a.txt'")
    by_path = {rec["path"]: rec for rec in r.data}
    assert by_path["./a.txt"] == {"path": "./a.txt", "name": "a.txt", "type": "file",
                                  "size": 6}
    assert by_path["./d"]["type"] == "directory" and by_path["./l"]["type"] == "symlink"
    assert r.out == "./a.txt\n./d\n./l\n" or sorted(r.out.split()) == sorted(by_path)


def test_du_size_is_the_number_the_text_shows(tmp_path: Path) -> None:
    r = _tree(tmp_path).execute("du -b -s d")
    size, path = r.out.split("\t")
    assert r.data == [{"path": "d", "size": int(size)}] and path == "d\n"


def test_a_text_only_command_after_a_typed_one_has_no_value(tmp_path: Path) -> None:
    k = _tree(tmp_path)
    assert k.execute("ls; echo hi").data is None
    assert k.execute("echo hi; ls").data is not None


def test_the_value_is_built_only_when_read(tmp_path: Path) -> None:
    calls: list[int] = []
    k = _tree(tmp_path)
    r = k.execute("du -s d")
    raw: Any = r.raw_data
    real = raw.rich_json
    assert callable(real)

    def counting() -> Any:
        calls.append(1)
        return real()

    object.__setattr__(raw, "rich_json", counting)
    assert calls == []
    assert r.data == r.data and calls == [1]


def test_data_is_plain_json_values(tmp_path: Path) -> None:
    import json

    k = _tree(tmp_path)
    (tmp_path / "bad\udcff".encode("utf-8", "surrogateescape").decode("utf-8", "replace")
     ).write_text("")
    for script in ("ls", "find .", "stat a.txt", "jq -n '{a: [1, 2.5, null]}'"):
        json.dumps(k.execute(script).data, allow_nan=False)
