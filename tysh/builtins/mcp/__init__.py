"""The `mcp` builtin: connect MCP servers and use their tools as commands."""
