"""`glob PATTERN… [--exclude P]`: expand patterns through ctx.fs and print the matches.

The tool declares glob_passthrough, so patterns reach it unexpanded. Rules are the
shell's: `* ? [..]` within one path segment, `**` for any depth, results
sorted, a leading `.` matched only explicitly, symlinked directories not followed by
`**`. A pattern matching nothing is an error naming it (status 1); the other patterns
are still printed. Expansion is the kernel's own (`tysh.kernel.expand.glob`), so `glob P`
lists exactly what an unquoted P expands to.

`--exclude P` (repeatable) drops a match when P matches one of its path components
(P without `/`, e.g. `node_modules` or `*.pyc`) or a leading part of its path (P with
`/`, e.g. `src/gen/**`)."""

from __future__ import annotations

from tysh.builtins._common.fileinfo import entry_type, file_type
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.expand.glob import glob as expand_glob
from tysh.kernel.expand.pattern import match
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData, OutputNode
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _seg_match(ps: list[str], xs: list[str]) -> bool:
    if not ps:
        return not xs
    if ps[0] == "**":
        return any(_seg_match(ps[1:], xs[k:]) for k in range(len(xs) + 1))
    return bool(xs) and match(ps[0], xs[0]) and _seg_match(ps[1:], xs[1:])


def excluded(path: str, patterns: tuple[str, ...]) -> bool:
    """Whether a result is dropped by one of the --exclude patterns (see module doc)."""
    parts = [p for p in path.split("/") if p and p != "."]
    for pat in patterns:
        if "/" not in pat.rstrip("/"):
            p = pat.rstrip("/")
            if any(match(p, c) for c in parts):
                return True
            continue
        ps = [s for s in pat.split("/") if s and s != "."]
        if any(_seg_match(ps, parts[:k]) for k in range(1, len(parts) + 1)):
            return True
    return False


@value_record
class GlobArgs(Record):
    patterns: tuple[str, ...] = param(default=(), positional=True, help="glob patterns (`**` for any depth)")
    exclude: tuple[str, ...] = param(default=(), help="drop matches whose path or a component matches")


@tool(
    "glob", kind="list",
    args=GlobArgs,
    glob_passthrough=True,
    description="list the files matching glob patterns",
    examples=[
        ("every Python file below here", "glob '**/*.py'"),
        ("skip a folder", "glob '**/*.js' --exclude node_modules"),
    ],
)
def glob(args: GlobArgs, ctx: Context) -> OutputData | Outcome:
    status = 0
    seen: set[str] = set()
    found: list[str] = []
    for pat in args.patterns:
        hits = [h for h in expand_glob(pat, ctx.fs, ctx.cwd) if not excluded(h, args.exclude)]
        if not hits:
            ctx.error(f"no matches: {pat}")
            status = 1
            continue
        for h in hits:
            if h not in seen:
                seen.add(h)
                found.append(h)
    nodes = []
    records: list[dict[str, Any]] = []
    for h in found:
        stripped = h.rstrip("/")
        rec: dict[str, Any] = {"path": h, "name": stripped.rsplit("/", 1)[-1] or "/"}
        try:
            st = ctx.fs.stat(ctx.path(h), follow=False)
        except FsError:
            kind = "file"
            rec["type"] = "unknown"
        else:
            kind = entry_type(st)
            rec["type"] = file_type(st)
            rec["size"] = st.size
        nodes.append(OutputNode(name=h, entry_type=kind))
        records.append(rec)
    out = OutputData.nodes(nodes, rich_json=records)
    if not args.patterns:
        ctx.error("missing pattern")
        return Outcome(code=2)
    return Outcome(code=status, output=out) if status else out
