"""Filesystem globbing through the kernel's FileSystem (never `os`/`glob` directly, so a
sandboxed or in-memory filesystem globs the same way), under the shell's glob options.

Patterns use `pattern.py`'s syntax: `* ? [...]` live, `\\x` literal, extended groups
(`@(a|b)`, `!(x)`) under extglob. `**` as a whole path segment matches zero or more
directories under globstar (on by default in tysh). A name starting with `.` matches
only a segment whose pattern starts with a literal `.` (unless dotglob), `.` and `..`
only that way and only with globskipdots off, and `**` never descends into hidden
directories (unless dotglob). Results are sorted by code point.

A glob that matches nothing is an error under failglob (tysh's default), is dropped
under nullglob, and otherwise stays as written (bash's default).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from tysh.kernel.base.errors import ExpansionError
from tysh.kernel.base.record import Record, frozen
from tysh.kernel.base.values import byte_view
from tysh.kernel.expand.pattern import (
    compile_pattern,
    has_magic,
    match,
    split_pattern,
    unescape,
)
from tysh.kernel.fs.api import FileSystem, FsError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["DEFAULT", "GlobOptions", "expand", "glob", "no_match_message"]

@frozen
class GlobOptions(Record):
    """The shell options a glob reads (see the module doc); `ignore` holds GLOBIGNORE's
    patterns."""

    nullglob: bool = False
    failglob: bool = True
    dotglob: bool = False
    nocaseglob: bool = False
    globstar: bool = True
    globskipdots: bool = True
    extglob: bool = True
    ignore: tuple[str, ...] = ()
    octets: bool = False  # the C locale: `?` and `[...]` match one byte of a name

    @classmethod
    def of(cls, shopt: Collection[str], globignore: str | None = None,
           octets: bool = False) -> GlobOptions:
        """The options of a shell whose `shopt` options on are `shopt` (`octets`: its
        locale counts bytes)."""
        ignore = tuple(p for p in split_pattern(globignore or "", ":") if p)
        return cls(
            nullglob="nullglob" in shopt, failglob="failglob" in shopt,
            dotglob="dotglob" in shopt or bool(ignore), nocaseglob="nocaseglob" in shopt,
            globstar="globstar" in shopt, globskipdots="globskipdots" in shopt,
            extglob="extglob" in shopt, ignore=ignore, octets=octets)


DEFAULT = GlobOptions()  # a new tysh session's (State.shopt's defaults)


def no_match_message(display: str) -> str:
    """The error of a glob matching nothing, saying how to pass the text itself."""
    quoted = "'" + display.replace("'", "'\\''") + "'"
    return f"no matches: {display} (quote it to pass the pattern: {quoted})"


def expand(pat: str, display: str, host: Any) -> list[str]:
    """The words a glob pattern gives in a shell (`host`: the expander's ExpandHost,
    whose `glob_options` are read when it has them): its matches, else nothing under
    nullglob, else an error under failglob, else `display` (the word as written, quotes
    removed)."""
    opts: GlobOptions = getattr(host, "glob_options", DEFAULT)
    matches = glob(pat, host.fs, host.cwd, opts)
    if matches:
        return matches
    if opts.nullglob:
        return []
    if opts.failglob:
        raise ExpansionError(no_match_message(display), status=1)
    return [display]


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


def _descend(lister: _Lister, shown: str, real: str, out: list[tuple[str, str]],
             hidden: bool) -> None:
    """Every directory below `real` (hidden ones only with `hidden`; symlinks not
    followed), depth first."""
    for name in lister.listdir(real):
        if name[0] == "." and not hidden:
            continue
        r = _join(real, name)
        if lister.is_dir(r, follow=False):
            s = _join(shown, name)
            out.append((s + "/", r))
            _descend(lister, s, r, out, hidden)


def _leading_dot(seg: str) -> bool:
    return seg.startswith(".") or seg.startswith("\\.")


def glob(pat: str, fs: FileSystem, cwd: str, opts: GlobOptions = DEFAULT) -> list[str]:
    """The sorted paths matching `pat`; relative patterns are resolved against `cwd` and
    give relative results."""
    lister = _Lister(fs)
    if pat.startswith("/"):
        cur: list[tuple[str, str]] = [("/", "/")]
        segs = split_pattern(pat.lstrip("/"), "/")
    else:
        cur = [("", cwd)]
        segs = split_pattern(pat, "/")
    dir_only = len(segs) > 1 and segs[-1] == ""
    if dir_only:
        segs.pop()
    last_i = len(segs) - 1
    for i, seg in enumerate(segs):
        last = i == last_i
        nxt: list[tuple[str, str]] = []
        if seg == "":
            continue
        if seg == "**" and opts.globstar:
            selves: list[tuple[str, str]] = []
            for shown, real in cur:
                if not last:
                    nxt.append((shown, real))
                elif shown and shown != "/":  # `c/**` names `c/` itself too
                    selves.append((shown.rstrip("/") + "/", real))
                below: list[tuple[str, str]] = []
                _descend(lister, shown, real, below, opts.dotglob)
                nxt.extend(below)
                if last and not dir_only:
                    _all_files(lister, shown, real, nxt, opts.dotglob)
            if last:
                nxt = selves + [(s.rstrip("/") if s != "/" else s, r) for s, r in nxt]
        elif not has_magic(seg, opts.extglob):
            name = unescape(seg)
            for shown, real in cur:
                r = _join(real, name)
                if last:
                    if lister.exists(r):
                        nxt.append((_join(shown, name), r))
                elif lister.is_dir(r):
                    nxt.append((_join(shown, name), r))
        else:
            rx = compile_pattern(seg, opts.extglob, opts.nocaseglob)
            # in the C locale a name that is not ASCII matches on its bytes
            brx = compile_pattern(byte_view(seg), opts.extglob, opts.nocaseglob) if (
                opts.octets) else None
            explicit_dot = _leading_dot(seg)
            dot_ok = explicit_dot or opts.dotglob
            dots = explicit_dot and not opts.globskipdots and not opts.ignore
            for shown, real in cur:
                names: Iterable[str] = lister.listdir(real)
                if dots:
                    names = [".", "..", *names]
                for name in names:
                    if name[0] == "." and not dot_ok:
                        continue
                    if brx is not None and not name.isascii():
                        if brx.fullmatch(byte_view(name)) is None:
                            continue
                    elif rx.fullmatch(name) is None:
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
    if opts.ignore:
        results = [p for p in results if not _ignored(p, opts)]
    return sorted(set(results))


def _ignored(path: str, opts: GlobOptions) -> bool:
    """Whether GLOBIGNORE drops `path`: `.` and `..` always, else when one of its
    patterns matches the whole path, `*` and `?` not crossing a `/`."""
    base = path.rstrip("/").rsplit("/", 1)[-1]
    if base in (".", ".."):
        return True
    parts = path.split("/")
    for p in opts.ignore:
        segs = split_pattern(p, "/")
        if len(segs) == len(parts) and all(
                match(s, x, extglob=opts.extglob) for s, x in zip(segs, parts, strict=True)):
            return True
    return False


def _all_files(lister: _Lister, shown: str, real: str, out: list[tuple[str, str]],
               hidden: bool) -> None:
    """A trailing `**`: every file below (hidden ones only with `hidden`; directories
    come from _descend)."""
    for name in lister.listdir(real):
        if name[0] == "." and not hidden:
            continue
        r = _join(real, name)
        s = _join(shown, name)
        if lister.is_dir(r, follow=False):
            _all_files(lister, s, r, out, hidden)
        else:
            out.append((s, r))
