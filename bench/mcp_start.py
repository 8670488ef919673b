"""Start-up over MCP: the time from spawning a server to its answer to `initialize`, for
`tysh mcp` and for the SDK's own minimal stdio server (lowlevel `Server`, one tool).
Runs are interleaved (the machine is noisy) and the medians compared.

    .venv/bin/python bench/mcp_start.py        # 10 runs of each
    .venv/bin/python bench/mcp_start.py 20
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time

from mcp import Client, StdioServerParameters

# the SDK's minimal server: one tool, stdio
MINIMAL = """
import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

async def list_tools(ctx, params):
    return types.ListToolsResult(tools=[types.Tool(
        name="echo", description="echo", input_schema={"type": "object"})])

async def call_tool(ctx, params):
    return types.CallToolResult(content=[types.TextContent(text="hi")])

server = Server("minimal", on_list_tools=list_tools, on_call_tool=call_tool)

async def main():
    async with stdio_server() as (r, w):
        await server.run(r, w, server.create_initialization_options())

anyio.run(main)
"""

SERVERS = {
    "tysh mcp": [sys.executable, "-m", "tysh", "mcp", "--isolated"],
    "SDK minimal": [sys.executable, "-c", MINIMAL],
}


async def once(cmd: list[str]) -> float:
    """Seconds from spawn to the initialize result (the legacy handshake)."""
    params = StdioServerParameters(command=cmd[0], args=cmd[1:])
    t0 = time.perf_counter()
    async with Client(params, mode="legacy") as c:
        took = time.perf_counter() - t0
        assert c.server_info is not None
    return took


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    times: dict[str, list[float]] = {k: [] for k in SERVERS}

    async def all_runs() -> None:
        for _ in range(runs):
            for name, cmd in SERVERS.items():
                times[name].append(await once(cmd))

    asyncio.run(all_runs())
    med = {k: statistics.median(v) for k, v in times.items()}
    for k, v in times.items():
        print(f"{k:12}  median {med[k] * 1000:7.1f} ms   min {min(v) * 1000:7.1f} ms")
    print(f"ratio tysh mcp / SDK minimal: {med['tysh mcp'] / med['SDK minimal']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
