"""A small MCP server for the tests, written with the SDK: `list_items` (with an output
schema) and `add`. With `--crash`, `add` ends the process in the middle of the call."""

from __future__ import annotations

import os
import sys

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel

CRASH = "--crash" in sys.argv

server = MCPServer("srv")


class Item(BaseModel):
    name: str
    size: int


class Items(BaseModel):
    items: list[Item]
    count: int


@server.tool()
def list_items(prefix: str = "") -> Items:
    """The items whose names start with prefix."""
    every = [Item(name="apple", size=3), Item(name="avocado", size=5),
             Item(name="banana", size=7)]
    chosen = [i for i in every if i.name.startswith(prefix)]
    return Items(items=chosen, count=len(chosen))


@server.tool(structured_output=False)
def add(a: int, b: int) -> str:
    """The sum of a and b."""
    if CRASH:
        os._exit(1)
    return str(a + b)


if __name__ == "__main__":
    server.run("stdio")
