"""`ls`: list directory contents as GNU ls does when stdout is not a terminal.

The listing is returned as OutputData (one node per output line, each carrying its entry
type) so the REPL can colour and tabulate it; its canonical text is exactly GNU's
one-name-per-line output, headers and blank lines included. `--json` gives a flat list
of entries: name, path, type, size (plus mode, links, owner, group, mtime, target
with -l)."""

from __future__ import annotations

import stat as stat_mod

from tysh.builtins._common.fileinfo import (
    entry_type,
    file_type,
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
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.record import Record, frozen, replace, value_record
from tysh.kernel.fs.api import FileStat, FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData, OutputNode
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import fnmatch
    from typing import Any
else:  # only a glob option matches names: loaded when first used
    fnmatch = LazyModule(globals(), "fnmatch", "fnmatch")

SIX_MONTHS = 365.2425 * 24 * 3600 / 2


@value_record
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
    sort_size: bool = param(default=False, aliases=["-S"], help="sort by size, largest first")
    unsorted: bool = param(default=False, aliases=["-U"], help="do not sort")
    numeric_uid_gid: bool = param(default=False, aliases=["-n"], help="-l with numeric ids")
    no_group: bool = param(default=False, aliases=["-G"], help="-l without the group column")
    color: str = param(default="never", help="accepted for compatibility; colour is the REPL's job")
    dereference: bool = param(default=False, aliases=["-L"],
                              help="show the file a symbolic link points to")
    extension: bool = param(default=False, aliases=["-X"], help="sort by extension")
    sort: str | None = param(default=None,
                             choices=("none", "size", "time", "extension"),
                             help="sort by WORD")
    group_directories_first: bool = param(default=False, help="list directories before files")
    ignore: tuple[str, ...] = param(default=(), aliases=["-I"], repeatable=True, glob_passthrough=True,
                                    help="skip entries matching the shell PATTERN")
    hide: tuple[str, ...] = param(default=(), repeatable=True, glob_passthrough=True,
                                  help="like -I, but -a or -A override it")
    full_time: bool = param(default=False, help="-l with full-iso times")
    time_style: str | None = param(default=None,
                                   help="full-iso, long-iso, iso, locale or +FORMAT")
    long_no_owner: bool = param(default=False, aliases=["-g"], help="-l without the owner")
    long_no_group: bool = param(default=False, aliases=["-o"], help="-l without the group")
    literal: bool = param(default=False, aliases=["-N"], help="names as they are (the default)")
    inode: bool = param(default=False, aliases=["-i"], help="print each file's inode number")
    ignore_backups: bool = param(default=False, aliases=["-B"], help="skip names ending in ~")
    no_sort_all: bool = param(default=False, aliases=["-f"], help="-a -U: every entry, unsorted")
    ctime: bool = param(default=False, aliases=["-c"],
                        help="show and sort by (with -t) the status change time")
    atime: bool = param(default=False, aliases=["-u"],
                        help="show and sort by (with -t) the access time")
    si: bool = param(default=False, help="like -h, in powers of 1000")
    indicator_style: str | None = param(default=None,
                                        choices=("none", "slash", "file-type", "classify"),
                                        help="append markers: none, slash, file-type, classify")
    quote_name: bool = param(default=False, aliases=["-Q"], help="names in double quotes")
    vertical: bool = param(default=False, aliases=["-C"], help="list entries down columns")
    horizontal: bool = param(default=False, aliases=["-x"], help="list entries across rows")
    commas: bool = param(default=False, aliases=["-m"], help="a comma-separated list")
    alloc_size: bool = param(default=False, aliases=["-s", "--size"],
                             help="print each file's allocated size in KiB")


@frozen
class _Entry(Record):
    name: str  # what is printed
    path: str  # the displayed path (for --json)
    abs: str
    st: FileStat | None
    target: str | None = None


class _Lister:
    def __init__(self, args: LsArgs, ctx: Context) -> None:
        if args.no_sort_all:
            args = replace(args, all=True, unsorted=True)
        style = args.indicator_style
        if style is not None:
            args = replace(args, classify=args.classify or style in ("classify", "file-type"),
                                slash=args.slash or style == "slash")
        self.file_type = style == "file-type"  # -F without the `*` for executables
        self.a = args
        self.ctx = ctx
        self.lines: list[OutputNode] = []
        self.entries: list[dict[str, Any]] = []
        self.status = 0
        self.now = now()
        self.implicit = not args.paths  # `ls` alone: JSON paths without a `./` prefix
        self.active: set[tuple[int, int]] = set()  # -R: the directories being listed
        self.long = (args.long or args.long_no_owner or args.long_no_group or args.full_time
                     or args.numeric_uid_gid) and not args.no_sort_all  # GNU 9.1: -f drops -l
        self.by = args.sort or ("time" if (args.ctime or args.atime) and not self.long
                                and not args.sort_size else None) or (
            "none" if args.unsorted else "time" if args.time else "size" if args.sort_size
            else "extension" if args.extension else "name")
        self.layout = ("one" if self.long or args.one else "m" if args.commas
                       else "x" if args.horizontal else "C" if args.vertical else "one")
        self.width = _line_width(ctx) if self.layout != "one" else 80
        self.needs_stat = (self.long or self.by in ("time", "size") or args.classify
                           or args.slash or args.alloc_size or args.inode
                           or args.group_directories_first or args.indicator_style is not None)
        style = "full-iso" if args.full_time else (args.time_style or "locale")
        self.style = style.removeprefix("posix-")

    # -- gathering ----------------------------------------------------------------------
    def stat(self, abs_path: str, display: str = "") -> FileStat | None:
        if self.a.dereference:
            try:
                return self.ctx.fs.stat(abs_path, follow=True)
            except FsError as e:
                if display and self.needs_stat:
                    # a dangling link, where the listing needs its target: GNU reports
                    # it and lists it without data
                    self.ctx.error(f"cannot access {q(display)}: {e.reason}")
                    self.status = max(self.status, 1)
                    return None
        try:
            return self.ctx.fs.stat(abs_path, follow=False)
        except FsError:
            return None

    def entry(self, name: str, path: str, abs_path: str, st: FileStat | None) -> _Entry:
        target = None
        if st is not None and st.kind == "symlink" and self.long:
            try:
                target = self.ctx.fs.readlink(abs_path)
            except FsError:
                target = None
        return _Entry(name, path, abs_path, st, target)

    def sort(self, items: list[_Entry]) -> list[_Entry]:
        a = self.a
        if self.by == "none":
            return items
        items = sorted(items, key=lambda e: e.name)
        if self.by == "time":
            items.sort(key=lambda e: -self.time_of(e.st))
        elif self.by == "size":
            items.sort(key=lambda e: -(e.st.size if e.st else 0))
        elif self.by == "extension":
            items.sort(key=lambda e: e.name[e.name.rfind("."):] if "." in e.name else "")
        if a.reverse:
            items.reverse()
        if a.group_directories_first:
            items.sort(key=lambda e: not self.is_dir(e))
        return items

    def time_of(self, st: FileStat | None) -> float:
        """The time -t sorts by and -l shows: modification, or -c change, -u access."""
        if st is None:
            return 0.0
        return st.ctime if self.a.ctime else st.atime if self.a.atime else st.mtime

    def label(self, e: _Entry) -> str:
        """The name as printed: -Q wraps it in C-style double quotes."""
        if not self.a.quote_name:
            return e.name
        return '"' + e.name.replace("\\", "\\\\").replace('"', '\\"') + '"'

    def is_dir(self, e: _Entry) -> bool:
        """--group-directories-first puts links to directories with the directories."""
        if e.st is None or e.st.kind == "directory":
            return e.st is not None
        if e.st.kind != "symlink":
            return False
        try:
            return self.ctx.fs.stat(e.abs, follow=True).kind == "directory"
        except FsError:
            return False

    def hidden(self, name: str) -> bool:
        """-I patterns always, --hide patterns unless -a/-A."""
        pats = self.a.ignore
        if not (self.a.all or self.a.almost_all):
            pats = pats + self.a.hide
        return any(fnmatch.fnmatchcase(name, p) for p in pats)

    def read_dir(self, display: str, abs_path: str) -> list[_Entry] | None:
        a = self.a
        try:
            # every entry's lstat in one pass over the directory
            listed = self.ctx.fs.list_stats(abs_path)
        except FsError as e:
            self.ctx.error(f"cannot open directory {q(display)}: {e.reason}")
            self.status = 2
            return None
        show_hidden = a.all or a.almost_all
        if not show_hidden:
            listed = [x for x in listed if not x[0].startswith(".")]
        if a.ignore_backups:
            listed = [x for x in listed if not x[0].endswith("~")]
        if a.ignore or a.hide:
            listed = [x for x in listed if not self.hidden(x[0])]
        base = abs_path.rstrip("/") + "/"
        out = [
            self.entry(n, join(display, n), base + n,
                       self.stat(base + n, n if display == "." else join(display, n))
                       if a.dereference and lst.kind == "symlink" else lst)
            for n, lst in listed
        ]
        if a.all:
            for dot in (".", ".."):
                if a.ignore and self.hidden(dot):
                    continue
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
            return "*" if st.executable and not self.file_type else ""
        if self.a.slash and st.kind == "directory":
            return "/"
        return ""

    def when(self, ts: float) -> str:
        t = local_time(self.ctx, ts)
        recent = self.now - SIX_MONTHS < ts <= self.now + 60
        style = self.style
        if style == "full-iso":
            ns = int(round(ts * 1e9)) % 1_000_000_000
            return t.strftime("%Y-%m-%d %H:%M:%S.") + f"{ns:09d}" + t.strftime(" %z")
        if style == "long-iso":
            return t.strftime("%Y-%m-%d %H:%M")
        if style == "iso":
            return t.strftime("%m-%d %H:%M" if recent else "%Y-%m-%d ")
        if style.startswith("+"):
            old, _, new = style[1:].partition("\n")
            return t.strftime(new if new and recent else old)
        day = f"{t.day:>2}"
        mon = ("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec").split()[t.month - 1]
        if recent:
            return f"{mon} {day} {t.hour:02d}:{t.minute:02d}"
        return f"{mon} {day}  {t.year}"

    def json_entry(self, e: _Entry) -> dict[str, Any]:
        st = e.st
        d: dict[str, Any] = {
            "name": e.name,
            "path": e.path[2:] if self.implicit and e.path.startswith("./") else e.path,
            "type": file_type(st) if st else "unknown",
            "size": st.size if st else 0,
        }
        if self.long and st is not None:
            d["mode"] = format(st.mode & 0o7777, "04o")
            d["permissions"] = mode_string(full_mode(st))
            d["links"] = st.nlink
            d["owner"] = str(st.uid) if self.a.numeric_uid_gid else user_name(st.uid)
            d["group"] = str(st.gid) if self.a.numeric_uid_gid else group_name(st.gid)
            d["mtime"] = st.mtime
            if e.target is not None:
                d["target"] = e.target
        return d

    def emit(self, items: list[_Entry], total: bool, also: list[_Entry] | None = None) -> None:
        """Render entries. `also` are directory operands listed later: GNU sizes the
        columns of the file operands' block over them too."""
        a = self.a
        for e in items:
            self.entries.append(self.json_entry(e))
        every = items + (also or [])
        lead = self.lead_columns(every)[: len(items)]
        if total and a.alloc_size and not self.long:
            self.lines.append(OutputNode(name=f"total {self.total(items)}"))
        if not self.long and self.layout != "one" and items:
            cells = [pre + self.label(e) + self.suffix(e.st)
                     for e, pre in zip(items, lead, strict=True)]
            texts = _commas(cells, self.width) if self.layout == "m" else _grid(
                cells, self.width, self.layout == "C")
            self.lines.extend(OutputNode(name=row, text=row) for row in texts)
            return
        if not self.long:
            for e, pre in zip(items, lead, strict=True):
                self.lines.append(
                    OutputNode(
                        name=pre + self.label(e) + self.suffix(e.st),
                        entry_type=entry_type(e.st) if e.st else "file",
                    )
                )
            return
        rows: list[tuple[_Entry, list[str]]] = []
        pres: list[str] = []
        for e, pre in zip(every, lead + [""] * (len(every) - len(items)), strict=True):
            st = e.st
            pres.append(pre)
            if st is None:
                # -L and a dangling link: GNU's row of question marks; `..` of the
                # sandbox's root is a directory whose details are hidden
                kind = "d" if e.name == ".." else "l"
                rows.append((e, [kind + "?????????", "?", "?", "?", "?", "?"]))
                continue
            size = self.size_text(st.size)
            owner = str(st.uid) if a.numeric_uid_gid else user_name(st.uid)
            group = str(st.gid) if a.numeric_uid_gid else group_name(st.gid)
            cols = [mode_string(full_mode(st)), str(st.nlink), owner, group, size,
                    self.when(self.time_of(st))]
            rows.append((e, cols))
        if total:
            self.lines.append(OutputNode(name=f"total {self.total(items)}"))
        if not rows:
            return
        widths = [max(len(r[1][i]) for r in rows) for i in range(6)]
        for (e, cols), pre in zip(rows[: len(items)], pres, strict=False):
            parts = [pre + cols[0], cols[1].rjust(widths[1])]
            if not a.long_no_owner:
                parts.append(cols[2].ljust(widths[2]))
            if not (a.no_group or a.long_no_group):
                parts.append(cols[3].ljust(widths[3]))
            parts.extend([cols[4].rjust(widths[4]),
                          cols[5] if e.st is not None else cols[5].rjust(widths[5])])
            name = self.label(e) + self.suffix(e.st)
            if e.target is not None:
                target = self.label(_Entry(e.target, "", "", None))
                if a.classify:  # -F marks what the link points to
                    try:
                        target += self.suffix(self.ctx.fs.stat(e.abs, follow=True))
                    except FsError:
                        pass
                name = f"{self.label(e)} -> {target}"
            line = " ".join(parts) + " " + name
            kind = entry_type(e.st) if e.st is not None else "symlink"
            self.lines.append(OutputNode(name=line, entry_type=kind))

    def total(self, items: list[_Entry]) -> str:
        """The `total` line's figure: the KiB allocated to the listed entries."""
        kb = sum((e.st.blocks + 1) // 2 for e in items if e.st is not None)
        return self.size_text(kb * 1024) if self.a.human_readable or self.a.si else str(kb)

    def size_text(self, n: int) -> str:
        """A size as -l prints it: bytes, or -h (powers of 1024) and --si (of 1000)."""
        if self.a.si:
            return human_size(n, 1000)
        return human_size(n) if self.a.human_readable else str(n)

    def lead_columns(self, items: list[_Entry]) -> list[str]:
        """-i and -s: the inode and KiB columns before each entry, right-aligned."""
        a = self.a
        if not (a.inode or a.alloc_size):
            return [""] * len(items)
        cols: list[list[str]] = []
        for e in items:
            row = []
            if a.inode:
                row.append(str(e.st.ino) if e.st else "?")
            if a.alloc_size:
                kb = (e.st.blocks + 1) // 2 if e.st else 0
                row.append(self.size_text(kb * 1024) if a.human_readable or a.si else str(kb))
            cols.append(row)
        widths = [max(len(r[i]) for r in cols) for i in range(len(cols[0]))] if cols else []
        return ["".join(c.rjust(w) + " " for c, w in zip(r, widths, strict=True))
                for r in cols]

    def header(self, display: str) -> None:
        if self.lines:
            self.lines.append(OutputNode(name="", text=""))
        self.lines.append(OutputNode(name=self.label(_Entry(display, "", "", None)) + ":"))

    def list_dir(self, display: str, abs_path: str, headers: bool,
                 st: FileStat | None = None) -> None:
        key = (st.dev, st.ino) if st is not None and st.ino else None
        if key is not None and key in self.active:  # -RL through a link to an ancestor
            self.ctx.error(f"{display}: not listing already-listed directory")
            self.status = 2
            return
        if headers:
            self.header(display)
        items = self.read_dir(display, abs_path)
        if items is None:
            return
        self.emit(items, total=True)
        if self.a.recursive:
            if key is not None:
                self.active.add(key)
            for e in items:
                if e.st is not None and e.st.kind == "directory" and e.name not in (".", ".."):
                    self.list_dir(e.path, e.abs, True, e.st)
            if key is not None:
                self.active.discard(key)


def _line_width(ctx: Context) -> int:
    """GNU's line length for -C -x -m off a terminal: $COLUMNS when exported, else 80."""
    try:
        cols = ctx.shell.exported_env().get("COLUMNS", "")
    except Exception:  # noqa: BLE001 - a minimal shell may not export anything
        cols = ""
    return int(cols) if cols.isdigit() and int(cols) > 0 else 80


def _width(text: str) -> int:
    """Display columns of a name, as GNU's mbsnwidth counts them: control characters and
    combining marks 0, wide East Asian characters 2, an undecodable byte 1."""
    if text.isascii() and text.isprintable():
        return len(text)
    import unicodedata

    n = 0
    for c in text:
        if "\udc80" <= c <= "\udcff":
            n += 1
        elif unicodedata.category(c) in ("Cc", "Mn", "Me", "Cf"):
            continue
        else:
            n += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return n


def _pad(start: int, end: int) -> str:
    """GNU ls's indent(): tabs to 8-column stops where one fits, then spaces."""
    out = []
    while start < end:
        if end // 8 > (start + 1) // 8:
            out.append("\t")
            start += 8 - start % 8
        else:
            out.append(" ")
            start += 1
    return "".join(out)


def _grid(cells: list[str], width: int, down: bool) -> list[str]:
    """-C (down the columns) and -x (across): GNU's calculate_columns — the most columns
    whose widths (each name + 2, minimum 3) keep a line under `width`."""
    n = len(cells)
    max_cols = max(1, min(n, width // 3))
    fits: list[bool] = [True] * max_cols
    line_len = [(i + 1) * 3 for i in range(max_cols)]
    col_w = [[3] * (i + 1) for i in range(max_cols)]
    sizes = [_width(c) for c in cells]
    for k, length in enumerate(sizes):
        for i in range(max_cols):
            if not fits[i]:
                continue
            idx = k // ((n + i) // (i + 1)) if down else k % (i + 1)
            real = length + (0 if idx == i else 2)
            if col_w[i][idx] < real:
                line_len[i] += real - col_w[i][idx]
                col_w[i][idx] = real
                fits[i] = line_len[i] < width
    cols = max_cols
    while cols > 1 and not fits[cols - 1]:
        cols -= 1
    widths = col_w[cols - 1]
    rows = n // cols + (n % cols != 0)
    out: list[str] = []
    for r in range(rows):
        order = range(r, n, rows) if down else range(r * cols, min(n, (r + 1) * cols))
        parts: list[str] = []
        pos = 0
        for c, k in enumerate(order):
            if c:
                prev = sizes[k - rows if down else k - 1]
                parts.append(_pad(pos + prev, pos + widths[c - 1]))
                pos += widths[c - 1]
            parts.append(cells[k])
        out.append("".join(parts))
    return out


def _commas(cells: list[str], width: int) -> list[str]:
    """-m: names joined by `, `, a new line before a name that would reach `width`."""
    lines: list[str] = []
    cur: list[str] = []
    pos = 0
    for k, cell in enumerate(cells):
        size = _width(cell)
        if k:
            if pos + size + 2 < width:
                cur.append(", ")
                pos += 2
            else:
                cur.append(",")
                lines.append("".join(cur))
                cur, pos = [], 0
        cur.append(cell)
        pos += size
    lines.append("".join(cur))
    return lines


_LETTER_FIELD = {
    "a": "all", "A": "almost_all", "R": "recursive", "d": "directory", "F": "classify",
    "p": "slash", "r": "reverse", "l": "long", "h": "human_readable", "t": "time",
    "S": "sort_size", "U": "unsorted", "n": "numeric_uid_gid", "G": "no_group", "1": "one",
    "L": "dereference", "X": "extension", "g": "long_no_owner", "o": "long_no_group",
    "N": "literal", "i": "inode", "s": "alloc_size",
    "C": "vertical", "x": "horizontal", "m": "commas", "B": "ignore_backups", "f": "no_sort_all",
    "c": "ctime", "u": "atime", "Q": "quote_name",
}


def _digit_bundles(args: LsArgs) -> LsArgs:
    """`-1` (and bundles such as `-1a`) is `-` + a digit, so the binder hands it over as an
    operand; ls reads such words as its options, as GNU ls does."""
    paths: list[str] = []
    flags: dict[str, Any] = {}
    for p in args.paths:
        if p.startswith("-1") and all(c in _LETTER_FIELD for c in p[1:]):
            flags.update({_LETTER_FIELD[c]: True for c in p[1:]})
        else:
            paths.append(p)
    return replace(args, paths=tuple(paths), **flags)


@tool(
    "ls", kind="list",
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
        except FsError as e:
            if args.dereference:
                ctx.error(f"cannot access {q(p)}: {e.reason}")
                lister.status = 2
                continue
            try:
                st = ctx.fs.stat(abs_path, follow=False)  # a dangling symlink
            except FsError as e:
                ctx.error(f"cannot access {q(p)}: {e.reason}")
                lister.status = 2
                continue
        if st.kind != "symlink" and not args.dereference and not p.endswith("/"):
            # GNU follows a symbolic link operand only to a directory, and then only
            # without -l, -d and -F (or always with -L)
            lst = ctx.fs.stat(abs_path, follow=False)
            if lst.kind == "symlink" and (
                st.kind != "directory" or lister.long or args.directory
                or (lister.a.classify and not lister.file_type)
            ):
                st = lst
        if st.kind == "directory" and not args.directory:
            dirs.append(_Entry(p, p, abs_path, st))
        else:
            files.append(lister.entry(p, p, abs_path, st))
    files = lister.sort(files)
    dirs = lister.sort(dirs)
    if files:
        lister.emit(files, total=False, also=dirs)
    headers = args.recursive or len(operands) > 1
    for d in dirs:
        lister.list_dir(d.name, d.abs, headers, d.st)
    out = OutputData.nodes(lister.lines, rich_json=lister.entries)
    if lister.status:
        return Outcome(code=lister.status, output=out)
    return out
