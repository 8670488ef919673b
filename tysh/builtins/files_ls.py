"""`ls`: list directory contents as GNU ls does when stdout is not a terminal.

The listing is returned as OutputData (one node per output line, each carrying its entry
type) so the REPL can colour and tabulate it; its canonical text is exactly GNU's
one-name-per-line output, headers and blank lines included. `--json` gives a flat list
of entries: name, path, type, size (plus mode, links, owner, group, mtime, target
with -l)."""

from __future__ import annotations

import stat as stat_mod
from typing import Any

import attrs

from tysh.builtins.files_common import (
    entry_type,
    full_mode,
    group_name,
    human_size,
    join,
    local_time,
    mode_string,
    now,
    q,
    user_name,
)
from tysh.kernel.context import Context
from tysh.kernel.fs import FileStat, FsError
from tysh.kernel.output import OutputData, OutputNode
from tysh.kernel.record import Record
from tysh.kernel.tooldef import Outcome, tool
from tysh.kernel.typed_args import param

SIX_MONTHS = 365.2425 * 24 * 3600 / 2


@attrs.frozen(repr=False, eq=False)
class LsArgs(Record):
    paths: tuple[str, ...] = param(default=(), positional=True, help="files or directories")
    all: bool = param(default=False, aliases=["-a"], help="include entries starting with .")
    almost_all: bool = param(default=False, aliases=["-A"], help="like -a without . and ..")
    recursive: bool = param(default=False, aliases=["-R"], help="list subdirectories recursively")
    directory: bool = param(default=False, aliases=["-d"], help="list directories themselves")
    classify: bool = param(default=False, aliases=["-F"], help="append / * @ | = by kind")
    slash: bool = param(default=False, aliases=["-p"], help="append / to directories")
    reverse: bool = param(default=False, aliases=["-r"], help="reverse the sort order")
    one: bool = param(default=False, aliases=["-1"], help="one entry per line (the default)")
    long: bool = param(default=False, aliases=["-l"], help="long listing: mode, links, owner…")
    human_readable: bool = param(default=False, aliases=["-h"], help="sizes like 1.5K with -l")
    time: bool = param(default=False, aliases=["-t"], help="sort by modification time, newest first")
    size: bool = param(default=False, aliases=["-S"], help="sort by size, largest first")
    unsorted: bool = param(default=False, aliases=["-U"], help="do not sort")
    numeric_uid_gid: bool = param(default=False, aliases=["-n"], help="-l with numeric ids")
    no_group: bool = param(default=False, aliases=["-G"], help="-l without the group column")
    color: str = param(default="never", help="accepted for compatibility; colour is the REPL's job")


@attrs.frozen(repr=False, eq=False)
class _Entry(Record):
    name: str  # what is printed
    path: str  # the displayed path (for --json)
    abs: str
    st: FileStat | None
    target: str | None = None


class _Lister:
    def __init__(self, args: LsArgs, ctx: Context) -> None:
        self.a = args
        self.ctx = ctx
        self.lines: list[OutputNode] = []
        self.entries: list[dict[str, Any]] = []
        self.status = 0
        self.now = now()
        self.implicit = not args.paths  # `ls` alone: JSON paths without a `./` prefix

    # -- gathering ----------------------------------------------------------------------
    def stat(self, abs_path: str) -> FileStat | None:
        try:
            return self.ctx.fs.stat(abs_path, follow=False)
        except FsError:
            return None

    def entry(self, name: str, path: str, abs_path: str, st: FileStat | None) -> _Entry:
        target = None
        if st is not None and st.kind == "symlink" and self.a.long:
            try:
                target = self.ctx.fs.readlink(abs_path)
            except FsError:
                target = None
        return _Entry(name, path, abs_path, st, target)

    def sort(self, items: list[_Entry]) -> list[_Entry]:
        a = self.a
        if a.unsorted:
            return items
        items = sorted(items, key=lambda e: e.name)
        if a.time:
            items.sort(key=lambda e: -(e.st.mtime if e.st else 0.0))
        elif a.size:
            items.sort(key=lambda e: -(e.st.size if e.st else 0))
        if a.reverse:
            items.reverse()
        return items

    def read_dir(self, display: str, abs_path: str) -> list[_Entry] | None:
        a = self.a
        try:
            names = self.ctx.fs.listdir(abs_path)
        except FsError as e:
            self.ctx.error(f"cannot open directory {q(display)}: {e.reason}")
            self.status = 2
            return None
        show_hidden = a.all or a.almost_all
        if not show_hidden:
            names = [n for n in names if not n.startswith(".")]
        base = abs_path.rstrip("/") + "/"
        out = [
            self.entry(n, join(display, n), base + n, self.stat(base + n)) for n in names
        ]
        if a.all:
            for dot in (".", ".."):
                p = abs_path if dot == "." else (abs_path.rsplit("/", 1)[0] or "/")
                out.append(self.entry(dot, join(display, dot), p, self.stat(p)))
        return self.sort(out)

    # -- rendering ----------------------------------------------------------------------
    def suffix(self, st: FileStat | None) -> str:
        if st is None:
            return ""
        if self.a.classify:
            if st.kind == "directory":
                return "/"
            if st.kind == "symlink":
                return "@"
            fmt = stat_mod.S_IFMT(st.mode)
            if fmt == stat_mod.S_IFIFO:
                return "|"
            if fmt == stat_mod.S_IFSOCK:
                return "="
            return "*" if st.executable else ""
        if self.a.slash and st.kind == "directory":
            return "/"
        return ""

    def when(self, ts: float) -> str:
        t = local_time(self.ctx, ts)
        day = f"{t.day:>2}"
        mon = ("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec").split()[t.month - 1]
        if self.now - SIX_MONTHS < ts <= self.now + 60:
            return f"{mon} {day} {t.hour:02d}:{t.minute:02d}"
        return f"{mon} {day}  {t.year}"

    def json_entry(self, e: _Entry) -> dict[str, Any]:
        st = e.st
        d: dict[str, Any] = {
            "name": e.name,
            "path": e.path[2:] if self.implicit and e.path.startswith("./") else e.path,
            "type": entry_type(st) if st else "file",
            "size": st.size if st else 0,
        }
        if self.a.long and st is not None:
            d["mode"] = mode_string(full_mode(st))
            d["links"] = st.nlink
            d["owner"] = str(st.uid) if self.a.numeric_uid_gid else user_name(st.uid)
            d["group"] = str(st.gid) if self.a.numeric_uid_gid else group_name(st.gid)
            d["mtime"] = st.mtime
            if e.target is not None:
                d["target"] = e.target
        return d

    def emit(self, items: list[_Entry], total: bool) -> None:
        a = self.a
        for e in items:
            self.entries.append(self.json_entry(e))
        if not a.long:
            for e in items:
                self.lines.append(
                    OutputNode(
                        name=e.name + self.suffix(e.st),
                        entry_type=entry_type(e.st) if e.st else "file",
                    )
                )
            return
        rows: list[tuple[_Entry, list[str]]] = []
        blocks = 0
        for e in items:
            st = e.st
            if st is None:
                continue
            blocks += st.blocks
            size = human_size(st.size) if a.human_readable else str(st.size)
            owner = str(st.uid) if a.numeric_uid_gid else user_name(st.uid)
            group = str(st.gid) if a.numeric_uid_gid else group_name(st.gid)
            cols = [mode_string(full_mode(st)), str(st.nlink), owner, group, size,
                    self.when(st.mtime)]
            rows.append((e, cols))
        if total:
            kb = (blocks + 1) // 2
            self.lines.append(
                OutputNode(name=f"total {human_size(kb * 1024) if a.human_readable else kb}")
            )
        if not rows:
            return
        widths = [max(len(r[1][i]) for r in rows) for i in range(6)]
        for e, cols in rows:
            parts = [
                cols[0],
                cols[1].rjust(widths[1]),
                cols[2].ljust(widths[2]),
            ]
            if not a.no_group:
                parts.append(cols[3].ljust(widths[3]))
            parts.extend([cols[4].rjust(widths[4]), cols[5].rjust(widths[5])])
            name = e.name + self.suffix(e.st)
            if e.target is not None:
                name = f"{e.name} -> {e.target}"
            line = " ".join(parts) + " " + name
            assert e.st is not None
            self.lines.append(OutputNode(name=line, entry_type=entry_type(e.st)))

    def header(self, display: str) -> None:
        if self.lines:
            self.lines.append(OutputNode(name="", text=""))
        self.lines.append(OutputNode(name=display + ":"))

    def list_dir(self, display: str, abs_path: str, headers: bool) -> None:
        if headers:
            self.header(display)
        items = self.read_dir(display, abs_path)
        if items is None:
            return
        self.emit(items, total=True)
        if self.a.recursive:
            for e in items:
                if e.st is not None and e.st.kind == "directory" and e.name not in (".", ".."):
                    self.list_dir(e.path, e.abs, True)


_LETTER_FIELD = {
    "a": "all", "A": "almost_all", "R": "recursive", "d": "directory", "F": "classify",
    "p": "slash", "r": "reverse", "l": "long", "h": "human_readable", "t": "time",
    "S": "size", "U": "unsorted", "n": "numeric_uid_gid", "G": "no_group", "1": "one",
}


def _digit_bundles(args: LsArgs) -> LsArgs:
    """`-1` (and bundles such as `-1a`) is `-` + a digit, so the binder hands it over as an
    operand (DESIGN §4.2); ls reads such words as its options, as GNU ls does."""
    paths: list[str] = []
    flags: dict[str, Any] = {}
    for p in args.paths:
        if p.startswith("-1") and all(c in _LETTER_FIELD for c in p[1:]):
            flags.update({_LETTER_FIELD[c]: True for c in p[1:]})
        else:
            paths.append(p)
    return attrs.evolve(args, paths=tuple(paths), **flags)


@tool(
    "ls",
    args=LsArgs,
    description="list directory contents",
    examples=[
        ("list the current folder", "ls"),
        ("long listing, hidden files included", "ls -la"),
        ("entries as JSON", "ls --json src"),
    ],
)
def ls(args: LsArgs, ctx: Context) -> OutputData | Outcome:
    if any(p.startswith("-1") for p in args.paths):
        args = _digit_bundles(args)
    lister = _Lister(args, ctx)
    operands = list(args.paths) or ["."]
    files: list[_Entry] = []
    dirs: list[_Entry] = []
    for p in operands:
        abs_path = ctx.path(p)
        try:
            st = ctx.fs.stat(abs_path, follow=True)
        except FsError:
            try:
                st = ctx.fs.stat(abs_path, follow=False)  # a dangling symlink
            except FsError as e:
                ctx.error(f"cannot access {q(p)}: {e.reason}")
                lister.status = 2
                continue
        if st.kind == "directory" and not args.directory:
            dirs.append(_Entry(p, p, abs_path, st))
        else:
            lst = ctx.fs.stat(abs_path, follow=False) if st.kind != "symlink" else st
            if lst.kind == "symlink" and (args.long or args.classify or args.directory):
                st = lst
            files.append(lister.entry(p, p, abs_path, st))
    files = lister.sort(files)
    dirs = lister.sort(dirs)
    if files:
        lister.emit(files, total=False)
    headers = args.recursive or len(operands) > 1
    for d in dirs:
        lister.list_dir(d.name, d.abs, headers)
    out = OutputData.nodes(lister.lines, rich_json=lister.entries if ctx.json else None)
    if lister.status:
        return Outcome(code=lister.status, output=out)
    return out
