"""Read-only path tools: stat, basename, dirname, realpath."""

from __future__ import annotations

import os
import posixpath

from tysh.builtins._common.fileinfo import (
    file_type,
    full_mode,
    group_name,
    local_time,
    mode_string,
    q,
    type_description,
    user_name,
)
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.fs.api import FileStat, FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

# ---------------------------------------------------------------------------------------
# basename / dirname

_NAMES_JSON = "; --json gives the name as a string, or an array of names for several"


def write_names(ctx: Context, names: list[str], end: str, status: int) -> int | Outcome:
    """Write one name per line; under `--json` one name is a string, several an array."""
    text = "".join(n + end for n in names)
    if not ctx.json:
        ctx.write(text)
        return status
    data: Any = names[0] if len(names) == 1 else names
    return Outcome(code=status, output=OutputData.text(text, rich_json=data))


def base_name(name: str, suffix: str = "") -> str:
    """GNU basename: trailing slashes ignored, `/` stays `/`, a suffix equal to the whole
    name is kept."""
    s = name.rstrip("/")
    if not s:
        return "/" if name else ""
    b = s.rsplit("/", 1)[-1]
    if suffix and b != suffix and b.endswith(suffix):
        b = b[: -len(suffix)]
    return b


def dir_name(name: str) -> str:
    """GNU dirname: `a/b/` → `a`, `file` → `.`, `/` → `/`."""
    s = name.rstrip("/")
    if not s:
        return "/" if name.startswith("/") else "."
    if "/" not in s:
        return "."
    d = s.rsplit("/", 1)[0].rstrip("/")
    return d or "/"


@value_record
class BasenameArgs(Record):
    names: tuple[str, ...] = param(default=(), positional=True, help="NAME [SUFFIX], or names with -a/-s")
    multiple: bool = param(default=False, aliases=["-a"], help="every operand is a NAME")
    suffix: str | None = param(default=None, aliases=["-s"], help="remove this suffix; implies -a")
    zero: bool = param(default=False, aliases=["-z"], help="end each output line with NUL")


@tool(
    "basename", kind="compute",
    args=BasenameArgs,
    description="strip directory and suffix from file names" + _NAMES_JSON,
    examples=[("file name without folder and extension", "basename src/main.py .py")],
)
def basename(args: BasenameArgs, ctx: Context) -> int | Outcome:
    names = list(args.names)
    if not names:
        ctx.error("missing operand")
        return 1
    suffix = args.suffix or ""
    if not args.multiple and args.suffix is None:
        if len(names) > 2:
            ctx.error(f"extra operand {q(names[2])}")
            return 1
        if len(names) == 2:
            suffix = names[1]
            names = names[:1]
    end = "\0" if args.zero else "\n"
    return write_names(ctx, [base_name(n, suffix) for n in names], end, 0)


@value_record
class DirnameArgs(Record):
    names: tuple[str, ...] = param(default=(), positional=True, help="file names")
    zero: bool = param(default=False, aliases=["-z"], help="end each output line with NUL")


@tool(
    "dirname", kind="compute",
    args=DirnameArgs,
    description="strip the last component from file names" + _NAMES_JSON,
    examples=[("the folder of a path", "dirname /usr/bin/env")],
)
def dirname(args: DirnameArgs, ctx: Context) -> int | Outcome:
    if not args.names:
        ctx.error("missing operand")
        return 1
    end = "\0" if args.zero else "\n"
    return write_names(ctx, [dir_name(n) for n in args.names], end, 0)


# ---------------------------------------------------------------------------------------
# realpath


@value_record
class RealpathArgs(Record):
    paths: tuple[str, ...] = param(default=(), positional=True, help="file names")
    canonicalize_existing: bool = param(default=False, aliases=["-e"], help="every component must exist")
    canonicalize_missing: bool = param(default=False, aliases=["-m"], help="no component need exist")
    no_symlinks: bool = param(default=False, aliases=["-s", "--strip"], help="do not resolve symlinks")
    quiet: bool = param(default=False, aliases=["-q"], help="no error messages")
    relative_to: str | None = param(default=None, help="print relative to this directory")
    relative_base: str | None = param(default=None,
                                      help="relative only for names under this directory")
    logical: bool = param(default=False, aliases=["-L"], help="resolve '..' before symlinks")
    physical: bool = param(default=False, aliases=["-P"], help="resolve symlinks as met (default)")
    zero: bool = param(default=False, aliases=["-z"], help="end each output line with NUL")


def is_link(ctx: Context, path: str) -> bool:
    """Whether `path` itself is a symlink; False when it cannot be read."""
    try:
        return ctx.fs.stat(path, follow=False).kind == "symlink"
    except FsError:
        return False


def _under(path: str, base: str) -> bool:
    """Whether `path` is `base` or inside it."""
    return path == base or path.startswith(base.rstrip("/") + "/")


@tool(
    "realpath", kind="read",
    args=RealpathArgs,
    description="print the resolved absolute file name" + _NAMES_JSON,
    examples=[("absolute path of a file", "realpath ../notes.txt")],
)
def realpath(args: RealpathArgs, ctx: Context) -> int | Outcome:
    if not args.paths:
        ctx.error("missing operand")
        return 1
    status = 0
    out: list[str] = []
    fs = ctx.fs
    def resolve(name: str) -> str:
        path = ctx.path(name)  # normalised: `x/..` dropped, as -L and -s want
        if args.no_symlinks:
            return path
        if not args.logical and ".." in name.split("/"):
            # the default -P resolves `link/..` physically: the link's target's parent
            path = name if name.startswith("/") else ctx.shell.cwd.rstrip("/") + "/" + name
        return fs.realpath(path)

    rel = resolve(args.relative_to) if args.relative_to is not None else None
    base = resolve(args.relative_base) if args.relative_base is not None else None
    if base is not None and rel is not None and not _under(rel, base):
        base = rel = None  # GNU: --relative-to outside --relative-base turns both off
    elif base is not None and rel is None:
        rel = base
    for p in args.paths:
        if p == "":
            if not args.quiet:
                ctx.error(": No such file or directory")
            status = 1
            continue
        res = resolve(p)
        ok = True
        if args.canonicalize_existing:
            ok = fs.exists(res)
        elif not args.canonicalize_missing:
            parent = posixpath.dirname(res) or "/"
            ok = fs.is_dir(parent) and (not p.endswith("/") or fs.is_dir(res))
        reason = "No such file or directory"
        if (ok or args.canonicalize_existing) and not args.canonicalize_missing and is_link(
                ctx, res):
            try:  # the resolver gave up on a link: a loop, which GNU reports
                fs.stat(res, follow=True)
            except FsError as e:
                ok, reason = False, e.reason
        if not ok:
            if not args.quiet:
                ctx.error(f"{p}: {reason}")
            status = 1
            continue
        if rel is not None and (base is None or _under(res, base)):
            res = posixpath.relpath(res, rel)
        out.append(res)
    end = "\0" if args.zero else "\n"
    return write_names(ctx, out, end, status)


# ---------------------------------------------------------------------------------------
# stat

DEFAULT_FORMAT = (
    "  File: %n%l\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n"
    "Device: %Hd,%Ld\tInode: %-11i Links: %h\n"
    "Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"
    "Access: %x\nModify: %y\nChange: %z\n Birth: -"
)
TERSE_FORMAT = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o"
_DIRECTIVE = LazyRegex(r"%([-#0 +']*)(\d*)(?:\.(\d+))?([HL][dr]|[a-zA-Z%])")
_ESC = {"n": "\n", "t": "\t", "\\": "\\", "0": "\0", "a": "\a", "r": "\r", '"': '"'}


@value_record
class StatArgs(Record):
    files: tuple[str, ...] = param(default=(), positional=True, help="files to describe")
    format: str | None = param(default=None, aliases=["-c"], help="format with %n %s %F %a %A %U %G %Y …; newline added")
    printf: str | None = param(default=None, help="like --format, backslash escapes, no newline added")
    dereference: bool = param(default=False, aliases=["-L"], help="follow symlinks")
    terse: bool = param(default=False, aliases=["-t"], help="one terse line per file")


def _when(ctx: Context, ts: float) -> str:
    t = local_time(ctx, ts)
    frac = f"{ts % 1:.9f}"[2:]
    off = t.strftime("%z") or "+0000"
    return t.strftime("%Y-%m-%d %H:%M:%S") + "." + frac + " " + off


def _field(ctx: Context, d: str, name: str, abs_path: str, st: FileStat) -> str | int:
    if d == "n":
        return name
    if d == "N":
        if st.kind == "symlink":
            try:
                return f"{q(name)} -> {q(ctx.fs.readlink(abs_path))}"
            except FsError:
                pass
        return q(name)
    if d == "l":  # internal: the ` -> target` of the default format
        if st.kind == "symlink":
            try:
                return " -> " + ctx.fs.readlink(abs_path)
            except FsError:
                return ""
        return ""
    if d[0] == "H" and len(d) == 2:
        return os.major(st.dev)
    if d[0] == "L" and len(d) == 2:
        return os.minor(st.dev)
    if d == "s":
        return st.size
    if d == "b":
        return st.blocks
    if d == "B":
        return 512
    if d == "o":
        return 4096
    if d == "F":
        return type_description(st)
    if d == "a":
        return format(st.mode & 0o7777, "o")
    if d == "A":
        return mode_string(full_mode(st))
    if d == "f":
        return format(full_mode(st), "x")
    if d == "h":
        return st.nlink
    if d == "i":
        return st.ino
    if d == "u":
        return st.uid
    if d == "g":
        return st.gid
    if d == "U":
        return user_name(st.uid)
    if d == "G":
        return group_name(st.gid)
    if d == "d":
        return st.dev
    if d == "D":
        return format(st.dev, "x")
    if d in "tT":
        return "0"
    if d in "XYZ":
        return int({"X": st.atime, "Y": st.mtime, "Z": st.ctime}[d])
    if d in "xyz":
        return _when(ctx, {"x": st.atime, "y": st.mtime, "z": st.ctime}[d])
    if d == "W":
        return 0
    if d == "w":
        return "-"
    if d == "m":
        return "/"
    return "?"  # GNU: an unknown directive (or an unavailable one, %C) prints ?


def _render(fmt: str, ctx: Context, name: str, abs_path: str, st: FileStat) -> str:
    def sub(m: re.Match[str]) -> str:
        flags, width, prec, d = m.groups()
        if d == "%":
            return "%"
        v = _field(ctx, d, name, abs_path, st)
        if d in "XYZ" and prec is not None:  # `%.3Y`: seconds with that many decimals
            ts = {"X": st.atime, "Y": st.mtime, "Z": st.ctime}[d]
            digits = f"{ts % 1:.9f}"[2:].ljust(int(prec), "0")[: int(prec)]
            v = f"{int(ts)}.{digits}" if digits else str(int(ts))
        elif d in "afD" and "#" in flags and str(v) != "0":
            v = ("0x" if d in "fD" else "0") + str(v)  # `%#a`: the octal mode with its 0
        if d == "a" and "0" in flags and width:
            return str(v).rjust(int(width), "0")
        if isinstance(v, int) and ("+" in flags or " " in flags):
            sign = "+" if "+" in flags else " "
            if "0" in flags and "-" not in flags and width:
                return f"{v:{sign}0{int(width)}d}"
            v = f"{v:{sign}d}"
        s = str(v)
        if prec and d not in "XYZ":
            s = s[: int(prec)]
        if width:
            w = int(width)
            if "-" in flags:
                s = s.ljust(w)
            elif "0" in flags and isinstance(v, int):
                s = s.rjust(w, "0")
            else:
                s = s.rjust(w)
        return s

    return _DIRECTIVE.sub(sub, fmt)


_BACKSLASH = LazyRegex(r"\\(.)")


def _unescape(fmt: str) -> str:
    return _BACKSLASH.sub(lambda m: _ESC.get(m.group(1), "\\" + m.group(1)), fmt)


def _json(ctx: Context, name: str, st: FileStat) -> dict[str, Any]:
    stripped = name.rstrip("/")
    return {
        "path": name,
        "name": stripped.rsplit("/", 1)[-1] if stripped else "/",
        "type": file_type(st),
        "description": type_description(st),
        "size": st.size,
        "mode": format(st.mode & 0o7777, "04o"),
        "permissions": mode_string(full_mode(st)),
        "links": st.nlink,
        "uid": st.uid,
        "gid": st.gid,
        "owner": user_name(st.uid),
        "group": group_name(st.gid),
        "inode": st.ino,
        "blocks": st.blocks,
        "atime": st.atime,
        "mtime": st.mtime,
        "ctime": st.ctime,
    }


@tool(
    "stat", kind="read",
    args=StatArgs,
    description="display file status",
    examples=[
        ("size and mode of a file", "stat -c '%s %a %n' notes.txt"),
        ("everything as JSON", "stat --json notes.txt"),
    ],
)
def stat(args: StatArgs, ctx: Context) -> int | OutputData | Outcome:
    if not args.files:
        ctx.error("missing operand")
        return 1
    status = 0
    records: list[tuple[str, FileStat]] = []
    chunks: list[str] = []
    if args.printf is not None:
        fmt, end = _unescape(args.printf), ""
    elif args.format is not None:
        fmt, end = args.format, "\n"
    elif args.terse:
        fmt, end = TERSE_FORMAT, "\n"
    else:
        fmt, end = DEFAULT_FORMAT, "\n"
    for f in args.files:
        path = ctx.path(f)
        try:
            st = ctx.fs.stat(path, follow=args.dereference)
        except FsError as e:
            ctx.error(f"cannot statx {q(f)}: {e.reason}")
            status = 1
            continue
        records.append((f, st))
        if not ctx.json:
            chunks.append(_render(fmt, ctx, f, path, st) + end)
    return Outcome(code=status, output=OutputData.text(
        "".join(chunks), rich_json=lambda: [_json(ctx, f, st) for f, st in records]))
