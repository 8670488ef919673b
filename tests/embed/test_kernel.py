"""Kernel: the embedding API."""

from __future__ import annotations

import io
from pathlib import Path

import attrs

from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, tool


@attrs.frozen
class GreetArgs:
    name: str = param(positional=True, help="who")
    shout: bool = param(False, aliases=["-s"], help="upper-case")


@tool("greet", args=GreetArgs, description="say hello")
def greet(args: GreetArgs, ctx: Context) -> int:
    text = f"hello {args.name}"
    ctx.write((text.upper() if args.shout else text) + "\n")
    return 0


@tool("pairs", description="a table", typed_substitution=True)
def pairs(args: object, ctx: Context) -> Outcome:
    return Outcome(0, OutputData.table(["k", "v"], [["a", 1], ["b", 2]]), {"a": 1, "b": 2})


def test_execute_returns_code_out_err(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    r = k.execute("echo out; echo err >&2; false")
    assert (r.code, r.out, r.err) == (1, "out\n", "err\n")


def test_execute_never_raises_on_syntax_error(tmp_path: Path) -> None:
    r = Kernel(cwd=str(tmp_path)).execute("if then fi fi")
    assert r.code == 2 and r.err.startswith("tysh: syntax error at ")


def test_stdin_is_fed_to_the_script(tmp_path: Path) -> None:
    r = Kernel(cwd=str(tmp_path)).execute("read -r x; echo got $x", stdin=b"data\n")
    assert r.out == "got data\n"


def test_binary_output_on_request(tmp_path: Path) -> None:
    r = Kernel(cwd=str(tmp_path)).execute("echo hi", binary=True)
    assert r.out == b"hi\n"


def test_externals_are_off_by_default(tmp_path: Path) -> None:
    r = Kernel(cwd=str(tmp_path), env={"PATH": "/usr/bin:/bin"}).execute("ls")
    # ls may be a builtin; an unmistakably external name must not be found
    r = Kernel(cwd=str(tmp_path), env={"PATH": "/usr/bin:/bin"}).execute("hostid")
    assert r.code == 127 and "command not found" in r.err


def test_externals_run_with_only_exported_env(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), env={"PATH": "/usr/bin:/bin"}, allow_external=True)
    r = k.execute("A=1; export B=2; C=3 /bin/sh -c 'echo ${A-unset} $B $C'")
    assert r.out == "unset 2 3\n"


def test_external_gets_session_cwd(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    k = Kernel(cwd=str(tmp_path), env={"PATH": "/usr/bin:/bin"}, allow_external=True)
    assert k.execute("cd d; /bin/pwd").out == f"{tmp_path}/d\n"


def test_external_in_pipeline_with_builtins(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path), env={"PATH": "/usr/bin:/bin"}, allow_external=True)
    r = k.execute("echo b; echo a | /usr/bin/tr a-z A-Z")
    assert r.out == "b\nA\n"


def test_external_not_executable_is_126(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    k = Kernel(cwd=str(tmp_path), env={"PATH": "/usr/bin:/bin"}, allow_external=True)
    assert k.execute("./f").code == 126


def test_register_tool_and_run_it(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    k.register(greet)
    assert k.execute("greet world -s").out == "HELLO WORLD\n"
    assert k.schema("greet").name == "greet"
    assert any(t.name == "greet" for t in k.tools())


def test_bind_error_is_status_2_with_message(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    k.register(greet)
    r = k.execute("greet --bogus x")
    assert r.code == 2 and "greet" in r.err


def test_help_flag_prints_help_and_status_0(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    k.register(greet)
    r = k.execute("greet --help")
    assert r.code == 0 and "greet" in r.out


def test_output_data_renders_text_or_json(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    k.register(pairs)
    assert k.execute("pairs").out == "a\t1\nb\t2\n"
    assert k.execute("pairs --json").out == '[{"k":"a","v":1},{"k":"b","v":2}]\n'


def test_text_written_by_tool_becomes_json_string_under_json(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    k.register(greet)
    assert k.execute("greet x --json").out == '"hello x\\n"\n'


def test_typed_substitution_binds_data(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    k.register(pairs)
    assert k.execute('x=$(pairs); echo "${x[b]}"').out == "2\n"


def test_execute_result_carries_last_data(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    k.register(pairs)
    assert k.execute("pairs").data == {"a": 1, "b": 2}


def test_execute_argv_does_no_expansion(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    r = k.execute_argv("echo", ["$HOME", "*"])
    assert r.out == "$HOME *\n"


def test_session_keeps_cwd_and_options(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    k = Kernel(cwd=str(tmp_path))
    k.execute("cd x; set -e")
    assert k.execute("pwd").out == f"{tmp_path}/x\n"
    assert "errexit" in k.state.options


def test_exit_ends_the_script_but_not_the_kernel(tmp_path: Path) -> None:
    k = Kernel(cwd=str(tmp_path))
    r = k.execute("echo a; exit 4; echo b")
    assert (r.code, r.out) == (4, "a\n")
    assert k.execute("echo again").out == "again\n"


def test_kernel_does_not_read_os_environ(tmp_path: Path, monkeypatch: object) -> None:
    import os

    os.environ["TYSH_SHOULD_NOT_LEAK"] = "1"
    try:
        r = Kernel(cwd=str(tmp_path), env={}).execute('echo "[${TYSH_SHOULD_NOT_LEAK-}]"')
        assert r.out == "[]\n"
    finally:
        del os.environ["TYSH_SHOULD_NOT_LEAK"]


def test_parse_returns_ast(tmp_path: Path) -> None:
    from tysh.kernel.syntax import ast

    assert isinstance(Kernel(cwd=str(tmp_path)).parse("echo hi"), ast.Script)


def test_run_streams_to_given_fds(tmp_path: Path) -> None:
    out = io.BytesIO()
    code = Kernel(cwd=str(tmp_path)).run("echo streamed", {0: io.BytesIO(), 1: out, 2: io.BytesIO()})
    assert code == 0 and out.getvalue() == b"streamed\n"


def test_set_n_reads_the_rest_of_its_script_but_never_outlives_it() -> None:
    k = Kernel.isolated()
    r = k.execute("echo before; set -n; echo skipped")
    assert (r.code, r.out) == (0, "before\n")
    assert k.execute("echo after; echo $-").out.startswith("after\n")
    assert "n" not in k.execute("echo $-").out


def test_a_script_is_str_or_bytes_and_anything_else_is_a_type_error() -> None:
    import pytest

    k = Kernel.isolated()
    r = k.execute(b"printf '%s' hi\xff | od -An -tx1")
    assert r.out.split() == ["68", "69", "ff"]
    for bad in (None, 3, ["echo"]):
        with pytest.raises(TypeError, match="must be str or bytes"):
            k.execute(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="argv must be a list"):
        k.execute_argv("echo", None)  # type: ignore[arg-type]
    assert k.execute("echo ok").out == "ok\n"
