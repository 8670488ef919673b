"""tysh and the Model Context Protocol: `tysh mcp` serves the shell to agent hosts
(server.py); MCP servers' tools become commands in a kernel (client.py). Both are built
on the official SDK (`pip install 'tysh[mcp]'`), which loads only when they are used."""
