"""The typed-value tools fromjson tojson keys values typeof split, run through the
binder and a kernel."""

from __future__ import annotations

from pathlib import Path

from harness_files_json import run

from tysh.builtins import get_builtin
from tysh.kernel.base.argv import Operand
from tysh.kernel.embed.kernel import Kernel


def _kernel(tmp: Path) -> Kernel:
    k = Kernel(cwd=str(tmp))
    k.execute("TZ=UTC")
    return k


def test_json_tools_declare_typed_substitution() -> None:
    for name in ("jq", "fromjson", "tojson", "keys", "values", "typeof", "split"):
        tool = get_builtin(name)
        assert tool is not None and tool.schema.typed_substitution, name


def test_fromjson_parses_operand_or_stdin_into_data(tmp_path: Path) -> None:
    r = run(["fromjson", '[1, {"a": 2}]'], tmp_path)
    assert (r.data, r.out) == ([1, {"a": 2}], '[1,{"a":2}]\n')
    assert run(["fromjson"], tmp_path, stdin='{"k": true}').data == {"k": True}
    bad = run(["fromjson", "{nope"], tmp_path)
    assert bad.code == 1 and "invalid JSON" in bad.err


def test_fromjson_keeps_numbers_finite_and_refuses_nan(tmp_path: Path) -> None:
    k = _kernel(tmp_path)
    r = k.execute("echo '[1e1000,-1e999,1.5]' | fromjson --json")
    assert (r.code, r.out) == (0, "[1.7976931348623157e+308,-1.7976931348623157e+308,1.5]\n")
    r = k.execute("fromjson '[NaN]'")
    assert r.code == 1 and "invalid JSON" in r.err


def test_tojson_encodes_words_as_strings_and_typed_values_as_json(tmp_path: Path) -> None:
    assert run(["tojson", 'say "hi"'], tmp_path).out == '"say \\"hi\\""\n'
    r = run(["tojson"], tmp_path, args=[Operand({"a": [1]})])
    assert (r.out, r.data) == ('{"a":[1]}\n', '{"a":[1]}')


def test_keys_values_typeof(tmp_path: Path) -> None:
    r = run(["keys", '{"b":1,"a":2}'], tmp_path)
    assert (r.out, r.data) == ("a\nb\n", ["a", "b"])
    assert run(["keys", "[5,6]"], tmp_path).data == [0, 1]
    r = run(["values", '{"a":1,"b":[2]}'], tmp_path)
    assert (r.out, r.data) == ("1\n[2]\n", [1, [2]])
    assert run(["typeof", "x"], tmp_path).out == "string\n"
    assert run(["typeof"], tmp_path, args=[Operand([1])]).data == "array"
    assert run(["typeof", "-j", "null"], tmp_path).out == "null\n"
    assert run(["keys", "3"], tmp_path).code == 1


def test_split_text_at_a_separator_or_whitespace(tmp_path: Path) -> None:
    r = run(["split", "a:b::c", ":"], tmp_path)
    assert (r.out, r.data) == ("a\nb\n\nc\n", ["a", "b", "", "c"])
    assert run(["split", " a  b "], tmp_path).data == ["a", "b"]
    assert run(["split", "-d", ","], tmp_path, stdin="x,y\n").data == ["x", "y"]
