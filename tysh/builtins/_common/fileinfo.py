"""Helpers shared by the file builtins: GNU-style quoting, mode strings, entry kinds,
owner names and local time.

Kept free of heavy imports: `pwd`/`grp`/`zoneinfo` and `datetime` load only when
`ls -l` or `stat` needs them, so a tool that wants `q` alone pays for none of them."""

from __future__ import annotations

import stat as stat_mod
import time

from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.memo import bounded_memo
from tysh.kernel.fs.api import FileStat
from tysh.kernel.tools.context import Context

TYPE_CHECKING = False
if TYPE_CHECKING:
    import datetime as _dt
    from datetime import datetime, tzinfo
    from typing import Any
else:
    _dt = LazyModule(globals(), "_dt", "datetime")


def q(name: str) -> str:
    """Quote a file name the way GNU coreutils does in messages (`'x'`, `"it's"`)."""
    if "'" in name and '"' not in name:
        return f'"{name}"'
    if "'" in name:
        return "'" + name.replace("'", "'\\''") + "'"
    return f"'{name}'"


def entry_type(st: FileStat) -> str:
    """The OutputNode entry type of a file: file, directory, executable or symlink."""
    if st.kind == "directory":
        return "directory"
    if st.kind == "symlink":
        return "symlink"
    if st.executable:
        return "executable"
    return "file"


_JSON_TYPE = {
    stat_mod.S_IFDIR: "directory", stat_mod.S_IFLNK: "symlink", stat_mod.S_IFREG: "file",
    stat_mod.S_IFIFO: "fifo", stat_mod.S_IFSOCK: "socket", stat_mod.S_IFCHR: "char",
    stat_mod.S_IFBLK: "block",
}


def file_type(st: FileStat) -> str:
    """The `type` of a file record in every tool's JSON (docs/embedding.md, "Typed
    values"): file, directory, symlink, fifo, socket, char, block or unknown."""
    return _JSON_TYPE.get(stat_mod.S_IFMT(full_mode(st)), "unknown")


def kind_type(kind: str) -> str:
    """`type` from a directory entry's kind alone (no stat): file, directory, symlink,
    or unknown for anything else."""
    return kind if kind in ("file", "directory", "symlink") else "unknown"


_TYPE_CHAR = {
    stat_mod.S_IFDIR: "d", stat_mod.S_IFLNK: "l", stat_mod.S_IFREG: "-",
    stat_mod.S_IFIFO: "p", stat_mod.S_IFSOCK: "s", stat_mod.S_IFCHR: "c",
    stat_mod.S_IFBLK: "b",
}
_KIND_MODE = {"directory": stat_mod.S_IFDIR, "symlink": stat_mod.S_IFLNK, "file": stat_mod.S_IFREG}


def full_mode(st: FileStat) -> int:
    """The mode with its file-type bits, filled from `kind` when a filesystem omits them."""
    if stat_mod.S_IFMT(st.mode):
        return st.mode
    return st.mode | _KIND_MODE.get(st.kind, 0)


def mode_string(mode: int) -> str:
    """`-rw-r--r--` for a st_mode, as ls -l and stat %A print it."""
    chars = [_TYPE_CHAR.get(stat_mod.S_IFMT(mode), "?")]
    for who, (r, w, x, special, on, off) in enumerate(
        (
            (stat_mod.S_IRUSR, stat_mod.S_IWUSR, stat_mod.S_IXUSR, stat_mod.S_ISUID, "s", "S"),
            (stat_mod.S_IRGRP, stat_mod.S_IWGRP, stat_mod.S_IXGRP, stat_mod.S_ISGID, "s", "S"),
            (stat_mod.S_IROTH, stat_mod.S_IWOTH, stat_mod.S_IXOTH, stat_mod.S_ISVTX, "t", "T"),
        )
    ):
        del who
        chars.append("r" if mode & r else "-")
        chars.append("w" if mode & w else "-")
        if mode & special:
            chars.append(on if mode & x else off)
        else:
            chars.append("x" if mode & x else "-")
    return "".join(chars)


def type_description(st: FileStat) -> str:
    """stat's %F: `regular file`, `directory`, `symbolic link`, …"""
    mode = full_mode(st)
    fmt = stat_mod.S_IFMT(mode)
    if fmt == stat_mod.S_IFREG:
        return "regular empty file" if st.size == 0 else "regular file"
    return {
        stat_mod.S_IFDIR: "directory", stat_mod.S_IFLNK: "symbolic link",
        stat_mod.S_IFIFO: "fifo", stat_mod.S_IFSOCK: "socket",
        stat_mod.S_IFCHR: "character special file", stat_mod.S_IFBLK: "block special file",
    }.get(fmt, "unknown")


@bounded_memo(256)
def user_name(uid: int) -> str:
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (KeyError, ImportError):
        return str(uid)


@bounded_memo(256)
def group_name(gid: int) -> str:
    try:
        import grp

        return grp.getgrgid(gid).gr_name
    except (KeyError, ImportError):
        return str(gid)


@bounded_memo(32)
def named_zone(name: str) -> tzinfo | None:
    """The zone a TZ value names; None (the host's zone) for one it cannot load."""
    if name in ("UTC", "UTC0", "GMT", ":UTC"):
        return _dt.UTC
    try:
        from zoneinfo import ZoneInfo

        return ZoneInfo(name.lstrip(":"))
    except Exception:  # noqa: BLE001 - any bad TZ falls back to the host zone
        return None


def local_time(ctx: Context, ts: float) -> datetime:
    """A timestamp in the session's TZ (the kernel's variable, not the process's)."""
    tz_name: Any = None
    try:
        tz_name = ctx.shell.get_var("TZ")
    except Exception:  # noqa: BLE001 - a minimal shell may not know variables
        tz_name = None
    zone = named_zone(str(tz_name)) if tz_name else None
    if zone is None:
        return _dt.datetime.fromtimestamp(ts).astimezone()
    return _dt.datetime.fromtimestamp(ts, zone)


def now() -> float:
    return time.time()


def human_size(n: int, base: int = 1024) -> str:
    """GNU `-h` (base 1024: 1023, 1.0K, 9.9K, 10K, 1.5M) and `--si` (base 1000, lower-case
    k): rounded up, one decimal below 10. Integer arithmetic, so a byte past a unit
    boundary still rounds up (1048577 is 1.1M, as GNU prints it)."""
    if n < base:
        return str(n)
    units = "kMGTPEZY" if base == 1000 else "KMGTPEZY"
    scale = 1
    for i, unit in enumerate(units):
        scale *= base
        last = i == len(units) - 1
        if n * 10 < 10 * 10 * scale:  # below 10 units: one decimal
            tenths = -(-n * 10 // scale)
            if tenths < 100:
                return f"{tenths // 10}.{tenths % 10}{unit}"
        whole = -(-n // scale)
        if whole < base or last:
            return f"{whole}{unit}"
    return str(n)


def join(base: str, name: str) -> str:
    """Join a displayed path and a name the way find and ls print it (`src/` + `x` → `src/x`)."""
    if base.endswith("/"):
        return base + name
    return base + "/" + name
