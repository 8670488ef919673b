"""`tysh mcp`'s sandbox options and progress, with the SDK's client on the server in
process (the options are the kernel's; the transports are tested in test_server.py)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from remote import TYSH

from tysh.mcp.server import Options, Service, build_server, parse_args


def run(opts: Options, fn: Any) -> Any:
    async def go() -> Any:
        async with Client(build_server(Service(opts, shared=True))) as c:
            return await fn(c)

    return asyncio.run(go())


def test_overlay_keeps_writes_in_memory_until_commit(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("old\n")

    async def go(c: Any) -> tuple[Any, Any, Any]:
        names = {t.name for t in (await c.list_tools()).tools}
        assert {"changes", "commit"} <= names
        await c.call_tool("shell", {"script": "echo new > a.txt; echo made > b.txt"})
        before = (tmp_path / "a.txt").read_text()
        diff = await c.call_tool("changes", {})
        done = await c.call_tool("commit", {})
        return before, diff, done

    before, diff, done = run(Options(root=str(tmp_path), overlay=True), go)
    assert before == "old\n"
    d = diff.content[0].text
    assert "-old" in d and "+new" in d and "+made" in d
    assert (tmp_path / "a.txt").read_text() == "new\n"
    assert (tmp_path / "b.txt").read_text() == "made\n"
    assert "b.txt" in done.content[0].text


def test_isolated_reaches_no_host_file(tmp_path: Path) -> None:
    async def go(c: Any) -> Any:
        return await c.call_tool("shell", {"script": "cat /etc/hostname; echo x > f; ls"})

    r = run(Options(root=str(tmp_path), isolated=True), go)
    assert r.structured_content["out"] == "f\n"
    assert "No such file" in r.structured_content["err"]
    assert list(tmp_path.iterdir()) == []


def test_external_commands_are_off_unless_allowed(tmp_path: Path) -> None:
    async def go(c: Any) -> Any:
        return await c.call_tool("shell", {"script": "/bin/echo ext"})

    off = run(Options(root=str(tmp_path)), go)
    assert off.structured_content["code"] == 127
    on = run(Options(root=str(tmp_path), allow_external=True), go)
    assert on.structured_content["code"] == 0


def test_the_default_time_limit_stops_a_script(tmp_path: Path) -> None:
    async def go(c: Any) -> Any:
        return await c.call_tool("shell", {"script": "sleep 5"})

    r = run(Options(root=str(tmp_path), timeout=0.2), go)
    assert r.structured_content["code"] == 124


def test_a_long_script_reports_progress(tmp_path: Path) -> None:
    seen: list[float] = []

    async def progress(p: float, total: float | None, message: str | None) -> None:
        seen.append(p)

    async def go(c: Any) -> Any:
        return await c.call_tool("shell", {"script": "sleep 2.3; echo done"},
                                 progress_callback=progress)

    r = run(Options(root=str(tmp_path)), go)
    assert r.structured_content["out"] == "done\n"
    assert seen[:2] == [1, 2]


@pytest.mark.parametrize("args, message", [
    (["--bogus"], "--bogus: invalid option"),
    (["--http", "x"], "--http: invalid port"),
    (["--tools", "nosuch"], "--tools: no such builtin: nosuch"),
    (["--isolated", "--overlay"], "cannot be used together"),
    (["--connect", "srv"], "--connect: expected NAME=COMMAND"),
    (["--timeout", "soon"], "--timeout: invalid time interval"),
])
def test_usage_errors_are_reported_not_raised(args: list[str], message: str) -> None:
    got = parse_args(args)
    assert isinstance(got, str) and message in got


def test_tysh_mcp_usage_error_exits_2() -> None:
    p = subprocess.run([*TYSH, "--bogus"], capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stderr == "tysh mcp: --bogus: invalid option\n"
    assert sys.executable


def test_a_calls_timeout_cannot_raise_the_servers_limit(tmp_path: Path) -> None:
    async def go(c: Any) -> Any:
        return await c.call_tool("shell", {"script": "sleep 3", "timeout": 1000})

    r = run(Options(root=str(tmp_path), timeout=0.3), go)
    assert r.structured_content["code"] == 124


def test_a_resource_path_climbing_out_of_the_root_is_refused(tmp_path: Path) -> None:
    import traceback

    (tmp_path / "in").mkdir()

    async def go(c: Any) -> Any:
        return await c.read_resource((tmp_path / "in").as_uri() + "/../../../etc/passwd")

    # in process the SDK hands the handler's MCPError back inside an exception group
    with pytest.raises(BaseException) as got:
        run(Options(root=str(tmp_path / "in")), go)
    assert "not under the root" in "".join(traceback.format_exception(got.value))
