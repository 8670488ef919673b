"""du (GNU coreutils 9.1): disk usage of files and directory trees, post-order, in
directory-read order, hard links counted once.

Usage is the blocks the filesystem reports (st_blocks × 512); a filesystem without
blocks (the in-memory kind, where FileStat.blocks is 0 and there is no host file) is
charged its apparent size rounded up to 4 KiB blocks, what a typical disk would use.
-b/--apparent-size count st_size instead."""

from __future__ import annotations

from tysh.builtins._common.fileinfo import human_size, q
from tysh.builtins.files.info import is_link
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.record import MutableRecord, Record, field, mutable, replace, value_record
from tysh.kernel.fs.api import FileStat, FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import fnmatch
    from collections.abc import Callable
    from typing import Any
else:  # only a glob option matches names: loaded when first used
    fnmatch = LazyModule(globals(), "fnmatch", "fnmatch")


@value_record
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
    dereference: bool = param(default=False, aliases=["-L"], help="follow every symbolic link")
    dereference_args: bool = param(default=False, aliases=["-D", "-H"],
                                   help="follow symbolic links given as operands only")
    separate_dirs: bool = param(default=False, aliases=["-S"],
                                help="do not include the size of subdirectories")
    one_file_system: bool = param(default=False, aliases=["-x"],
                                  help="skip directories on other file systems")
    exclude: tuple[str, ...] = param(default=(), repeatable=True, glob_passthrough=True,
                                     help="skip files whose name matches the shell PATTERN")
    null: bool = param(default=False, help="end each output line with NUL, not newline (-0)")


human = human_size  # du's -h/--si rendering: GNU's, shared with ls


@mutable
class _Du(MutableRecord):
    args: DuArgs
    ctx: Context
    apparent: bool
    seen: set[tuple[int, int]] = field(factory=set)
    rows: list[tuple[str, int]] = field(factory=list)
    failed: bool = False
    grand: int = 0  # every counted file once: the -c total, whatever -S shows
    on_host: bool | None = None  # whether the filesystem's files have host blocks

    def usage(self, path: str, st: FileStat) -> int:
        if self.apparent:
            return st.size
        if st.blocks:
            return st.blocks * 512
        if self.on_host is None:
            try:
                self.on_host = self.ctx.fs.real_os_path(path) is not None
            except FsError:
                # a link out of the sandbox: only a host filesystem has those
                self.on_host = True
        if self.on_host:
            return 0
        return -(-st.size // 4096) * 4096

    def walk(self, shown: str, path: str, depth: int, dev: int | None = None,
             lst: FileStat | None = None) -> int:
        """The usage under one path; GNU's default -P counts a link itself, not its
        target. `lst` is the path's lstat when the listing of its directory gave it."""
        a = self.args
        if a.exclude and _excluded(shown, a.exclude):
            return 0
        follow = a.dereference or (depth == 0 and a.dereference_args)
        try:
            st = lst if lst is not None and not (follow and lst.kind == "symlink") else \
                self.ctx.fs.stat(path, follow=follow)
        except FsError as e:
            if follow and self.ctx.fs.exists(path) is False and is_link(self.ctx, path):
                self.ctx.error(f"cannot access {q(shown)}")  # GNU names a dangling link so
            else:
                self.ctx.error(f"cannot access {q(shown)}: {e.reason}")
            self.failed = True
            return 0
        if dev is not None and a.one_file_system and st.dev != dev:
            return 0
        if st.ino and (st.nlink > 1 or st.kind == "directory" or a.dereference):
            # hard links, a directory reached twice (`du . d`) and, with -L, anything
            # reached through several links count once
            key = (st.dev, st.ino)
            if key in self.seen:
                return 0
            self.seen.add(key)
        size = self.usage(path, st)
        self.grand += size
        if st.kind == "directory":
            try:
                entries = self.ctx.fs.list_stats(path)
            except FsError as e:
                self.ctx.error(f"cannot read directory {q(shown)}: {e.reason}")
                self.failed = True
                entries = []
            for name, child in entries:
                size += self.walk(_join(shown, name), _join(path, name), depth + 1, st.dev,
                                  child)
        if self.shows(depth, st.kind == "directory"):
            self.rows.append((shown, size))
        if a.separate_dirs and depth and st.kind == "directory":
            return 0  # -S: a directory's size leaves its subdirectories out
        return size

    def shows(self, depth: int, is_dir: bool) -> bool:
        a = self.args
        limit = 0 if a.summarize else a.max_depth
        if limit is not None and depth > limit:
            return False
        return is_dir or a.all or depth == 0


def _excluded(shown: str, patterns: tuple[str, ...]) -> bool:
    """GNU --exclude: the pattern may match the whole path or any tail after a `/`."""
    tails = [shown]
    i = shown.find("/")
    while i != -1:
        if shown[i + 1:]:
            tails.append(shown[i + 1:])
        i = shown.find("/", i + 1)
    return any(fnmatch.fnmatchcase(t, p) for t in tails for p in patterns)


def _join(d: str, name: str) -> str:
    return d + name if d.endswith("/") else d + "/" + name


@tool(
    "du", kind="list",
    args=DuArgs,
    description=(
        "estimate file space usage (GNU du; 1 KiB blocks by default); --json gives "
        '[{"path","size"}] (size: the bytes counted, as the text shows them)'
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
    if args.summarize and args.max_depth == 0:
        ctx.error("warning: summarizing is the same as using --max-depth=0")
    if "-0" in args.files:  # `-0` is a dash and a digit: the binder hands it over as an operand
        args = replace(args, files=tuple(f for f in args.files if f != "-0"), null=True)
    run = _Du(args, ctx, args.apparent_size or args.bytes)
    for name in args.files or (".",):
        run.walk(name, ctx.path(name), 0)
    if args.total:
        run.rows.append(("total", run.grand))
    code = 1 if run.failed else 0
    rows = run.rows

    def value() -> list[dict[str, Any]]:
        return [{"path": p, "size": n} for p, n in rows]

    if ctx.json:
        return Outcome(code=code, output=OutputData.text("", rich_json=value))
    fmt = _formatter(args)
    end = "\0" if args.null else "\n"
    ctx.write("".join(f"{fmt(n)}\t{p}{end}" for p, n in rows))
    return Outcome(code=code, output=OutputData.value(value))


def _formatter(args: DuArgs) -> Callable[[int], str]:
    if args.human_readable:
        return lambda n: human_size(n, 1024)
    if args.si:
        return lambda n: human_size(n, 1000)
    if args.bytes:
        return str
    unit = 1 << 20 if args.megabytes else 1024
    return lambda n: str(-(-n // unit))


TOOLS = [du]
