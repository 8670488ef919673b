"""Filesystem globbing through the kernel's FileSystem (never `os`/`glob` directly, so a
sandboxed or in-memory filesystem globs the same way).

Patterns use `pattern.py`'s syntax: `* ? [...]` live, `\\x` literal. `**` as a whole
path segment matches zero or more directories (always on, as `shopt -s globstar`). A name
starting with `.` matches only a segment whose pattern starts with a literal `.`,
and `**` never descends into hidden directories. Results are sorted.
"""

from __future__ import annotations

from tysh.kernel.expand.pattern import compile_pattern, has_magic, unescape
from tysh.kernel.fs.api import FileSystem, FsError


def _join(base: str, name: str) -> str:
    if not base:
        return name
    return base + name if base.endswith("/") else base + "/" + name


class _Lister:
    """Directory listings and directory tests, cached for one glob."""

    def __init__(self, fs: FileSystem) -> None:
        self.fs = fs
        self.cache: dict[str, list[str]] = {}

    def listdir(self, path: str) -> list[str]:
        names = self.cache.get(path)
        if names is None:
            try:
                names = sorted(self.fs.listdir(path))
            except FsError:
                names = []
            except OSError:
                names = []
            self.cache[path] = names
        return names

    def is_dir(self, path: str, follow: bool = True) -> bool:
        try:
            return self.fs.stat(path, follow=follow).kind == "directory"
        except (FsError, OSError):
            return False

    def exists(self, path: str) -> bool:
        try:
            self.fs.stat(path, follow=False)
            return True
        except (FsError, OSError):
            return False


def _descend(lister: _Lister, shown: str, real: str, out: list[tuple[str, str]]) -> None:
    """Every non-hidden directory below `real` (not following symlinks), depth first."""
    for name in lister.listdir(real):
        if name[0] == ".":
            continue
        r = _join(real, name)
        if lister.is_dir(r, follow=False):
            s = _join(shown, name)
            out.append((s + "/", r))
            _descend(lister, s, r, out)


def glob(pat: str, fs: FileSystem, cwd: str) -> list[str]:
    """The sorted paths matching `pat`; relative patterns are resolved against `cwd` and
    give relative results."""
    lister = _Lister(fs)
    if pat.startswith("/"):
        cur: list[tuple[str, str]] = [("/", "/")]
        segs = pat.lstrip("/").split("/")
    else:
        cur = [("", cwd)]
        segs = pat.split("/")
    dir_only = len(segs) > 1 and segs[-1] == ""
    if dir_only:
        segs.pop()
    last_i = len(segs) - 1
    for i, seg in enumerate(segs):
        last = i == last_i
        nxt: list[tuple[str, str]] = []
        if seg == "":
            continue
        if seg == "**":
            for shown, real in cur:
                if not last:
                    nxt.append((shown, real))
                below: list[tuple[str, str]] = []
                _descend(lister, shown, real, below)
                nxt.extend(below)
                if last and not dir_only:
                    _all_files(lister, shown, real, nxt)
            if last:
                nxt = [(s.rstrip("/") if s != "/" else s, r) for s, r in nxt]
        elif not has_magic(seg):
            name = unescape(seg)
            for shown, real in cur:
                r = _join(real, name)
                if last:
                    if lister.exists(r):
                        nxt.append((_join(shown, name), r))
                elif lister.is_dir(r):
                    nxt.append((_join(shown, name), r))
        else:
            rx = compile_pattern(seg)
            dot_ok = seg.startswith(".") or seg.startswith("\\.")
            for shown, real in cur:
                for name in lister.listdir(real):
                    if name[0] == "." and not dot_ok:
                        continue
                    if rx.fullmatch(name) is None:
                        continue
                    r = _join(real, name)
                    if not last and not lister.is_dir(r):
                        continue
                    nxt.append((_join(shown, name), r))
        cur = nxt
        if not cur:
            return []
    if dir_only:
        results = [s.rstrip("/") + "/" for s, r in cur if lister.is_dir(r)]
    else:
        results = [s for s, _ in cur]
    return sorted(set(results))


def _all_files(lister: _Lister, shown: str, real: str, out: list[tuple[str, str]]) -> None:
    """A trailing `**`: every non-hidden file below (directories come from _descend)."""
    for name in lister.listdir(real):
        if name[0] == ".":
            continue
        r = _join(real, name)
        s = _join(shown, name)
        if lister.is_dir(r, follow=False):
            _all_files(lister, s, r, out)
        else:
            out.append((s, r))
