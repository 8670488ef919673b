"""The `--json` output of every builtin checked against a JSON Schema of its natural shape,
and the effects every tool declares in `tools --json`.

Each builtin name in tysh.builtins.BUILTINS is either exercised below (one or more
scripts, each with the schema its JSON must satisfy) or listed in NO_JSON with the reason
it has no JSON form of its own; a test keeps the two tables covering every name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tysh.builtins import BUILTINS, all_builtins, get_builtin
from tysh.kernel.embed.kernel import Kernel

# ---------------------------------------------------------------- schema pieces

STR: dict[str, Any] = {"type": "string"}
INT: dict[str, Any] = {"type": "integer", "minimum": 0}
EMPTY: dict[str, Any] = {"const": ""}  # a silent command: its text, "" (DESIGN §5.3 rule 5)


def array(items: dict[str, Any], min_items: int = 1) -> dict[str, Any]:
    return {"type": "array", "items": items, "minItems": min_items}


def record(required: dict[str, Any], optional: dict[str, Any] | None = None,
           closed: bool = True) -> dict[str, Any]:
    """An object with these keys (required) and maybe those (optional), nothing else."""
    return {
        "type": "object",
        "required": sorted(required),
        "properties": {**required, **(optional or {})},
        "additionalProperties": not closed,
    }


LINES = array(STR)
NAMES = array(STR)
WC_COUNTS = {"lines": INT, "words": INT, "bytes": INT}
WC_ONE = record(WC_COUNTS)
WC_PATHS = array(record({**WC_COUNTS, "path": STR}), 1)
WC_MANY = array({"anyOf": [record({**WC_COUNTS, "path": STR}),
                           record({**WC_COUNTS, "total": {"const": True}})]}, 3)
HEAD_MANY = array(record({"path": STR, "lines": LINES}), 2)
GREP_MATCH = array(record({"path": STR, "line": {"type": "integer", "minimum": 1},
                           "text": STR}))
GREP_COUNT = array(record({"path": STR, "count": INT}))
GREP_NAMES = array(record({"path": STR}))
UNIQ_COUNT = array(record({"count": {"type": "integer", "minimum": 1}, "line": STR}))
ENTRY_TYPE = {"enum": ["file", "directory", "symlink", "fifo", "socket", "char", "block",
                        "unknown"]}
# the one file record (docs/embedding.md, "Typed values")
FILE = record({"path": STR, "name": STR, "type": ENTRY_TYPE}, {"size": INT}, closed=False)
LS_ENTRY = record({"path": STR, "name": STR, "type": ENTRY_TYPE, "size": INT}, closed=False)
LS_LONG = record({"path": STR, "name": STR, "type": ENTRY_TYPE, "size": INT, "mode": STR,
                  "permissions": STR, "mtime": {"type": "number"}}, closed=False)
STAT = array(record({"path": STR, "name": STR, "type": ENTRY_TYPE, "size": INT,
                     "mode": STR, "permissions": STR}, closed=False))
PARAM = record({"name": STR, "param_type": STR}, closed=False)
SCHEMA = record({"name": STR, "description": STR, "params": array(PARAM, 0)},
                {"operations": array(STR)}, closed=False)
TYPE_ENTRY = record({"name": STR, "kind": STR}, {"detail": {"type": ["string", "null"]}})
ENV = {"type": "object", "additionalProperties": STR, "required": ["HOME", "PATH"]}
NUMBERS = array({"type": "number"})

# ---------------------------------------------------------------- the cases

# (script, schema, exit status). The fixtures are made by `session` below.
SHAPES: dict[str, list[tuple[str, dict[str, Any], int]]] = {
    # text
    "cat": [("cat --json a.txt", LINES, 0)],
    "tac": [("tac --json a.txt", LINES, 0)],
    "rev": [("rev --json a.txt", LINES, 0)],
    "head": [("head --json -n 2 a.txt", LINES, 0),
             ("head --json -n 1 a.txt b.txt", HEAD_MANY, 0)],
    "tail": [("tail --json -n 2 a.txt", LINES, 0),
             ("tail --json -n 1 a.txt b.txt", HEAD_MANY, 0)],
    "wc": [("wc --json a.txt", WC_PATHS, 0), ("wc --json < a.txt", WC_ONE, 0),
           ("wc --json a.txt b.txt", WC_MANY, 0)],
    "sort": [("sort --json a.txt", LINES, 0)],
    "uniq": [("uniq --json a.txt", LINES, 0), ("sort a.txt | uniq -c --json", UNIQ_COUNT, 0)],
    "cut": [("cut --json -d' ' -f1 a.txt", LINES, 0)],
    "tr": [("tr --json a-z A-Z < a.txt", LINES, 0)],
    "seq": [("seq --json 3", NUMBERS, 0), ("seq --json 0.5 1 2", NUMBERS, 0)],
    "tee": [("tee --json t.txt < a.txt", LINES, 0)],
    "xargs": [("echo a b | xargs --json echo", STR, 0)],  # the commands' text
    "nl": [("nl --json a.txt", LINES, 0)],
    "paste": [("paste --json a.txt b.txt", LINES, 0)],
    "grep": [("grep -n --json a a.txt", GREP_MATCH, 0),
             ("grep --json b a.txt b.txt", GREP_MATCH, 0),
             ("grep -o --json b a.txt", GREP_MATCH, 0),
             ("grep -c --json b a.txt b.txt", GREP_COUNT, 0),
             ("grep -l --json b a.txt b.txt", GREP_NAMES, 0),
             ("grep -L --json b a.txt b.txt", GREP_NAMES, 0)],
    "egrep": [("egrep -n --json 'a|c' a.txt", GREP_MATCH, 0)],
    "fgrep": [("fgrep -n --json 'a 1' a.txt", GREP_MATCH, 0)],
    "sed": [("sed --json s/a/A/ a.txt", LINES, 0)],
    "awk": [("awk --json '{print $1}' a.txt", LINES, 0)],
    # posix
    "echo": [("echo --json hi there", {"const": "hi there"}, 0)],
    "printf": [("printf --json '%s-' a b", {"const": "a-b-"}, 0)],
    "sleep": [("sleep --json 0", EMPTY, 0)],
    "env": [("env --json", ENV, 0)],
    "timeout": [("timeout 5 seq --json 2", NUMBERS, 0)],  # the command's own JSON
    # meta
    "help": [("help --json cat", SCHEMA, 0)],
    "tools": [("tools --json", array(SCHEMA, 50), 0)],
    "mcp": [("mcp list --json", {"type": "array", "maxItems": 0}, 0)],
    "type": [("type --json cat cd", array(TYPE_ENTRY, 2), 0)],
    # files
    "ls": [("ls --json", array(LS_ENTRY, 3), 0), ("ls --json d", array(LS_ENTRY, 2), 0),
           ("ls -l --json", array(LS_LONG, 3), 0)],
    "find": [("find . -name '*.py' --json", array(FILE), 0)],
    "glob": [("glob --json '**/*.py'", array(FILE), 0)],
    "stat": [("stat --json a.txt", STAT, 0)],
    "basename": [("basename --json /x/b.txt .txt", {"const": "b"}, 0),
                 ("basename --json -a /x/b /y/c", array(STR, 2), 0)],
    "dirname": [("dirname --json /x/b.txt", {"const": "/x"}, 0),
                ("dirname --json /x/b /y/c", array(STR, 2), 0)],
    "realpath": [("realpath --json a.txt", STR, 0), ("realpath --json a.txt b.txt",
                                                      array(STR, 2), 0)],
    "mkdir": [("mkdir --json m1", EMPTY, 0)],
    "rmdir": [("rmdir --json d/e", EMPTY, 0)],
    "rm": [("rm --json b.txt", EMPTY, 0)],
    "patch": [("printf -- '--- b.txt\\n+++ b.txt\\n@@ -1 +1 @@\\n-x\\n+X\\n' | patch --json",
               array(record({"path": STR, "status": STR, "hunks": array(record(
                   {"hunk": INT, "status": STR, "line": INT},
                   {"offset": {"type": "integer"}, "fuzz": INT}), 0)},
                   {"rejects": STR})), 0)],
    # calc
    "expr": [("expr --json 3 + 4", INT, 0)],
    "bc": [("echo '1+2; 2^300' | bc --json", LINES, 0)],
    "factor": [("factor --json 12 13",
                array(record({"number": INT, "factors": array(INT, 0)})), 0)],
    "numfmt": [("numfmt --json --to=iec 2048 1", LINES, 0)],
    # bytes
    "cmp": [("cmp --json a.txt b.txt", record({"same": {"type": "boolean"}},
                                              {"byte": INT, "line": INT, "eof": STR}), 1),
            ("cmp --json a.txt a.txt", record({"same": {"type": "boolean"}},
                                              {"byte": INT, "line": INT, "eof": STR}), 0),
            ("cmp --json -l a.txt b.txt", array(record({"byte": INT, "a": INT, "b": INT})), 1)],
    "cksum": [("cksum --json a.txt", array(record({"path": STR, "crc": INT, "size": INT})), 0),
              ("cksum --json -a sha256 a.txt", array(record({"path": STR, "hash": STR})), 0)],
    **{n: [(f"{n} --json a.txt", array(record({"path": STR, "hash": STR})), 0)]
       for n in ("sha224sum", "sha384sum", "b2sum")},
    "strings": [("strings --json -n 3 a.txt",
                 array(record({"path": STR, "offset": INT, "string": STR})), 0)],
    "truncate": [("truncate --json -s 0 b.txt", array(record({"path": STR, "size": INT})), 0)],
    # archive
    "gzip": [("gzip -k a.txt; gzip --json -l a.txt.gz",
              array(record({"compressed": INT, "uncompressed": INT, "ratio": {"type": "number"},
                            "name": STR})), 0),
             ("gzip --json -k b.txt", EMPTY, 0)],
    "gunzip": [("gzip b.txt; gunzip --json b.txt.gz", EMPTY, 0)],
    "zcat": [("gzip -c b.txt > b.gz; zcat --json b.gz", STR, 0)],
    "tar": [("tar cf t.tar d; tar --json tf t.tar",
             array(record({"path": STR, "name": STR, "type": ENTRY_TYPE,
                           "size": INT, "mode": STR, "mtime": {"type": "number"}},
                          {"target": STR})), 0),
            ("tar --json cf t.tar d", array(record({"path": STR})), 0),
            ("tar cf t.tar d; mkdir o; tar --json xf t.tar -C o", array(record({"path": STR})), 0)],
    # misc
    "readlink": [("readlink --json -f a.txt", STR, 0)],
    "shuf": [("shuf --json b.txt", LINES, 0), ("shuf --json -i 1-3", NUMBERS, 0)],
    "join": [("join --json a.txt a.txt", array(array(STR)), 0)],
    "envsubst": [("envsubst -v --json '$A $B'", NAMES, 0)],
    "id": [("id --json", record({"uid": {"type": "integer"}, "user": STR,
                                 "gid": {"type": "integer"}, "group": STR,
                                 "groups": array(record({"id": {"type": "integer"},
                                                         "name": STR}))}), 0)],
    "tty": [("tty --json", record({"tty": {"type": ["string", "null"]}}), 1)],
    "nice": [("nice --json", {"type": "integer"}, 0)],
    "nohup": [("nohup seq --json 2", NUMBERS, 0)],  # the command's own JSON
    "cp": [("cp --json a.txt c.txt", EMPTY, 0)],
    "mv": [("mv --json a.txt c.txt", EMPTY, 0)],
    "touch": [("touch --json new.txt", EMPTY, 0)],
    "ln": [("ln --json -s a.txt link", EMPTY, 0)],
    # json
    "jq": [("jq --json .a < data.json", array({"type": "integer"}), 0)],
    "fromjson": [("fromjson --json '{\"a\":1}'", record({"a": {"const": 1}}), 0)],
    "tojson": [("tojson --json x", {"const": '"x"'}, 0)],
    "keys": [("keys --json '{\"a\":1,\"b\":2}'", {"const": ["a", "b"]}, 0)],
    "values": [("values --json '{\"a\":1}'", {"const": [1]}, 0)],
    "typeof": [("typeof --json 1", {"const": "string"}, 0)],
    "split": [("split --json a,b ,", {"const": ["a", "b"]}, 0)],
    # shell builtins with an output of their own
    "pwd": [("pwd --json", STR, 0)],
    "cd": [("cd --json d", EMPTY, 0)],
    "export": [("export --json A=1", EMPTY, 0)],
    "unset": [("unset --json A", EMPTY, 0)],
    "readonly": [("readonly --json R=1", EMPTY, 0)],
    "declare": [("declare --json D=1", EMPTY, 0)],
    "typeset": [("typeset --json D=1", EMPTY, 0)],
    "read": [("read --json x < a.txt", EMPTY, 0)],
    "mapfile": [("mapfile --json -t x < a.txt", EMPTY, 0)],
    "readarray": [("readarray --json -t x < a.txt", EMPTY, 0)],
    "wait": [("wait --json", EMPTY, 0)],
    "jobs": [("sleep 2 & jobs --json; kill %1",
              array(record({"number": {"type": "integer", "minimum": 1}, "pid": INT,
                            "state": STR, "status": {"type": ["integer", "null"]},
                            "current": {"enum": ["+", "-", None]}, "command": STR})), 0)],
    "disown": [("sleep 2 & disown --json; kill $!", EMPTY, 0)],
    "umask": [("umask --json", record({"mask": STR, "symbolic": STR}), 0)],
    "dirs": [("dirs --json", array(STR), 0)],
    "enable": [("enable --json -a", array(record({"name": STR, "enabled": {"type": "boolean"}}),
                                          50), 0)],
    "hash": [("hash -p /bin/x x; hash --json",
              array(record({"name": STR, "path": STR, "hits": INT})), 0)],
    "pushd": [("pushd --json d", array(STR, 2), 0)],
    "popd": [("pushd d >/dev/null; popd --json", array(STR), 0)],
    "ulimit": [("ulimit --json -n", array(record(
        {"option": STR, "name": STR, "unit": {"type": ["string", "null"]},
         "soft": {"type": ["integer", "null"]}, "hard": {"type": ["integer", "null"]}})), 0)],
    "times": [("times --json", record({k: {"type": "number"} for k in (
        "user", "system", "children_user", "children_system")}), 0)],
    "source": [("source --json empty.sh", EMPTY, 0)],
    ".": [(". --json empty.sh", EMPTY, 0)],
    # the utils family
    "diff": [("diff --json a.txt b.txt", array(record(
        {"old": STR, "new": STR, "hunks": array(record(
            {"old_start": INT, "old_count": INT, "new_start": INT, "new_count": INT,
             "lines": array(record({"tag": {"enum": ["-", "+", " "]}, "text": STR}))}))},
        {"binary": {"type": "boolean"}})), 1)],
    **{n: [(f"{n} --json a.txt", array(record({"path": STR, "hash": STR})), 0)]
       for n in ("md5sum", "sha1sum", "sha256sum", "sha512sum")},
    "du": [("du --json -b d", array(record({"path": STR, "size": INT})), 0)],
    "mktemp": [("mktemp --json -p .", record({"path": STR}), 0)],
    "date": [("date --json -d @0", record({"epoch": INT, "iso": STR}), 0)],
    "which": [("which --json cat", array(record({"name": STR, "kind": STR,
                                                 "path": {"type": ["string", "null"]}})), 0)],
    "tree": [("tree --json d", array({"type": "object", "required": ["type"]}, 2), 0)],
    "comm": [("comm --json b.txt b.txt", array(record({"column": {"enum": [1, 2, 3]},
                                                       "line": STR})), 0)],
    "column": [("column --json -t a.txt", array(array(STR)), 0),
               ("column --json a.txt", LINES, 0)],
    "printenv": [("printenv --json", ENV, 0), ("printenv --json HOME", record({"HOME": STR}), 0)],
    "nproc": [("nproc --json", {"type": "integer", "minimum": 1}, 0)],
    "uname": [("uname --json", record({k: STR for k in (
        "sysname", "nodename", "release", "version", "machine", "os")}), 0)],
    "whoami": [("whoami --json", STR, 0)],
    "hostname": [("hostname --json", STR, 0)],
}

# Builtins without a JSON form of their own, and why.
_RAW = "raw argv (DESIGN §4.3): every word is the tool's own, so --json is an operand"
_FLOW = "changes the shell's control flow or state; it prints nothing to shape"
NO_JSON: dict[str, str] = {
    "test": _RAW, "[": _RAW, ":": _RAW, "true": _RAW, "false": _RAW, "chmod": _RAW,
    "alias": _RAW, "unalias": _RAW, "kill": _RAW, "caller": _RAW,
    "complete": _RAW, "compgen": _RAW, "compopt": _RAW, "history": _RAW, "command": _RAW, "builtin": _RAW, "getopts": _RAW,
    "exit": _FLOW, "return": _FLOW, "break": _FLOW, "continue": _FLOW, "shift": _FLOW,
    "set": _FLOW, "local": "only inside a function; " + _FLOW,
    "eval": _RAW, "exec": _RAW, "trap": _RAW, "let": _RAW,
    "base64": "its output is the encoded (or decoded) data itself",
    "shopt": "prints bash's option table for scripts; tysh has one option, always on",
    "fold": "its output is the rewrapped text itself",
    "expand": "its output is the converted text itself",
    "unexpand": "its output is the converted text itself",
    "yes": "an endless stream of one line: there is no finished value to shape",
    "od": "its output is the dump itself",
    "xxd": "its output is the dump (or, with -r, the bytes) itself",
    "fmt": "its output is the refilled text itself",
}


def _cases() -> list[Any]:
    return [
        pytest.param(name, script, schema, code, id=f"{name}: {script}")
        for name, items in SHAPES.items()
        for script, schema, code in items
    ]


def session(tmp: Path) -> Kernel:
    (tmp / "a.txt").write_text("b 2\na 1\nb 2\nc 3\n")
    (tmp / "b.txt").write_text("x\ny\n")
    (tmp / "data.json").write_text('{"a": [1, 2]}\n')
    (tmp / "empty.sh").write_text("")
    (tmp / "d" / "e").mkdir(parents=True)
    (tmp / "d" / "f.py").write_text("")
    return Kernel(cwd=str(tmp))


@pytest.mark.parametrize(("name", "script", "schema", "code"), _cases())
def test_builtin_json_output_matches_its_shape(
    tmp_path: Path, name: str, script: str, schema: dict[str, Any], code: int
) -> None:
    res = session(tmp_path).execute(script)
    assert res.code == code, res.err
    assert "Traceback" not in res.err
    value = json.loads(res.text_out())
    jsonschema.validate(value, schema)


def test_every_builtin_has_a_json_shape_or_a_reason() -> None:
    names = {n for n in BUILTINS if get_builtin(n) is not None}
    covered = set(SHAPES) | set(NO_JSON)
    assert names - covered == set(), "builtins without a --json shape test"
    assert set(SHAPES) & set(NO_JSON) == set()
    assert covered - names == set(), "shapes for names that are not builtins"


def test_json_keeps_its_shape_when_a_file_is_missing(tmp_path: Path) -> None:
    res = session(tmp_path).execute("cat --json missing.txt b.txt")
    assert res.code == 1
    assert "cat: missing.txt: No such file or directory" in res.err
    jsonschema.validate(json.loads(res.text_out()), LINES)


def test_wc_json_counts_are_the_counts(tmp_path: Path) -> None:
    res = session(tmp_path).execute("wc --json a.txt b.txt")
    rows = json.loads(res.text_out())
    assert rows[0] == {"path": "a.txt", "lines": 4, "words": 8, "bytes": 16}
    assert rows[-1]["total"] is True and rows[-1]["lines"] == 6


def test_grep_json_gives_file_line_and_text(tmp_path: Path) -> None:
    res = session(tmp_path).execute("grep -n --json c a.txt")
    assert json.loads(res.text_out()) == [{"path": "a.txt", "line": 4, "text": "c 3"}]


def test_tee_json_still_writes_its_files(tmp_path: Path) -> None:
    res = session(tmp_path).execute("tee --json t.txt < b.txt")
    assert json.loads(res.text_out()) == ["x", "y"]
    assert (tmp_path / "t.txt").read_text() == "x\ny\n"


# ---------------------------------------------------------------- operations

# The effects a destructive tool must declare (it may declare more).
DESTRUCTIVE: dict[str, set[str]] = {
    "rm": {"fs.remove"}, "rmdir": {"fs.remove"}, "mv": {"fs.rename"},
    "cp": {"fs.overwrite"}, "tee": {"fs.overwrite"}, "sed": {"fs.overwrite"},
    "ln": {"fs.create"}, "chmod": {"fs.overwrite"},
    "sort": {"fs.overwrite"},  # sort -o
    "uniq": {"fs.overwrite"},  # uniq IN OUT
    "touch": {"fs.create"}, "mkdir": {"fs.create"},
    "xargs": {"proc.exec"}, "find": {"proc.exec", "fs.remove"}, "timeout": {"proc.exec"},
    "env": {"proc.exec"}, "command": {"proc.exec"},
    "awk": {"fs.overwrite", "fs.create", "proc.exec"},  # print > f, system()
    "gzip": {"fs.create", "fs.remove"}, "gunzip": {"fs.create", "fs.remove"},
    "tar": {"fs.create", "fs.overwrite"},
    "patch": {"fs.create", "fs.overwrite", "fs.remove"},
    "truncate": {"fs.create", "fs.overwrite"}, "xxd": {"fs.create", "fs.overwrite"},  # xxd IN OUT
    "shuf": {"fs.overwrite"},  # shuf -o
    "nohup": {"proc.exec"}, "nice": {"proc.exec"},
    "kill": {"proc.signal"}, "jobs": {"proc.exec"},  # jobs -x
}
KNOWN_OPERATIONS = {"fs.create", "fs.overwrite", "fs.remove", "fs.rename", "proc.exec",
                    "proc.signal", "net"}
READ_ONLY = {
    "cat", "tac", "rev", "head", "tail", "wc", "cut", "tr", "seq", "nl", "paste", "grep",
    "egrep", "fgrep",
    "ls", "glob", "stat", "basename", "dirname", "realpath", "jq", "fromjson", "tojson",
    "keys", "values", "typeof", "split", "echo", "printf", "help", "tools", "type", "pwd",
    "test", "[", "true", "false", ":", "sleep",
    "expr", "bc", "factor", "numfmt", "od", "cmp", "cksum", "sha224sum", "sha384sum", "b2sum",
    "strings", "zcat", "readlink", "join", "fmt", "envsubst", "id", "tty",
}


def _tools_json() -> dict[str, dict[str, Any]]:
    res = Kernel.isolated().execute("tools --json")
    assert res.code == 0, res.err
    return {t["name"]: t for t in json.loads(res.text_out())}


def test_tools_json_lists_the_operations_of_destructive_tools() -> None:
    listed = _tools_json()
    for name, ops in DESTRUCTIVE.items():
        assert ops <= set(listed[name].get("operations", ())), name


def test_read_only_tools_declare_no_operations() -> None:
    listed = _tools_json()
    for name in READ_ONLY:
        assert listed[name].get("operations", []) == [], name


def test_declared_operations_are_known_effect_ids() -> None:
    for t in all_builtins():
        assert set(t.schema.operations) <= KNOWN_OPERATIONS, t.name


# ---------------------------------------------------------------- declared by each family

def test_every_file_tool_declares_its_effects() -> None:
    ops = {n: get_builtin(n).schema.operations for n in  # type: ignore[union-attr]
           ("rm", "mv", "cp", "touch", "mkdir", "ln", "chmod", "find", "ls", "stat")}
    assert "fs.remove" in ops["rm"] and "fs.rename" in ops["mv"]
    assert {"fs.create", "fs.overwrite"} <= set(ops["cp"])
    assert "fs.create" in ops["touch"] and "fs.create" in ops["mkdir"]
    assert "proc.exec" in ops["find"]
    assert ops["ls"] == () and ops["stat"] == ()


def test_calc_tools_declare_no_operations() -> None:
    from tysh.builtins import get_builtin

    for name in ("expr", "bc", "factor", "numfmt"):
        t = get_builtin(name)
        assert t is not None and t.schema.operations == ()


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


def test_gzip_tools_declare_their_file_operations() -> None:
    ops = {n: set(t.schema.operations) for n in ("gzip", "gunzip", "zcat", "tar")
           if (t := get_builtin(n)) is not None}
    assert ops == {"gzip": {"fs.create", "fs.overwrite", "fs.remove"},
                   "gunzip": {"fs.create", "fs.overwrite", "fs.remove"},
                   "zcat": set(), "tar": {"fs.create", "fs.overwrite"}}


def test_nohup_nice_shuf_join_fmt_id_declare_their_operations() -> None:
    from tysh.builtins import get_builtin

    ops = {n: set(t.schema.operations) for n in ("nohup", "nice", "shuf", "join", "fmt", "id")
           if (t := get_builtin(n)) is not None}
    assert ops == {"nohup": {"proc.exec"}, "nice": {"proc.exec"}, "shuf": {"fs.overwrite"},
                   "join": set(), "fmt": set(), "id": set()}


# ---------------------------------------------------------------- typed output of the bytes family

CMP_FILES = {"c1": "abc\ndef\n", "c2": "abc\ndxf\nzz", "c3": "abc\n", "c4": ""}
STR_DATA = b"ab\x00hello\tworld\x01xyzw\x80longerstring\n\nabcd"


def _k(**files: bytes | str) -> Kernel:
    return Kernel.isolated(files=dict(files))


def _run(k: Kernel, script: str) -> tuple[int, str, str]:
    r = k.execute(script)
    return r.code, r.text_out(), r.err


def test_json_shapes_of_cmp_cksum_and_strings() -> None:
    k = _k(**CMP_FILES, s=STR_DATA)
    assert json.loads(_run(k, "cmp --json c1 c2")[1]) == {"same": False, "byte": 6, "line": 2}
    assert json.loads(_run(k, "cmp --json c1 c1")[1]) == {"same": True}
    assert json.loads(_run(k, "cmp --json -l c1 c2")[1]) == [{"byte": 6, "a": 101, "b": 120}]
    assert json.loads(_run(k, "cksum --json c1")[1]) == [
        {"path": "c1", "crc": 2475781078, "size": 8}]
    assert json.loads(_run(k, "strings --json -n 12 s")[1]) == [
        {"path": "s", "offset": 20, "string": "longerstring"}]
    assert json.loads(_run(k, "sha224sum --json c3")[1])[0]["path"] == "c3"
