"""Typed output: canonical text, JSON of each shape, ExecResult and the five
cases of apply_output_format."""

from __future__ import annotations

import base64
import json
from typing import Any

from tysh.kernel.tools.output import ExecResult, OutputData, OutputNode, apply_output_format

TREE = OutputData.tree([
    OutputNode("src", "directory", children=[
        OutputNode("a.py", "file"),
        OutputNode("lib", "directory", children=[OutputNode("b.py", "file")]),
    ]),
    OutputNode("README", "file"),
])


# -- canonical text ------------------------------------------------------------------


def test_simple_text_renders_as_its_text() -> None:
    assert OutputData.text("hello\n").to_text() == "hello\n"


def test_flat_list_renders_one_line_per_node_with_tab_separated_cells() -> None:
    d = OutputData.nodes([OutputNode("a", cells=[1, "x"]), OutputNode("b")])
    assert d.to_text() == "a\t1\tx\nb\n"


def test_table_renders_rows_without_headers() -> None:
    d = OutputData.table(["name", "size"], [["a", 3], ["b", 4.5]])
    assert d.to_text() == "a\t3\nb\t4.5\n"


def test_tree_renders_as_indented_lines() -> None:
    assert TREE.to_text() == "src\n  a.py\n  lib\n    b.py\nREADME\n"


def test_empty_output_renders_as_nothing() -> None:
    assert OutputData().to_text() == ""


# -- JSON ----------------------------------------------------------------------------


def test_json_of_simple_text_is_a_string() -> None:
    assert OutputData.text("hi").to_json() == "hi"


def test_json_of_a_flat_list_is_an_array_of_names() -> None:
    assert OutputData.nodes([OutputNode("a"), OutputNode("b")]).to_json() == ["a", "b"]


def test_json_of_a_table_is_objects_keyed_by_headers_first_header_is_the_name() -> None:
    d = OutputData.table(["name", "size", "kind"], [["a", 3, "f"], ["b", 4]])
    assert d.to_json() == [{"name": "a", "size": 3, "kind": "f"},
                           {"name": "b", "size": 4, "kind": None}]


def test_json_of_a_tree_is_nested_objects() -> None:
    assert TREE.to_json() == [
        {"name": "src", "type": "directory", "children": [
            {"name": "a.py", "type": "file"},
            {"name": "lib", "type": "directory", "children": [{"name": "b.py", "type": "file"}]},
        ]},
        {"name": "README", "type": "file"},
    ]


def test_json_of_empty_output_is_an_empty_array() -> None:
    assert OutputData().to_json() == []
    assert OutputData.table(["a"], []).to_json() == []


def test_rich_json_wins_over_every_shape() -> None:
    d = OutputData.text("3 7 42", rich_json={"lines": 3, "words": 7, "bytes": 42})
    assert d.to_json() == {"lines": 3, "words": 7, "bytes": 42}
    assert d.to_text() == "3 7 42"


# -- ExecResult ----------------------------------------------------------------------


def test_err_is_empty_or_ends_with_exactly_one_newline() -> None:
    assert ExecResult(err="boom").err == "boom\n"
    assert ExecResult(err="boom\n\n").err == "boom\n"
    assert ExecResult(err="").err == ""
    r = ExecResult()
    r.err = "x"
    assert r.err == "x\n"


def test_text_out_is_out_else_the_canonical_text_of_output() -> None:
    assert ExecResult(out="a\n", output=OutputData.text("b")).text_out() == "a\n"
    assert ExecResult(output=OutputData.nodes([OutputNode("x")])).text_out() == "x\n"
    assert ExecResult(out=b"\xff").text_out() == "\udcff"


# -- apply_output_format -----------------------------------------------------------------


def test_format_text_mode_leaves_the_result_alone() -> None:
    r = ExecResult(out="x\n")
    assert apply_output_format(r, False) is r


def test_format_case1_bytes_become_a_base64_envelope() -> None:
    r = apply_output_format(ExecResult(out=b"\x00\xff"), True)
    assert json.loads(r.out) == {"_type": "bytes", "encoding": "base64",
                                 "data": base64.b64encode(b"\x00\xff").decode(), "len": 2}


def test_format_case2_a_bare_failure_becomes_an_error_object_and_keeps_stderr() -> None:
    r = apply_output_format(ExecResult(code=2, err="head: bad\n"), True)
    assert json.loads(r.out) == {"error": "head: bad", "code": 2}
    assert r.err == "head: bad\n" and r.code == 2


def test_format_case3_output_wins_over_data_and_is_cleared() -> None:
    r = apply_output_format(ExecResult(output=OutputData.nodes([OutputNode("a")]),
                                       data={"x": 1}), True)
    assert json.loads(r.out) == ["a"] and r.output is None and r.data == ["a"]


def test_format_case4_data_becomes_its_json() -> None:
    r = apply_output_format(ExecResult(data={"a": [1, 2.0]}), True)
    assert r.out == '{"a":[1,2]}\n'


def test_format_case5_plain_text_becomes_a_json_string() -> None:
    r = apply_output_format(ExecResult(out="hi\n"), True)
    assert json.loads(r.out) == "hi\n"


def test_format_leaves_a_successful_owned_output_alone() -> None:
    r = ExecResult(out='{"mine":1}\n')
    assert apply_output_format(r, True, owns_output=True) is r


def test_format_wraps_a_failed_owned_output() -> None:
    r = apply_output_format(ExecResult(code=1, err="x: no\n"), True, owns_output=True)
    assert json.loads(r.out) == {"error": "x: no", "code": 1}


def test_empty_structured_output_of_a_failure_becomes_an_error_record() -> None:
    res = apply_output_format(
        ExecResult(code=1, out="", err="cat: x: No such file or directory\n",
                   output=OutputData.nodes([], rich_json=[])),
        True,
    )
    assert res.data == {"error": "cat: x: No such file or directory", "code": 1}


def test_json_failure_of_a_builtin_reports_its_message_and_code(tmp_path: Any) -> None:
    from tysh.kernel.embed.kernel import Kernel

    r = Kernel(cwd=str(tmp_path)).execute("cat --json missing.txt")
    assert r.code == 1
    assert r.err == "cat: missing.txt: No such file or directory\n"
    assert json.loads(r.out) == {"error": "cat: missing.txt: No such file or directory",
                                 "code": 1}


def test_a_streamed_value_has_no_text_of_its_own_and_one_shared_node() -> None:
    from tysh.kernel.tools.output import STREAMED

    a, b = OutputData.value(lambda: ["x"]), OutputData.value(lambda: None)
    assert a.root is STREAMED and b.root is STREAMED
    assert (a.to_text(), a.is_simple_text(), a.headers) == ("", True, None)
    assert a.rich_json() == ["x"]


def test_a_tool_whose_value_is_streamed_writes_its_text_once_and_a_renderer_sees_it(
        tmp_path: Any) -> None:
    from tysh.kernel.embed.kernel import Kernel

    (tmp_path / "in.txt").write_text("b\na\n")
    k = Kernel(cwd=str(tmp_path))
    r = k.execute("cat in.txt; head -n 1 in.txt; uniq in.txt")
    assert (r.out, r.data) == ("b\na\nb\nb\na\n", ["b", "a"])
    seen: list[tuple[str, Any]] = []

    def hook(kind: str, value: Any, stdout: Any) -> bool:
        seen.append((kind, value))
        return False

    k.registry.render_output = hook
    assert k.execute("cat in.txt").out == "b\na\n"  # not a terminal: the hook is not asked
    assert seen == []
