"""`tysh mcp` driven by the SDK's own client, over stdio and over streamable HTTP."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from remote import HttpServer, Remote, stdio

from tysh.builtins import get_builtin
from tysh.mcp.server import annotations_for


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("mcproot")
    (d / "notes.txt").write_text("alpha\nbeta\ngamma beta\n")
    (d / "sub").mkdir()
    (d / "sub" / "deep.txt").write_text("deep\n")
    return d


@pytest.fixture(scope="module", params=["stdio", "http"])
def remote(request: pytest.FixtureRequest, root: Path) -> Iterator[Remote]:
    args = ["--root", str(root), "--tools", "grep", "rm"]
    if request.param == "stdio":
        r = stdio(args)
        yield r
        r.close()
        return
    server = HttpServer(args)
    try:
        # the handshake era keeps one session (and so one kernel) across calls
        r = Remote(server.url, mode="legacy").wait_open()
        yield r
        r.close()
    finally:
        server.close()


def text(result: Any) -> str:
    return "".join(b.text for b in result.content)


def test_lists_the_shell_and_the_named_builtins_with_their_schemas(remote: Remote) -> None:
    tools = {t.name: t for t in remote.call(lambda c: c.list_tools()).tools}
    assert set(tools) == {"shell", "grep", "rm"}
    shell = tools["shell"]
    assert shell.input_schema["required"] == ["script"]
    assert set(shell.output_schema["properties"]) == {"code", "out", "err", "data", "truncated"}
    assert tools["grep"].input_schema == get_builtin("grep").input_schema()
    assert tools["grep"].annotations.read_only_hint is True
    assert tools["rm"].annotations.destructive_hint is True


def test_shell_keeps_variables_functions_and_cwd_across_calls(remote: Remote) -> None:
    first = remote.call(lambda c: c.call_tool(
        "shell", {"script": "v=kept; f() { echo \"f:$1\"; }; cd sub"}))
    assert not first.is_error
    r = remote.call(lambda c: c.call_tool("shell", {"script": "echo $v; f 1; cat deep.txt"}))
    assert text(r) == "kept\nf:1\ndeep\n"
    # the last command's typed value: cat's lines
    assert r.structured_content == {"code": 0, "out": "kept\nf:1\ndeep\n", "err": "",
                                    "data": ["deep"], "truncated": False}
    remote.call(lambda c: c.call_tool("shell", {"script": "cd .."}))


def test_shell_failure_is_a_tool_error_with_out_err_and_status(remote: Remote) -> None:
    r = remote.call(lambda c: c.call_tool(
        "shell", {"script": "echo out; echo err >&2; exit 3", "stdin": ""}))
    assert r.is_error
    assert text(r) == "out\nerr\nexit status 3\n"
    assert r.structured_content["code"] == 3


def test_shell_reads_the_given_stdin_and_honours_its_timeout(remote: Remote) -> None:
    r = remote.call(lambda c: c.call_tool("shell", {"script": "wc -l", "stdin": "a\nb\n"}))
    assert text(r).strip() == "2"
    r = remote.call(lambda c: c.call_tool("shell", {"script": "sleep 5", "timeout": 0.2}))
    assert r.structured_content["code"] == 124


def test_grep_runs_with_json_arguments(remote: Remote) -> None:
    r = remote.call(lambda c: c.call_tool(
        "grep", {"operands": ["beta", "notes.txt"], "line_number": True}))
    assert not r.is_error
    assert text(r) == "2:beta\n3:gamma beta\n"


def test_a_validation_error_lists_every_violation(remote: Remote) -> None:
    r = remote.call(lambda c: c.call_tool(
        "grep", {"operands": "beta", "count": "yes", "line_number": 3}))
    assert r.is_error
    lines = text(r).splitlines()
    assert 'grep: "operands" must be an array' in lines
    assert 'grep: "count" must be a boolean' in lines
    assert 'grep: "line_number" must be a boolean' in lines
    r = remote.call(lambda c: c.call_tool("shell", {"script": 1, "timeout": "x", "x": 0}))
    assert r.is_error
    assert text(r).splitlines() == ['shell: "script" must be a string',
                                    'shell: "timeout" must be a number',
                                    'shell: "x" is not a declared property']


def test_a_client_cancel_stops_sleep_30_within_a_second(remote: Remote, root: Path) -> None:
    async def go(c: Any) -> tuple[float, Any]:
        t0 = time.monotonic()
        try:
            async with asyncio.timeout(0.3):  # the SDK sends notifications/cancelled
                await c.call_tool("shell", {"script": "sleep 30; echo late > late.txt"})
        except TimeoutError:
            pass
        r = await c.call_tool("shell", {"script": "echo free"})
        return time.monotonic() - t0, r

    took, r = remote.call(go)
    assert text(r) == "free\n"
    assert took < 1.3  # 0.3 s before the cancel, then the session is free again
    assert not (root / "late.txt").exists()


def test_reads_a_file_under_the_root_as_a_resource(remote: Remote, root: Path) -> None:
    listed = remote.call(lambda c: c.list_resources())
    uris = {str(r.uri) for r in listed.resources}
    want = (root / "notes.txt").resolve().as_uri()
    assert want in uris
    assert (root / "sub" / "deep.txt").resolve().as_uri() in uris
    got = remote.call(lambda c: c.read_resource(want))
    assert got.contents[0].text == "alpha\nbeta\ngamma beta\n"


def test_a_resource_outside_the_root_is_refused(remote: Remote) -> None:
    from mcp.shared.exceptions import MCPError

    with pytest.raises(MCPError, match="not under the root"):
        remote.call(lambda c: c.read_resource("file:///etc/passwd"))


def test_every_builtins_annotations_follow_its_declared_operations() -> None:
    r = stdio(["--tools", "all", "--isolated"])
    try:
        tools = {t.name: t for t in r.call(lambda c: c.list_tools()).tools}
    finally:
        r.close()
    builtins = [n for n in tools if n != "shell"]
    assert len(builtins) > 100
    for name in builtins:
        ops = get_builtin(name).schema.operations
        hints = tools[name].annotations.model_dump(by_alias=True, exclude_none=True)
        assert hints == annotations_for(ops), name
    assert tools["rm"].annotations.destructive_hint
    assert tools["mv"].annotations.destructive_hint
    assert tools["xargs"].annotations.open_world_hint
    assert tools["grep"].annotations.read_only_hint
    assert not tools["mkdir"].annotations.read_only_hint
    assert not tools["mkdir"].annotations.destructive_hint
