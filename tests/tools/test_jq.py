"""jq: libjq semantics with jq 1.6 output and exit codes, run through the binder. The
pins that are a command line and its output, checked against jq 1.6, are
tests/conformance/pins/tools/jq.cases."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import reference
from harness_files_json import run

from tysh.builtins.json.format import JsonWriter, jq_number
from tysh.kernel.embed.kernel import Kernel


def _kernel(tmp: Path) -> Kernel:
    k = Kernel(cwd=str(tmp))
    k.execute("TZ=UTC")
    return k


def jq(tmp_path: Path, *argv: str, stdin: str = "") -> tuple[int, str, str]:
    r = run(["jq", *argv], tmp_path, stdin=stdin)
    return r.code, r.out, r.err


# -- output format ----------------------------------------------------------------------

def test_jq_pretty_prints_with_two_spaces_and_keeps_key_order(tmp_path: Path) -> None:
    code, out, _ = jq(tmp_path, ".", stdin='{"b":[1,{}],"a":[]}')
    assert (code, out) == (0, '{\n  "b": [\n    1,\n    {}\n  ],\n  "a": []\n}\n')


def test_jq_compact_raw_and_join_output(tmp_path: Path) -> None:
    doc = '{"s":"text","o":{"k":1}}'
    assert jq(tmp_path, "-c", ".o", stdin=doc)[1] == '{"k":1}\n'
    assert jq(tmp_path, "-rc", ".s, .o", stdin=doc)[1] == 'text\n{"k":1}\n'
    assert jq(tmp_path, "-j", ".s, .s", stdin=doc)[1] == "texttext"


def test_jq_tab_indent_sort_keys_and_ascii(tmp_path: Path) -> None:
    doc = '{"b":1,"a":["é"]}'
    assert jq(tmp_path, "--tab", ".a", stdin=doc)[1] == '[\n\t"é"\n]\n'
    assert jq(tmp_path, "--indent", "1", "-S", ".", stdin=doc)[1] == (
        '{\n "a": [\n  "é"\n ],\n "b": 1\n}\n')
    assert jq(tmp_path, "-a", "-c", ".a", stdin=doc)[1] == '["\\u00e9"]\n'


def test_jq_keeps_unicode_unescaped(tmp_path: Path) -> None:
    assert jq(tmp_path, "-c", ".", stdin='{"city":"Zürich"}')[1] == '{"city":"Zürich"}\n'


@pytest.mark.parametrize(("value", "text"), [
    (1, "1"), (-0.0, "-0"), (1.5, "1.5"), (0.1, "0.1"), (1e-5, "1e-05"), (0.0001, "0.0001"),
    (1e16, "10000000000000000"), (1e17, "1e+17"), (10**23, "1e+23"),
    (12345678901234567890, "12345678901234567000"), (float("inf"), "1.7976931348623157e+308"),
    (1e100, "1e+100"), (1.234e-5, "1.234e-05"), (123456.789, "123456.789"),
])
def test_numbers_print_as_jq_1_6_does(value: float, text: str) -> None:
    assert jq_number(value) == text


def test_writer_escapes_del_like_jq() -> None:
    assert JsonWriter(indent=0).dumps(["a\x7f"]) == '["a\\u007f"]'


def test_jq_big_integers_in_output_use_double_format(tmp_path: Path) -> None:
    assert jq(tmp_path, "-c", ".", stdin="[100000000000000000000]")[1] == "[1e+20]\n"


# -- inputs -----------------------------------------------------------------------------

def test_jq_runs_the_program_on_every_value_of_the_stream(tmp_path: Path) -> None:
    assert jq(tmp_path, "-c", ".", stdin='{"a":1} {"a":2}\n[3]')[1] == '{"a":1}\n{"a":2}\n[3]\n'


def test_jq_reads_files_and_reports_missing_ones_with_status_2(tmp_path: Path) -> None:
    (tmp_path / "d.json").write_text('{"name":"ann"}\n')
    assert jq(tmp_path, ".name", "d.json")[1] == '"ann"\n'
    code, out, err = jq(tmp_path, ".", "nosuch.json", "d.json")
    assert code == 2 and "nosuch.json" in err and '"ann"' in out


def test_jq_slurp_null_input_and_raw_input(tmp_path: Path) -> None:
    assert jq(tmp_path, "-c", "-s", ".", stdin="1\n2\n3\n")[1] == "[1,2,3]\n"
    assert jq(tmp_path, "-n", "1 + 2", stdin="ignored")[1] == "3\n"
    assert jq(tmp_path, "-R", ".", stdin="l1\nl2\n")[1] == '"l1"\n"l2"\n'
    assert jq(tmp_path, "-Rs", ".", stdin="a\nb\n")[1] == '"a\\nb\\n"\n'


def test_jq_inputs_is_served_from_the_stream(tmp_path: Path) -> None:
    assert jq(tmp_path, "-nc", "[inputs]", stdin="1 2 3")[1] == "[1,2,3]\n"
    assert jq(tmp_path, "-c", "[., inputs]", stdin="1 2 3")[1] == "[1,2,3]\n"
    assert jq(tmp_path, "-n", "reduce inputs as $x (0; . + $x)", stdin="1 2 3")[1] == "6\n"


# -- variables --------------------------------------------------------------------------

def test_jq_arg_and_argjson_bind_variables(tmp_path: Path) -> None:
    assert jq(tmp_path, "-n", "--arg", "n", "5", '$n + "x"')[1] == '"5x"\n'
    assert jq(tmp_path, "-nc", "--argjson", "v", '{"a":[1,2]}', "$v.a[1] + 1, $v")[1] == (
        '3\n{"a":[1,2]}\n')
    assert jq(tmp_path, "-nc", "--arg", "a", "1", "--arg", "b", "2", "[$a, $b]")[1] == (
        '["1","2"]\n')


def test_jq_args_fill_ARGS_positional(tmp_path: Path) -> None:
    assert jq(tmp_path, "-nc", "--args", "$ARGS.positional", "x", "y")[1] == '["x","y"]\n'


def test_jq_env_is_the_sessions_not_the_process(tmp_path: Path) -> None:
    assert jq(tmp_path, "-nr", "$ENV.GREETING, env.GREETING")[1] == "hi\nhi\n"


# -- errors and exit codes --------------------------------------------------------------

def test_jq_runtime_error_reports_continues_and_exits_5(tmp_path: Path) -> None:
    code, out, err = jq(tmp_path, ".a", stdin='{"a":1} [1] {"a":2}')
    assert (code, out) == (5, "1\n2\n")
    assert "jq: error (at <stdin>:" in err and "Cannot index array" in err


def test_jq_outputs_before_an_error_in_the_same_value_are_kept(tmp_path: Path) -> None:
    code, out, _ = jq(tmp_path, ".[] | .a", stdin='[{"a":1}, 5]')
    assert (code, out) == (5, "1\n")


def test_jq_parse_error_prints_values_before_it_and_exits_2(tmp_path: Path) -> None:
    code, out, err = jq(tmp_path, ".a", stdin='{"a":1}\n{"a": \n')
    assert (code, out) == (2, "1\n")
    assert err.startswith("parse error: Unfinished JSON term at EOF at line 3")


def test_jq_compile_error_exits_3(tmp_path: Path) -> None:
    code, _, err = jq(tmp_path, ".a |", stdin="1")
    assert code == 3 and "compile error" in err


def test_jq_exit_status_flag(tmp_path: Path) -> None:
    assert jq(tmp_path, "-ne", "null")[0] == 1
    assert jq(tmp_path, "-ne", "false")[0] == 1
    assert jq(tmp_path, "-ne", "1")[0] == 0
    assert jq(tmp_path, "-ne", "empty")[0] == 4


def test_jq_optional_operator_suppresses_errors(tmp_path: Path) -> None:
    assert jq(tmp_path, "-c", ".a?", stdin='[1,2] "s" {"a":5}') == (0, "5\n", "")


def test_jq_halt_error_prints_its_message_and_code(tmp_path: Path) -> None:
    code, _, err = jq(tmp_path, "-n", '"bye\\n" | halt_error(3)')
    assert (code, err) == (3, "bye\n")


def test_jq_halt_error_prints_compact_json_and_nothing_for_null(tmp_path: Path) -> None:
    k = _kernel(tmp_path)
    r = k.execute_argv("jq", ["-n", '{"a":1} | halt_error(3)'])
    assert (r.code, r.err) == (3, '{"a":1}\n')
    r = k.execute_argv("jq", ["-n", "halt_error"])
    assert (r.code, r.err) == (5, "")


def test_jq_missing_file_message_is_jq_16s(tmp_path: Path) -> None:
    r = _kernel(tmp_path).execute_argv("jq", [".", "nofile.json"])
    assert (r.code, r.err) == (
        2, "jq: error: Could not open file nofile.json: No such file or directory\n")
    g = reference.run_tool(["jq", ".", "nofile.json"], tmp_path)
    if g is not None:
        assert g.err_text == r.err


def test_jq_refuses_modules_that_would_bypass_the_filesystem(tmp_path: Path) -> None:
    code, _, err = jq(tmp_path, 'include "x"; .', stdin="1")
    assert code == 3 and "modules" in err


# -- typed substitution and loading -----------------------------------------------------

def test_jq_data_is_the_output_value_or_the_list_of_values(tmp_path: Path) -> None:
    assert run(["jq", "-c", ".a"], tmp_path, stdin='{"a":[1,2]}').data == [1, 2]
    assert run(["jq", ".[]"], tmp_path, stdin='["x","y"]').data == ["x", "y"]
    assert run(["jq", "-r", ".[0]"], tmp_path, stdin='["x"]').data == "x"


def test_importing_the_json_family_does_not_load_libjq() -> None:
    code = ("import sys, tysh.builtins.json.jq, tysh.builtins.json.values; "
            "print('jq' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"
