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


# every tool with a typed value gives it without --json too: (script, its text, which
# must stay what it was); the value is the one --json gives
FILES = {"a.txt": "b\na\na\nc\n", "b.txt": "a 1\nb 2\n", "c.txt": "a x\nc y\n",
         "x": "a\nb\nd\n", "y": "b\nc\nd\n", "s.bin": "abc\0\0hello\0xyz1\n",
         "p.diff": "--- a.txt\n+++ a.txt\n@@ -1,2 +1,2 @@\n-b\n+B\n a\n"}
VALUED = [
    ("grep a a.txt", "a\na\n"),
    ("grep -n a a.txt c.txt", "a.txt:2:a\na.txt:3:a\nc.txt:1:a x\n"),
    ("grep -v a a.txt", "b\nc\n"),
    ("grep -o 'a x' c.txt", "a x\n"),
    ("grep -C1 x c.txt", "a x\nc y\n"),
    ("grep a < a.txt", "a\na\n"),
    ("grep -r ' y' .", "./c.txt:c y\n"),
    ("seq 3", "1\n2\n3\n"),
    ("seq 0.5 1 3", "0.5\n1.5\n2.5\n"),
    ("head -n2 a.txt", "b\na\n"),
    ("tail -n2 a.txt", "a\nc\n"),
    ("head -n1 a.txt c.txt", "==> a.txt <==\nb\n\n==> c.txt <==\na x\n"),
    ("uniq a.txt", "b\na\nc\n"),
    ("uniq -c a.txt", "      1 b\n      2 a\n      1 c\n"),
    ("join b.txt c.txt", "a 1 x\n"),
    ("shuf -i 1-3 --random-source=a.txt", "1\n2\n3\n"),
    ("column -t b.txt", "a  1\nb  2\n"),
    ("envsubst -v 'a $B'", "B\n"),
    ("env", "HOME=/home/user\nPATH=/usr/local/bin:/usr/bin:/bin\nPWD=/home/user\n"),
    ("awk '{print $1}' b.txt", "a\nb\n"),
    ("dirs", "~\n"),
    ("expr 1 + 2", "3\n"),
    ("factor 12 7", "12: 2 2 3\n7: 7\n"),
    ("bc <<< 2^70", "1180591620717411303424\n"),
    ("numfmt --to=iec 2048", "2.0K\n"),
    ("truncate -s 5 x.txt", ""),
    ("tree", ".\n├── a.txt\n├── b.txt\n├── c.txt\n├── p.diff\n├── s.bin\n├── x\n└── y\n"
             "\n1 directory, 7 files\n"),
    ("sed s/a/A/ a.txt", "b\nA\nA\nc\n"),
    ("date -u -d @0", "Thu Jan  1 00:00:00 UTC 1970\n"),
    ("id -u", "1000\n"),
    ("which ls", "ls\n"),
    ("uname -s", "Linux\n"),
    ("hostname", "localhost\n"),
    ("whoami", "user\n"),
    ("printenv HOME", "/home/user\n"),
    ("cmp a.txt c.txt", "a.txt c.txt differ: byte 1, line 1\n"),
    ("cmp -l a.txt c.txt", "1 142 141\n2  12  40\n3 141 170\n5 141 143\n6  12  40\n7 143 171\n"),
    ("comm x y", "a\n\t\tb\n\tc\n\t\td\n"),
    ("diff a.txt c.txt", "1,4c1,2\n< b\n< a\n< a\n< c\n---\n> a x\n> c y\n"),
    ("patch -p0 --dry-run < p.diff", "checking file a.txt\n"),
    ("strings -n 3 s.bin", "abc\nhello\nxyz1\n"),
    ("nice", "0\n"),
    ("tar cf t.tar a.txt b.txt", ""),
    ("tar cf t.tar a.txt; tar xf t.tar", ""),
    ("tar cf t.tar a.txt; tar tf t.tar", "a.txt\n"),
    ("cat a.txt", "b\na\na\nc\n"),
    ("tac a.txt", "c\na\na\nb\n"),
    ("rev a.txt", "b\na\na\nc\n"),
    ("nl a.txt", "     1\tb\n     2\ta\n     3\ta\n     4\tc\n"),
    ("sort a.txt", "a\na\nb\nc\n"),
    ("cut -c1 a.txt", "b\na\na\nc\n"),
    ("paste a.txt b.txt", "b\ta 1\na\tb 2\na\t\nc\t\n"),
    ("tr a b < a.txt", "b\nb\nb\nc\n"),
    ("tee o.txt < a.txt", "b\na\na\nc\n"),
]


@pytest.mark.parametrize(("script", "text"), VALUED)
def test_every_tool_with_a_value_gives_it_without_json_and_keeps_its_text(
        script: str, text: str) -> None:
    import json

    plain = Kernel.isolated(files=FILES).execute(script)
    with_json = Kernel.isolated(files=FILES).execute(_with_json(script))
    assert plain.out == text
    assert plain.code == with_json.code, (plain.err, with_json.err)
    assert plain.data == with_json.data
    assert plain.data not in (None, [], {}, "")
    json.dumps(plain.data, allow_nan=False)


def test_jobs_and_mktemp_give_the_value_json_would() -> None:
    k = Kernel.isolated()
    r = k.execute("sleep 5 & jobs")
    assert r.out == "[1]+  Running                 sleep 5 &\n"
    assert r.data == [{"number": 1, "pid": r.data[0]["pid"], "state": "Running",
                       "status": None, "current": "+", "command": "sleep 5"}]
    r = k.execute("mktemp")
    assert r.data == {"path": r.out.rstrip("\n")} and r.out.startswith("/tmp/tmp.")


def test_tar_create_and_extract_report_one_record_per_member() -> None:
    k = Kernel.isolated(files={"d/a.txt": "x\n", "d/b.txt": "y\n"})
    assert k.execute("tar cf t.tar d").data == [
        {"path": "d/"}, {"path": "d/a.txt"}, {"path": "d/b.txt"}]
    assert k.execute("mkdir o; tar xf t.tar -C o").data == [
        {"path": "d/"}, {"path": "d/a.txt"}, {"path": "d/b.txt"}]


def test_grep_numbers_the_lines_of_its_value_like_json_over_many_files() -> None:
    files = {f"d/{i}.txt": "".join(f"{j} {'hit' if j % 7 == 0 else 'miss'}\n"
                                   for j in range(1, 60)) for i in range(20)}
    k = Kernel.isolated(files=files)
    r = k.execute("grep -r hit d")
    assert r.data == k.execute("grep --json -r hit d").data
    assert len(r.data) == 20 * 8
    assert {rec["line"] for rec in r.data} == {7, 14, 21, 28, 35, 42, 49, 56}


def test_a_value_over_the_cap_is_absent_and_kept_memory_is_bounded(tmp_path: Path) -> None:
    """Past VALUE_BYTES of text (or VALUE_ITEMS computed items) a text-mode value is None
    (docs/embedding.md, "Typed values"), and what the command keeps for it stays
    bounded however long the stream is."""
    import tracemalloc

    from tysh.builtins._common.lines import VALUE_BYTES

    line = b"some line of text\n"
    (tmp_path / "big.txt").write_bytes(line * (3 * VALUE_BYTES // len(line)))
    (tmp_path / "small.txt").write_bytes(line * 100)
    k = Kernel(str(tmp_path))
    assert k.execute("cat small.txt > /dev/null").data == ["some line of text"] * 100
    peaks = []
    for script in ("cat big.txt > /dev/null", "sed s/some/any/ big.txt > /dev/null",
                   "grep line big.txt > /dev/null",
                   "cat big.txt big.txt big.txt | grep -v zzz > /dev/null",
                   "seq 1 300000 > /dev/null", "yes | head -c 27000000 | tr y z > /dev/null"):
        tracemalloc.start()
        try:
            r = k.execute(script)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        assert r.code == 0, (script, r.err)
        assert r.data is None, script
    # nothing on the order of the input (9 MiB, and 27 MiB through the pipe) is held
    assert max(peaks) < 6 * VALUE_BYTES, peaks


def test_only_the_last_stage_of_a_pipeline_is_told_its_value_can_be_read(
        tmp_path: Path) -> None:
    import attrs

    from tysh import Context, param, tool

    seen: list[tuple[str, bool]] = []

    @attrs.frozen(kw_only=True)
    class MarkArgs:
        label: str = param(positional=True, help="a label")

    @tool("mark", args=MarkArgs, description="note whether the value can be read")
    def mark(args: MarkArgs, ctx: Context) -> int:
        seen.append((args.label, ctx.keeps_value))
        ctx.stdout.write(ctx.stdin.read())
        return 0

    k = _tree(tmp_path)
    k.register(mark)
    assert k.execute("echo x | mark a | mark b | { mark c; } | mark d").code == 0
    assert sorted(seen) == [("a", False), ("b", False), ("c", False), ("d", True)]
    seen.clear()
    k.execute("mark alone </dev/null; yes | head -c 200000 | mark big | mark last")
    assert sorted(seen) == [("alone", True), ("big", False), ("last", True)]


def test_a_tool_told_its_value_cannot_be_read_copies_nothing() -> None:
    import io

    from tysh.builtins._common.lines import Kept

    out = io.BytesIO()
    kept = Kept(out, keep=False)
    kept.write(b"a\nb\n")
    assert out.getvalue() == b"a\nb\n"
    assert kept.buf is None and kept.text() is None
    kept = Kept(out)
    kept.write(b"c\n")
    assert kept.text() == "c\n"
