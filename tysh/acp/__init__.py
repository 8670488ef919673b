"""tysh above the kernel for Agent Client Protocol apps: `ToolCallLog` (a consumer of
tool-call event streams from any agent), `tysh events summarize`, and `TerminalHandler`
(tysh as the sandboxed terminal an ACP client offers its agents; needs `tysh[acp]`)."""
