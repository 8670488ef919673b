"""du (GNU coreutils 9.1): disk usage of files and directory trees, post-order, in
directory-read order, hard links counted once.

Usage is the blocks the filesystem reports (st_blocks × 512); a filesystem without
blocks (the in-memory kind, where FileStat.blocks is 0 and there is no host file) is
charged its apparent size rounded up to 4 KiB blocks, what a typical disk would use.
-b/--apparent-size count st_size instead."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from tysh.builtins.files_common import q
from tysh.kernel.context import Context
from tysh.kernel.fs import FileStat, FsError
from tysh.kernel.output import OutputData
from tysh.kernel.record import MutableRecord, Record
from tysh.kernel.tooldef import Outcome, ToolReturn, tool
from tysh.kernel.typed_args import param


@attrs.frozen(repr=False, eq=False)
class DuArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="files or directories (default .)")
    summarize: bool = param(default=False, aliases=["-s"], help="display only a total for each argument")
    all: bool = param(default=False, aliases=["-a"], help="write counts for all files, not just directories")
    total: bool = param(default=False, aliases=["-c"], help="produce a grand total")
    max_depth: int | None = param(default=None, aliases=["-d"],
                                  help="print a total only for entries N or fewer levels deep")
    human_readable: bool = param(default=False, aliases=["-h"],
                                 help="print sizes like 1K 234M 2G (powers of 1024)")
    si: bool = param(default=False, help="like -h, but powers of 1000")
    kilobytes: bool = param(default=False, aliases=["-k"], help="1024-byte blocks (the default)")
    megabytes: bool = param(default=False, aliases=["-m"], help="1048576-byte blocks")
    bytes: bool = param(default=False, aliases=["-b"], help="apparent size in bytes")
    apparent_size: bool = param(default=False, help="count apparent sizes, not disk usage")


def human(n: int, base: int) -> str:
    """GNU's -h/--si rendering: rounded up, one decimal below 10 (`4.0K`, `13K`)."""
    if n < base:
        return str(n)
    units = "kMGTPEZY" if base == 1000 else "KMGTPEZY"
    value = float(n)
    for unit in units:
        value /= base
        if value < base or unit == "Y":
            if value < 10:
                tenths = -(-int(round(value * 10 * 1000)) // 1000)
                if tenths < 100:
                    return f"{tenths // 10}.{tenths % 10}{unit}"
                value = 10.0
            whole = -(-int(round(value * 1000)) // 1000)
            if whole >= base and unit != "Y":
                continue
            return f"{whole}{unit}"
    return str(n)


@attrs.define(repr=False, eq=False)
class _Du(MutableRecord):
    args: DuArgs
    ctx: Context
    apparent: bool
    seen: set[tuple[int, int]] = attrs.field(factory=set)
    rows: list[tuple[str, int]] = attrs.field(factory=list)
    failed: bool = False

    def usage(self, path: str, st: FileStat) -> int:
        if self.apparent:
            return st.size
        if st.blocks or self.ctx.fs.real_os_path(path) is not None:
            return st.blocks * 512
        return -(-st.size // 4096) * 4096

    def walk(self, shown: str, path: str, depth: int) -> int:
        try:
            st = self.ctx.fs.stat(path, follow=depth == 0)
        except FsError as e:
            self.ctx.error(f"cannot access {q(shown)}: {e.reason}")
            self.failed = True
            return 0
        if st.nlink > 1 and st.kind != "directory" and st.ino:
            key = (st.dev, st.ino)
            if key in self.seen:
                return 0
            self.seen.add(key)
        size = self.usage(path, st)
        if st.kind == "directory":
            try:
                names = self.ctx.fs.listdir(path)
            except FsError as e:
                self.ctx.error(f"cannot read directory {q(shown)}: {e.reason}")
                self.failed = True
                names = []
            for name in names:
                size += self.walk(_join(shown, name), _join(path, name), depth + 1)
        if self.shows(depth, st.kind == "directory"):
            self.rows.append((shown, size))
        return size

    def shows(self, depth: int, is_dir: bool) -> bool:
        a = self.args
        limit = 0 if a.summarize else a.max_depth
        if limit is not None and depth > limit:
            return False
        return is_dir or a.all or depth == 0


def _join(d: str, name: str) -> str:
    return d + name if d.endswith("/") else d + "/" + name


@tool(
    "du",
    args=DuArgs,
    description=(
        "estimate file space usage (GNU du; 1 KiB blocks by default); --json gives "
        '[{"path","bytes"}]'
    ),
    examples=[
        ("size of a directory, human readable", "du -sh build"),
        ("sizes of the entries one level down", "du -h -d 1 ."),
    ],
)
def du(args: DuArgs, ctx: Context) -> ToolReturn:
    if args.summarize and args.max_depth is not None and args.max_depth != 0:
        ctx.error(f"warning: summarizing conflicts with --max-depth={args.max_depth}")
        ctx.stderr.write(b"Try 'du --help' for more information.\n")
        return 1
    run = _Du(args, ctx, args.apparent_size or args.bytes)
    grand = 0
    for name in args.files or (".",):
        grand += run.walk(name, ctx.path(name), 0)
    if args.total:
        run.rows.append(("total", grand))
    code = 1 if run.failed else 0
    if ctx.json:
        data = [{"path": p, "bytes": n} for p, n in run.rows]
        return Outcome(code=code, output=OutputData.text("", rich_json=data))
    fmt = _formatter(args)
    ctx.write("".join(f"{fmt(n)}\t{p}\n" for p, n in run.rows))
    return code


def _formatter(args: DuArgs) -> Callable[[int], str]:
    if args.human_readable:
        return lambda n: human(n, 1024)
    if args.si:
        return lambda n: human(n, 1000)
    if args.bytes:
        return str
    unit = 1 << 20 if args.megabytes else 1024
    return lambda n: str(-(-n // unit))


TOOLS = [du]
