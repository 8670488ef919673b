"""`tysh events summarize FILE`: a JSONL stream of tool-call events as a table of
calls grouped by label (FILE `-` is standard input)."""

from __future__ import annotations

import sys

from tysh.acp.log import ToolCallLog

USAGE = "usage: tysh events summarize FILE   (FILE - : standard input)\n"


def summarize_main(args: list[str]) -> int:
    if len(args) != 1 or args[0] in ("-h", "--help"):
        sys.stderr.write(USAGE)
        return 0 if args and args[0] in ("-h", "--help") else 2
    path = args[0]
    log = ToolCallLog()
    try:
        if path == "-":
            log.feed_jsonl(sys.stdin.buffer)
        else:
            with open(path, "rb") as f:
                log.feed_jsonl(f)
    except OSError as e:
        sys.stderr.write(f"tysh: events summarize: {path}: {e.strerror}\n")
        return 1
    render(log)
    return 0


def render(log: ToolCallLog) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{len(log)} tool calls")
    for col in ("Label", "Calls", "Completed", "Failed", "Open", "Commands"):
        table.add_column(col, justify="right" if col in ("Calls", "Completed", "Failed",
                                                           "Open") else "left")
    for label, calls in log.by_label().items():
        done = sum(c.status == "completed" for c in calls)
        failed = sum(c.status == "failed" for c in calls)
        names = list(dict.fromkeys(c.name or c.title or c.id for c in calls))
        shown = ", ".join(names[:6]) + (", …" if len(names) > 6 else "")
        table.add_row(label, str(len(calls)), str(done), str(failed),
                      str(len(calls) - done - failed), shown)
    console = Console(file=sys.stdout, soft_wrap=False)
    console.print(table)
    if log.skipped:
        console.print(f"{log.skipped} lines skipped (not tool-call updates)")
