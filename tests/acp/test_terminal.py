"""tysh as an ACP client's terminal, driven by a real ACP agent (terminal_agent.py, built
with the SDK) over a stdio connection."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("acp")

from acp import PROTOCOL_VERSION, text_block  # noqa: E402
from acp.schema import ToolCallProgress, ToolCallStart  # noqa: E402
from acp.stdio import spawn_agent_process  # noqa: E402

from tysh.acp.terminal import TyshClient  # noqa: E402

AGENT = str(Path(__file__).with_name("terminal_agent.py"))


def drive(root: Path, steps: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[Any]]:
    events: list[Any] = []

    async def main() -> list[dict[str, Any]]:
        client = TyshClient(str(root), on_event=lambda sid, u: events.append((sid, u)))
        try:
            async with spawn_agent_process(client, sys.executable, AGENT) as (conn, _proc):
                await conn.initialize(protocol_version=PROTOCOL_VERSION)
                session = await conn.new_session(cwd=str(root), mcp_servers=[])
                resp = await conn.prompt(session_id=session.session_id,
                                         prompt=[text_block(json.dumps(steps))])
                seen: list[dict[str, Any]] = resp.field_meta["seen"]
                return seen
        finally:
            client.close()

    return asyncio.run(asyncio.wait_for(main(), 60)), events


def test_create_wait_output_release_over_stdio(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("alpha\nbeta\n")
    seen, events = drive(tmp_path, [{"command": "grep", "args": ["-n", "beta", "notes.txt"]},
                                    {"command": "sh", "args": ["-c", "echo out; echo err >&2; exit 3"]}])
    assert seen[0]["output"] == "2:beta\n"
    assert seen[0]["exit"] == {"code": 0, "signal": None}
    assert seen[0]["status"] == 0 and seen[0]["truncated"] is False
    assert seen[1]["output"] == "out\nerr\n"
    assert seen[1]["exit"] == {"code": 3, "signal": None}
    # a released terminal is gone: the client answers with an error
    assert seen[0]["after_release"] == "RequestError"
    # the commands' tool-call events, each valid ACP and carrying the envelope
    starts = [u for _, u in events if u["sessionUpdate"] == "tool_call"]
    assert [u["_meta"]["x.ai/tool"]["name"] for u in starts] == ["grep", "echo", "echo", "exit"]
    grep = starts[0]
    assert grep["_meta"]["x.ai/tool"]["input"] == {"pattern": "beta",
                                                   "path": str(tmp_path / "notes.txt")}
    for _, u in events:
        model = ToolCallStart if u["sessionUpdate"] == "tool_call" else ToolCallProgress
        model.model_validate(u)


def test_cwd_and_env_hold_for_one_command(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    seen, _ = drive(tmp_path, [
        {"command": "pwd", "cwd": str(tmp_path / "sub")},
        {"command": "pwd", "cwd": str(tmp_path)},
        {"command": "cd", "args": ["/nowhere"]},
    ])
    assert seen[0]["output"] == f"{tmp_path}/sub\n"
    assert seen[1]["output"] == f"{tmp_path}\n"
    assert seen[2]["exit"]["code"] == 1


def test_output_past_the_byte_limit_keeps_the_end_at_a_character_boundary(
        tmp_path: Path) -> None:
    # 300 lines of "é" (2 bytes) plus a newline: 900 bytes, limit 100
    seen, _ = drive(tmp_path, [{"command": "sh",
                                "args": ["-c", "for i in $(seq 300); do echo é; done"],
                                "limit": 101}])
    out = seen[0]["output"]
    assert seen[0]["truncated"] is True
    assert len(out.encode()) <= 101
    assert out.endswith("é\n") and "\ufffd" not in out
    assert out.startswith("é") or out.startswith("\n")


def test_kill_stops_a_running_command_and_reports_the_signal(tmp_path: Path) -> None:
    seen, _ = drive(tmp_path, [{"command": "sh", "args": ["-c", "echo start; sleep 30"],
                                "kill": True, "after": 0.5}])
    assert seen[0]["running"] is True
    assert seen[0]["exit"] == {"code": None, "signal": "SIGKILL"}
    assert seen[0]["output"].startswith("start\n")


def test_the_sandbox_refuses_what_the_kernel_refuses(tmp_path: Path) -> None:
    seen, _ = drive(tmp_path, [{"command": "cat", "args": ["/etc/passwd"]},
                               {"command": "python3", "args": ["-c", "print(1)"]}])
    assert seen[0]["exit"]["code"] != 0
    assert "root:" not in seen[0]["output"]
    assert seen[1]["exit"]["code"] == 127
    assert "external commands are disabled" in seen[1]["output"]
