"""tree (tree 2.1, UTF-8 locale): list directories as an indented tree.

Entries are sorted by name (codepoint order, tree's default under C.UTF-8), hidden ones
skipped without -a. Symbolic links print as `name -> target` and are not followed; one
pointing at a directory counts as a directory. The report counts every directory and
file listed, and — as tree 2.1 does — the top directory itself whenever it lists
anything. --json gives tree -J's document: a list of {"type","name","contents"} trees
followed by a {"type":"report"} record."""

from __future__ import annotations

import fnmatch
from typing import Any

import attrs

from tysh.kernel.context import Context
from tysh.kernel.fs import FsError
from tysh.kernel.output import OutputData
from tysh.kernel.record import MutableRecord, Record
from tysh.kernel.tooldef import Outcome, ToolReturn, tool
from tysh.kernel.typed_args import param

# tree draws the continuing bar with two no-break spaces, and so do we (byte-exact)
_TEE, _ELL, _BAR, _GAP = "├── ", "└── ", "│\u00a0\u00a0 ", "    "


@attrs.frozen(repr=False, eq=False)
class TreeArgs(Record):
    dirs: tuple[str, ...] = param(positional=True, default=(), help="directories to list (default .)")
    all: bool = param(default=False, aliases=["-a"], help="list hidden entries too (not . and ..)")
    dirs_only: bool = param(default=False, aliases=["-d"], help="list directories only")
    level: int | None = param(default=None, aliases=["-L"], help="descend at most N levels")
    ignore: tuple[str, ...] = param(default=(), aliases=["-I"],
                                    help="skip names matching the wildcard PATTERN (a|b alternates)")
    full_path: bool = param(default=False, aliases=["-f"], help="print each entry's full path prefix")
    noreport: bool = param(default=False, help="omit the final directory and file count")
    dirsfirst: bool = param(default=False, help="list directories before files")


def _escape(name: str) -> str:
    """tree's rendering of unprintable characters: a backslash and three octal digits."""
    if name.isprintable():
        return name
    return "".join(c if c.isprintable() else "".join(f"\\{b:03o}" for b in
                   c.encode("utf-8", "surrogateescape")) for c in name)


@attrs.frozen(repr=False, eq=False)
class _Entry(Record):
    name: str
    path: str
    kind: str  # "directory" "file" "link"
    is_dir: bool  # a directory, or a link to one
    target: str = ""


@attrs.define(repr=False, eq=False)
class _Tree(MutableRecord):
    args: TreeArgs
    ctx: Context
    patterns: list[str]
    dirs: int = 0
    files: int = 0
    lines: list[str] = attrs.field(factory=list)

    def ignored(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for p in self.patterns)

    def entries(self, path: str, shown: str) -> list[_Entry] | None:
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
                    is_dir = fs.is_dir(p)
                except FsError:
                    is_dir = False
                e = _Entry(name, p, "link", is_dir, target)
            else:
                e = _Entry(name, p, "directory" if st.kind == "directory" else "file",
                           st.kind == "directory")
            if self.args.dirs_only and not e.is_dir:
                continue
            out.append(e)
        out.sort(key=lambda e: e.name)
        if self.args.dirsfirst:
            out.sort(key=lambda e: not e.is_dir)
        return out

    def label(self, e: _Entry, shown: str) -> str:
        text = _escape(shown if self.args.full_path else e.name)
        return f"{text} -> {_escape(e.target)}" if e.kind == "link" else text

    def walk(self, path: str, shown: str, prefix: str, depth: int) -> list[dict[str, Any]] | None:
        """List one directory's entries below `prefix`; their JSON, None when unread."""
        level = self.args.level
        if level is not None and depth >= level:
            return None
        items = self.entries(path, shown)
        if items is None:
            return None
        nodes: list[dict[str, Any]] = []
        last = len(items) - 1
        for i, e in enumerate(items):
            child_shown = shown.rstrip("/") + "/" + e.name
            self.lines.append(prefix + (_ELL if i == last else _TEE) + self.label(e, child_shown))
            node: dict[str, Any] = {"type": e.kind, "name": e.name}
            if e.kind == "link":
                node["target"] = e.target
            if e.is_dir:
                self.dirs += 1
            else:
                self.files += 1
            if e.kind == "directory":
                sub = self.walk(e.path, child_shown, prefix + (_GAP if i == last else _BAR),
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
        self.lines.append(_escape(name))
        sub = self.walk(path, name, "", 0)
        if sub:
            self.dirs += 1
            node["contents"] = sub
        return node, False


@tool(
    "tree",
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
    run = _Tree(args, ctx, patterns)
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
    if ctx.json:
        data = roots if args.noreport else [*roots, report]
        return Outcome(code=code, output=OutputData.text("", rich_json=data))
    if not args.noreport:
        d = "directory" if run.dirs == 1 else "directories"
        tail = f"{run.dirs} {d}"
        if not args.dirs_only:
            tail += f", {run.files} {'file' if run.files == 1 else 'files'}"
        run.lines.append("")
        run.lines.append(tail)
    ctx.write("".join(line + "\n" for line in run.lines))
    return code


TOOLS = [tree]
