"""MCP servers' tools as commands: a small SDK server (tests/mcp/srv_server.py)
connected to a kernel, its tools used in pipelines, and a server that dies mid-call."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from remote import SRV, stdio

from tysh import Kernel


@pytest.fixture(scope="module")
def k() -> Iterator[Kernel]:
    kernel = Kernel(mcp_servers={"srv": SRV})
    yield kernel
    kernel.close()


def test_a_tool_takes_positional_arguments_mapped_to_its_schema(k: Kernel) -> None:
    r = k.execute("srv add 2 3")
    assert (r.code, r.out, r.err) == (0, "5\n", "")


def test_structured_content_is_the_typed_data_in_a_pipeline(k: Kernel) -> None:
    r = k.execute("srv list_items --json | jq -r '.items[] | select(.size > 4) | .name'")
    assert (r.code, r.out) == (0, "avocado\nbanana\n")
    r = k.execute("srv list-items --prefix b --json")  # the command alias of list_items
    assert json.loads(r.out) == {"items": [{"name": "banana", "size": 7}], "count": 1}


def test_a_typed_substitution_holds_the_tools_structured_content(k: Kernel) -> None:
    r = k.execute("x=$(srv list_items a); echo \"$x\" | jq .count")
    assert r.out == "2\n"


def test_arguments_are_checked_against_the_schema_every_violation_listed(k: Kernel) -> None:
    r = k.execute("srv add --a x")
    assert r.code == 2
    assert sorted(r.err.splitlines()) == ['srv: "a" must be an integer',
                                          'srv: missing required property "b"']


def test_help_and_tools_json_show_the_servers_tools(k: Kernel) -> None:
    r = k.execute("help srv")
    assert "list_items (list-items)" in r.out and "add" in r.out
    r = k.execute("tools --json srv")
    subs = {s["name"] for s in json.loads(r.out)[0]["subcommands"]}
    assert subs == {"list_items", "add"}


def test_a_server_that_dies_mid_call_fails_the_command_and_the_kernel_goes_on() -> None:
    with Kernel(allow_external=True) as k:
        cmd = " ".join([*SRV, "--crash"])
        r = k.execute(f"mcp connect bad -- {cmd} && bad add 1 2; echo status=$?")
        assert r.out == "status=1\n"
        assert r.err.startswith("bad: add: the server closed the connection")
        r = k.execute("echo still here; mcp disconnect bad; type bad")
        assert r.out.startswith("still here\n")
        assert r.code == 1  # `bad` is gone


def test_mcp_list_and_disconnect(k: Kernel) -> None:
    r = k.execute("mcp list --json")
    assert json.loads(r.out)[0]["name"] == "srv"
    assert json.loads(r.out)[0]["tools"] == ["list_items", "add"]


def test_a_sandboxed_script_cannot_start_a_server() -> None:
    k = Kernel()
    r = k.execute(f"mcp connect x -- {' '.join(SRV)}")
    assert r.code == 1
    assert "external commands are disabled" in r.err
    assert k.execute("x add 1 2").code == 127


def test_connect_reports_a_program_that_cannot_start() -> None:
    with Kernel(allow_external=True) as k:
        r = k.execute("mcp connect nope -- /no/such/program")
        assert r.code == 1
        assert r.err.startswith("mcp: connect: nope: /no/such/program: ")


def test_tysh_mcp_proxies_a_connected_servers_tools_into_scripts() -> None:
    r = stdio(["--isolated", "--connect", "srv=" + " ".join(SRV)])
    try:
        got = r.call(lambda c: c.call_tool("shell", {"script": "srv add 40 2"}))
    finally:
        r.close()
    assert got.structured_content["out"] == "42\n"


def test_echo_hi_does_not_load_the_mcp_sdk() -> None:
    code = ("import sys; from tysh.cli import main; main(['-c', 'echo hi']); "
            "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', "
            "'tysh.mcp'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out == "hi\n[]\n"


def test_completion_offers_the_servers_tools_and_their_options(k: Kernel) -> None:
    from tysh.repl.complete import Engine

    engine = Engine(k)
    assert {c.text for c in engine.complete("sr")} >= {"srv"}
    tools = {c.text for c in engine.complete("srv ")}
    assert {"list_items", "add"} <= tools
    assert any(c.text.startswith("--prefix") for c in engine.complete("srv list_items --p"))


def test_a_repl_init_file_connects_a_server(tmp_path: Path) -> None:
    import shlex

    from tysh.repl.app import Shell

    init = tmp_path / "init.tysh"
    init.write_text(f"mcp connect srv -- {shlex.join(SRV)}\n")
    out = io.BytesIO()
    k = Kernel.repl(cwd=str(tmp_path))
    try:
        sh = Shell(k, {0: io.BytesIO(), 1: out, 2: io.BytesIO()}, color=False)
        sh.run_file(str(init))
        sh.run("srv add 20 22")
    finally:
        k.close()
    assert out.getvalue() == b"42\n"


def test_a_server_cannot_take_the_name_of_a_registered_tool() -> None:
    from tysh import ToolServerError

    k = Kernel(allow_external=True)
    k.register({"name": "mine", "inputSchema": {"type": "object"}}, lambda a, c: 0)
    with pytest.raises(ToolServerError, match="a registered tool has that name"):
        k.connect_mcp("mine", SRV)
    with pytest.raises(ToolServerError, match="a builtin has that name"):
        k.connect_mcp("ls", SRV)


def test_the_time_limit_cancels_a_call_waiting_on_a_server() -> None:
    import time

    from remote import TYSH

    # tysh mcp itself as the connected server: its `shell` tool is the command `t shell`
    with Kernel(mcp_servers={"t": [*TYSH, "--isolated"]}) as k:
        assert k.execute("t shell 'echo $((6 * 7))'").out == "42\n"
        t0 = time.monotonic()
        r = k.execute("t shell 'sleep 30'", timeout=0.5)
        took = time.monotonic() - t0
        assert r.code == 124
        assert took < 2
        # the server was told (notifications/cancelled): its session is free at once
        t0 = time.monotonic()
        assert k.execute("t shell 'echo free'").out == "free\n"
        assert time.monotonic() - t0 < 2


def test_connect_without_the_sdk_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)  # an import of mcp fails
    with Kernel(allow_external=True) as k:
        r = k.execute("mcp connect s -- some-server")
    assert r.code == 1
    assert "the MCP SDK is not installed (pip install 'tysh[mcp]')" in r.err
