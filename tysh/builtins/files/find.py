"""`find`: walk directory trees through ctx.fs and evaluate find's expression on each file.

The expression is parsed in `find_expr` (see there for why find is raw_argv). Output
streams: paths are written as they are found (in sorted order per directory, so results
are deterministic). `find … --json` prints the files it reports as one JSON array of file records
({"path","name","type","size"}), the value `r.data` holds with or without it."""

from __future__ import annotations

from tysh.builtins.files.find_expr import (
    FindError,
    FindPlan,
    Item,
    Runtime,
    item_record,
    parse_command,
)
from tysh.kernel.base.values import encode_text, to_json_text
from tysh.kernel.fs.api import DirHandle, FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# directory levels a walk holds open (one fd each); deeper ones are looked up by path
_HELD = 64


def _walk(plan: FindPlan, rt: Runtime, item: Item,
          seen: tuple[tuple[tuple[int, int], str], ...]) -> None:
    """Visit one file and, below it, its tree. `seen` holds the directories above it
    under -L, (dev, ino) and path, to stop at a link back to one of them as GNU does:
    the looping entry is reported, not evaluated."""
    if rt.quit:
        return
    pred = plan.pred
    fs = rt.ctx.fs
    if plan.follow and item.kind == "directory":
        st = item.stat()
        key = (st.dev, st.ino) if st is not None else (0, 0)
        if key != (0, 0):
            ancestor = next((path for k, path in seen if k == key), None)
            if ancestor is not None:
                rt.flush()
                rt.ctx.error(f"File system loop detected; '{item.path}' is part of the same "
                             f"file system loop as '{ancestor}'.")
                rt.status = 1
                return
            seen = (*seen, (key, item.path))
    evaluate = item.depth >= plan.mindepth
    if evaluate and not plan.depth_first:
        pred(item)
        if rt.quit:
            return
    descend = item.kind == "directory" and (
        plan.maxdepth is None or item.depth < plan.maxdepth
    ) and (plan.depth_first or not item.pruned)
    if descend:
        # the directory is opened once and its entries' stats are taken from it by name;
        # past _HELD levels (one fd each) entries are looked up by path instead
        d: DirHandle | None = None
        entries: list[tuple[str, str]] = []
        try:
            if item.depth < _HELD:
                d = fs.open_dir(item.abs)
                entries = d.entries()
            else:
                entries = fs.list_entries(item.abs)
        except FsError as e:
            rt.ctx.error(f"'{item.path}': {e.reason}")
            rt.status = 1
        try:
            _walk_entries(plan, rt, item, entries, d, seen)
        finally:
            if d is not None:
                d.close()
    if evaluate and plan.depth_first and not rt.quit:
        pred(item)


def _walk_entries(plan: FindPlan, rt: Runtime, item: Item, entries: list[tuple[str, str]],
                  d: DirHandle | None,
                  seen: tuple[tuple[tuple[int, int], str], ...]) -> None:
    """Visit the entries of a directory (held open as `d`, or None), in sorted order."""
    fs = rt.ctx.fs
    entries.sort()
    base_abs = item.abs.rstrip("/") + "/"
    base = item.path if item.path.endswith("/") else item.path + "/"
    depth = item.depth + 1
    for name, kind in entries:
        if rt.quit:
            return
        abs_path = base_abs + name
        if plan.follow and kind == "symlink":
            try:
                kind = fs.stat(abs_path, follow=True).kind
            except FsError as e:
                if "symbolic links" in e.reason:  # ELOOP: GNU reports and skips it
                    rt.flush()
                    rt.ctx.error(f"'{base + name}': {e.reason}")
                    rt.status = 1
                    continue
        child = Item(base + name, abs_path, name, depth, kind, item.start, fs,
                     plan.follow, d)
        _walk(plan, rt, child, seen)


@tool(
    "find", kind="find",
    raw_argv=True,
    description="search for files in a directory hierarchy",
    examples=[
        ("Python files under src", "find src -name '*.py'"),
        ("directories only, two levels", "find . -maxdepth 2 -type d"),
        ("run a command on each match", "find . -name '*.tmp' -exec rm {} \\;"),
    ],
    operations=["proc.exec", "fs.remove"],
    passthrough_options=["-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename",
                     "-regex", "-iregex", "-lname", "-ilname"],
)
def find(args: Any, ctx: Context) -> ToolReturn:
    rt = Runtime(ctx)
    try:
        plan = parse_command(list(args.positional), ctx, rt)
    except FindError as e:
        rt.close_sinks()
        ctx.error(str(e))
        return 1
    rt.hold = plan.json
    fs = ctx.fs
    for start in plan.starts:
        if rt.quit:
            break
        abs_path = ctx.path(start)
        try:
            st = fs.stat(abs_path, follow=plan.follow)
        except FsError:
            try:
                st = fs.stat(abs_path, follow=False)
            except FsError as e:
                rt.flush()
                ctx.error(f"'{start}': {e.reason}")
                rt.status = 1
                continue
        stripped = start.rstrip("/")
        name = stripped.rsplit("/", 1)[-1] if stripped else "/"
        item = Item(start, abs_path, name, 0, st.kind, start, fs, plan.follow)
        try:
            _walk(plan, rt, item, ())
        except RecursionError:
            rt.flush()
            ctx.error(f"'{start}': directory tree too deep")
            rt.status = 1
    for batch in rt.batches:
        batch.run()
    rt.close_sinks()
    found = rt.found
    if plan.json:
        rt.out.clear()
        records = [item_record(it) for it in found or ()]
        ctx.stdout.write(encode_text(to_json_text(records) + "\n"))
        return Outcome(code=rt.status, output=OutputData.value(lambda: records))
    rt.flush()
    if found is None:
        return rt.status
    return Outcome(code=rt.status,
                   output=OutputData.value(lambda: [item_record(it) for it in found]))
