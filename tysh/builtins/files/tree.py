"""tree (tree 2.1, UTF-8 locale): list directories as an indented tree.

Entries are sorted by name (codepoint order, tree's default under C.UTF-8), hidden ones
skipped without -a. Symbolic links print as `name -> target` and are not followed; one
pointing at a directory counts as a directory. The report counts every directory and
file listed, and — as tree 2.1 does — the top directory itself whenever it lists
anything. --json gives tree -J's document: a list of {"type","name","contents"} trees
followed by a {"type":"report"} record."""

from __future__ import annotations

import stat as stat_mod

from tysh.builtins._common.fileinfo import full_mode, mode_string
from tysh.builtins._common.lines import VALUE_ITEMS
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.record import MutableRecord, Record, field, frozen, mutable, value_record
from tysh.kernel.fs.api import FileStat, FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import fnmatch
    from typing import Any
else:  # only a glob option matches names: loaded when first used
    fnmatch = LazyModule(globals(), "fnmatch", "fnmatch")

# tree draws the continuing bar with two no-break spaces, and so do we (byte-exact)
_TEE, _ELL, _BAR, _GAP = "├── ", "└── ", "│\u00a0\u00a0 ", "    "


@value_record
class TreeArgs(Record):
    dirs: tuple[str, ...] = param(positional=True, default=(), help="directories to list (default .)")
    all: bool = param(default=False, aliases=["-a"], help="list hidden entries too (not . and ..)")
    dirs_only: bool = param(default=False, aliases=["-d"], help="list directories only")
    level: int | None = param(default=None, aliases=["-L"], help="descend at most N levels")
    ignore: tuple[str, ...] = param(default=(), aliases=["-I"], glob_passthrough=True,
                                    help="skip names matching the wildcard PATTERN (a|b alternates)")
    full_path: bool = param(default=False, aliases=["-f"], help="print each entry's full path prefix")
    noreport: bool = param(default=False, help="omit the final directory and file count")
    dirsfirst: bool = param(default=False, help="list directories before files")
    size: bool = param(default=False, aliases=["-s"], help="print each entry's size in bytes")
    human: bool = param(default=False, aliases=["-h"], help="print sizes like 4.0K 15K")
    perms: bool = param(default=False, aliases=["-p"], help="print each entry's permissions")
    classify: bool = param(default=False, aliases=["-F"], help="append / * = | by kind")
    no_indent: bool = param(default=False, aliases=["-i"], help="print no indentation lines")
    nocolor: bool = param(default=False, aliases=["-n"], help="no colour (the default)")
    pattern: tuple[str, ...] = param(default=(), aliases=["-P"], repeatable=True,
                                     glob_passthrough=True,
                                     help="list only files matching the wildcard (a|b alternates)")
    prune: bool = param(default=False, help="leave out directories that list nothing")
    charset: str | None = param(default=None, help="ascii draws the lines with |-- and `--")
    reverse: bool = param(default=False, aliases=["-r"], help="reverse the sort order")
    mtime_sort: bool = param(default=False, aliases=["-t"], help="sort by modification time")


def _escape(name: str) -> str:
    """tree's rendering of unprintable characters: a backslash and three octal digits."""
    if name.isprintable():
        return name
    return "".join(c if c.isprintable() else "".join(f"\\{b:03o}" for b in
                   c.encode("utf-8", "surrogateescape")) for c in name)


@frozen
class _Entry(Record):
    name: str
    path: str
    kind: str  # "directory" "file" "link"
    is_dir: bool  # a directory, or a link to one
    target: str = ""
    st: FileStat | None = None  # the entry itself (lstat)
    target_st: FileStat | None = None  # what a link points to, None when dangling


def _human(n: int) -> str:
    """tree's -h: whole 1024s are shifted off first, then one decimal below 10 units
    (`4.0K`, `10.0K` for 10189 bytes, `9.9M` for 10433332), else none (`15K`)."""
    if n < 1024:
        return str(n)
    units = "KMGTPE"
    idx = 0
    while n >= 1024 * 1024 and idx < len(units) - 1:
        n >>= 10
        idx += 1
    value = n / 1024
    return f"{value:.1f}{units[idx]}" if n < 10 * 1024 else f"{value:.0f}{units[idx]}"


def _suffix(st: FileStat | None) -> str:
    """-F: `/` for a directory, `*` for an executable, `|` for a FIFO, `=` for a socket."""
    if st is None:
        return ""
    if st.kind == "directory":
        return "/"
    fmt = stat_mod.S_IFMT(st.mode)
    if fmt == stat_mod.S_IFIFO:
        return "|"
    if fmt == stat_mod.S_IFSOCK:
        return "="
    return "*" if st.kind == "file" and st.executable else ""


@mutable
class _Tree(MutableRecord):
    args: TreeArgs
    ctx: Context
    patterns: list[str]
    keep: list[str] = field(factory=list)  # -P: files must match one of these
    glyphs: tuple[str, str, str, str] = (_TEE, _ELL, _BAR, _GAP)
    dirs: int = 0
    files: int = 0
    lines: list[str] = field(factory=list)

    def ignored(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for p in self.patterns)

    def entries(self, path: str, shown: str, depth: int = 0) -> list[_Entry] | None:
        fs = self.ctx.fs
        try:
            names = fs.listdir(path)
        except FsError:
            return None
        out: list[_Entry] = []
        for name in names:
            if (name[0] == "." and not self.args.all) or self.ignored(name):
                continue
            p = path.rstrip("/") + "/" + name
            try:
                st = fs.stat(p, follow=False)
            except FsError:
                continue
            if st.kind == "symlink":
                try:
                    target = fs.readlink(p)
                except FsError:
                    target = ""
                try:
                    tst: FileStat | None = fs.stat(p, follow=True)
                except FsError:
                    tst = None
                is_dir = tst is not None and tst.kind == "directory"
                e = _Entry(name, p, "link", is_dir, target, st, tst)
            else:
                e = _Entry(name, p, "directory" if st.kind == "directory" else "file",
                           st.kind == "directory", "", st)
            if self.args.dirs_only and not e.is_dir:
                continue
            if self.keep and e.kind != "directory" and not any(
                    fnmatch.fnmatchcase(name, k) for k in self.keep):
                continue
            if self.args.prune and e.is_dir and (  # a link to a directory is never opened
                    e.kind == "link" or not self.has_content(p, depth + 1)):
                continue
            out.append(e)
        out.sort(key=lambda e: e.name)
        if self.args.mtime_sort:
            out.sort(key=lambda e: e.st.mtime if e.st is not None else 0.0)
        if self.args.reverse:
            out.reverse()
        if self.args.dirsfirst:
            out.sort(key=lambda e: not e.is_dir)
        return out

    def has_content(self, path: str, depth: int) -> bool:
        """--prune: whether a directory lists anything once -P/-I and -L have had their
        say (`depth` is the level its entries would be listed at)."""
        level = self.args.level
        if level is not None and depth >= level:
            return False
        return bool(self.entries(path, "", depth))

    def info(self, st: FileStat | None) -> str:
        """The `[perms size]  ` column of -p, -s and -h."""
        a = self.args
        if st is None or not (a.perms or a.size or a.human):
            return ""
        parts = []
        if a.perms:
            parts.append(mode_string(full_mode(st)))
        if a.human:
            parts.append(f"{_human(st.size):>4}")
        elif a.size:
            parts.append(f"{st.size:>11}")
        return "[" + " ".join(parts) + "]  "

    def label(self, e: _Entry, shown: str) -> str:
        text = self.info(e.st) + _escape(shown if self.args.full_path else e.name)
        if e.kind == "link":
            tail = _suffix(e.target_st) if self.args.classify else ""
            return f"{text} -> {_escape(e.target)}{tail}"
        return text + (_suffix(e.st) if self.args.classify else "")

    def walk(self, path: str, shown: str, prefix: str, depth: int) -> list[dict[str, Any]] | None:
        """List one directory's entries below `prefix`; their JSON, None when unread."""
        level = self.args.level
        if level is not None and depth >= level:
            return None
        items = self.entries(path, shown, depth)
        if items is None:
            return None
        nodes: list[dict[str, Any]] = []
        last = len(items) - 1
        for i, e in enumerate(items):
            child_shown = shown.rstrip("/") + "/" + e.name
            tee, ell, bar, gap = self.glyphs
            branch = "" if self.args.no_indent else prefix + (ell if i == last else tee)
            self.lines.append(branch + self.label(e, child_shown))
            node: dict[str, Any] = {"type": e.kind, "name": e.name}
            if e.kind == "link":
                node["target"] = e.target
            if e.is_dir:
                self.dirs += 1
            else:
                self.files += 1
            if e.kind == "directory":
                sub = self.walk(e.path, child_shown, prefix + (gap if i == last else bar),
                                depth + 1)
                if sub:
                    node["contents"] = sub
            nodes.append(node)
        return nodes

    def root(self, name: str) -> tuple[dict[str, Any], bool]:
        """List one operand; (its JSON, whether it could not be read at all)."""
        path = self.ctx.path(name)
        fs = self.ctx.fs
        node: dict[str, Any] = {"type": "directory", "name": name}
        try:
            is_dir = fs.is_dir(path)
            exists = is_dir or fs.exists(path)
        except FsError:
            is_dir = exists = False
        if not is_dir:
            self.lines.append(f"{_escape(name)}  [error opening dir]")
            node["contents"] = [{"error": "error opening dir"}]
            if exists:
                self.files += 1
            return node, not exists
        try:
            root_st: FileStat | None = fs.stat(path, follow=True)
        except FsError:
            root_st = None
        tail = "/" if self.args.classify else ""
        self.lines.append(self.info(root_st) + _escape(name) + tail)
        sub = self.walk(path, name, "", 0)
        if sub:
            self.dirs += 1
            node["contents"] = sub
        return node, False


@tool(
    "tree", kind="list",
    args=TreeArgs,
    description=(
        "list the contents of directories as a tree (tree 2.1); --json gives tree -J's "
        'nested [{"type","name","contents"}, …, {"type":"report"}]'
    ),
    examples=[
        ("the current directory", "tree"),
        ("two levels, directories only", "tree -d -L 2 src"),
        ("skip build output", "tree -I 'build|__pycache__'"),
    ],
)
def tree(args: TreeArgs, ctx: Context) -> ToolReturn:
    if args.level is not None and args.level < 1:
        ctx.stderr.write(b"tree: Invalid level, must be greater than 0.\n")
        return 1
    patterns = [p for pat in args.ignore for p in pat.split("|")]
    run = _Tree(args, ctx, patterns, [p for pat in args.pattern for p in pat.split("|")])
    if (args.charset or "").lower() == "ascii":
        run.glyphs = ("|-- ", "`-- ", "|   ", "    ")
    roots: list[dict[str, Any]] = []
    code = 0
    for name in args.dirs or (".",):
        node, missing = run.root(name)
        roots.append(node)
        if missing:
            code = 2
    report: dict[str, Any] = {"type": "report", "directories": run.dirs}
    if not args.dirs_only:
        report["files"] = run.files
    data = roots if args.noreport else [*roots, report]
    if ctx.json:
        return Outcome(code=code, output=OutputData.text("", rich_json=data))
    if not args.noreport:
        d = "directory" if run.dirs == 1 else "directories"
        tail = f"{run.dirs} {d}"
        if not args.dirs_only:
            tail += f", {run.files} {'file' if run.files == 1 else 'files'}"
        run.lines.append("")
        run.lines.append(tail)
    ctx.write("".join(line + "\n" for line in run.lines))
    if run.dirs + run.files > VALUE_ITEMS:
        return code  # too many entries for a value: none is kept
    return Outcome(code=code, output=OutputData.value(lambda: data))


TOOLS = [tree]
