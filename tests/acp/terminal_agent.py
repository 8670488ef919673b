"""A test ACP agent built with the SDK: on each prompt it runs the terminal scenario the
prompt's text names (JSON) against its client and answers with what it saw, in the
PromptResponse's `_meta`. Run as a subprocess over stdio by test_terminal.py."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from acp import PROTOCOL_VERSION, run_agent
from acp.schema import AgentCapabilities, InitializeResponse, NewSessionResponse, PromptResponse


class ScenarioAgent:
    def __init__(self) -> None:
        self.conn: Any = None

    def on_connect(self, conn: Any) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(protocol_version=PROTOCOL_VERSION,
                                  agent_capabilities=AgentCapabilities())

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        return NewSessionResponse(session_id="s1")

    async def prompt(self, session_id: str, prompt: list[Any], **kwargs: Any) -> PromptResponse:
        steps = json.loads(prompt[0].text)
        seen: list[dict[str, Any]] = []
        for step in steps:
            seen.append(await self.run_step(session_id, step))
        return PromptResponse(stop_reason="end_turn", field_meta={"seen": seen})

    async def run_step(self, sid: str, step: dict[str, Any]) -> dict[str, Any]:
        c = self.conn
        made = await c.create_terminal(session_id=sid, command=step["command"],
                                       args=step.get("args"), cwd=step.get("cwd"),
                                       output_byte_limit=step.get("limit"))
        tid = made.terminal_id
        out: dict[str, Any] = {"terminal": tid}
        if step.get("kill"):
            await asyncio.sleep(step.get("after", 0.3))
            early = await c.terminal_output(session_id=sid, terminal_id=tid)
            out["running"] = early.exit_status is None
            await c.kill_terminal(session_id=sid, terminal_id=tid)
        waited = await c.wait_for_terminal_exit(session_id=sid, terminal_id=tid)
        out["exit"] = {"code": waited.exit_code, "signal": waited.signal}
        got = await c.terminal_output(session_id=sid, terminal_id=tid)
        out["output"] = got.output
        out["truncated"] = got.truncated
        out["status"] = None if got.exit_status is None else got.exit_status.exit_code
        await c.release_terminal(session_id=sid, terminal_id=tid)
        try:
            await c.terminal_output(session_id=sid, terminal_id=tid)
            out["after_release"] = "answered"
        except Exception as e:  # noqa: BLE001 — the error the client sent back
            out["after_release"] = type(e).__name__
        return out


if __name__ == "__main__":
    asyncio.run(run_agent(ScenarioAgent()))
