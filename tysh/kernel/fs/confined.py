"""A host filesystem confined to one folder: the default for an embedded kernel.

Kernel paths are host paths, so `pwd` and error messages read naturally, but containment
is never decided on a path string. The root is held open as a directory fd; every access
resolves the path beneath it, one component at a time (openat2 with RESOLVE_BENEATH where
the host kernel has it, else a walk of O_PATH|O_NOFOLLOW opens that follows `..` and
symlinks itself), refuses a loop (`Too many levels of symbolic links`) and anything that
leaves the root, and then operates on what it resolved: the final name is used relative to
the directory fd it was found in (`openat`, `fstatat`, `unlinkat`, `renameat`, …) and
never followed again by name. A symlink swapped in by a concurrent job between two steps
is met by O_NOFOLLOW, not followed out.

Absolute symlink targets inside the root work (the walk restarts at the root fd); any
other absolute target is outside. `/dev/null` is the one path outside the root that may
be opened and stat'ed."""

from __future__ import annotations

import _thread
import errno
import os
import posixpath
import stat as stat_mod

from tysh.kernel.base.lazymod import contextmanager
from tysh.kernel.fs.api import (
    ENOTDIR,
    DirHandle,
    FileStat,
    FsError,
    check_name,
    names_dir,
)
from tysh.kernel.fs.hostio import (
    mode_flags,
    open_fifo_writer,
    read_whole,
    reason,
    replace_in,
    wrap_fd,
)
from tysh.kernel.fs.local import (
    FdDir,
    LocalFileSystem,
    fail,
    replace_check,
    scan_kinds,
    scan_stats,
    to_stat,
)
from tysh.kernel.fs.openat2 import fixed, resolver

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO

    from tysh.kernel.fs.openat2 import Openat2, Opener

DENIED = "Permission denied (outside the sandbox)"
ALLOWED_OUTSIDE = frozenset({"/dev/null"})
ELOOP = "Too many levels of symbolic links"
ENOENT = "No such file or directory"

MAX_LINKS = 40  # symlinks followed in one resolution, as Linux allows
MAX_RETRIES = 8  # re-resolutions when a name turns into a symlink under us

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_PATH = getattr(os, "O_PATH", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_LINK = _PATH | _NOFOLLOW | _CLOEXEC  # an fd for whatever the name is, links included
_SUBDIR = _PATH | _DIRECTORY | _NOFOLLOW | _CLOEXEC
_LIST = os.O_RDONLY | _DIRECTORY | _CLOEXEC
# openat2 errors that mean "the kernel would not resolve this beneath the root by itself"
# (an absolute link, `..` past the root, a loop, a long path, a rename racing `..`): the
# walk decides those
_WALK_DECIDES = frozenset({errno.EXDEV, errno.ELOOP, errno.EAGAIN, errno.ENAMETOOLONG,
                           errno.ENOSYS})
_FAST_MAX = 4000
_ENXIO = os.strerror(errno.ENXIO)  # longer relative paths go to the walk (PATH_MAX is 4096)
_READ = mode_flags("rb")
# a read of one name in the root directory itself: no directory on the way to resolve,
# and a link there is not followed (ELOOP: openat2 resolves it, beneath the root)
_READ_HERE = _READ | _NOFOLLOW
# the most kernel paths a filesystem remembers the relative path of (`_reads`)
_READS_KEPT = 256


class _Dir:
    """A directory fd found by a resolution and the name beneath it; closes the fd
    unless it is the root's."""

    __slots__ = ("fd", "name", "owned", "real")

    def __init__(self, fd: int, name: str, owned: bool, real: list[str]) -> None:
        self.fd = fd
        self.name = name
        self.owned = owned
        self.real = real  # the directory's physical components below the root

    def __enter__(self) -> _Dir:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.owned:
            self.owned = False
            os.close(self.fd)


class ConfinedFileSystem(LocalFileSystem):
    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root)
        given = posixpath.normpath(os.path.abspath(root))
        # kernel paths may spell the root as it was given (through a host symlink)
        self._spellings = (self.root,) if given == self.root else (self.root, given)
        self._prefixes = tuple(s.rstrip("/") + "/" for s in self._spellings)
        self._roots = tuple(zip(self._spellings, self._prefixes, strict=True))
        self._root_fd = -1
        self._lock = _thread.allocate_lock()
        self._openat2: Openat2 | None = None
        self._read_at: Opener | None = None  # openat2 with the flags of a read
        self._probed = False  # openat2 is looked for at the first path below the root
        # kernel path -> the path below the root that openat2 opens it by, for a path
        # read before: which path that is, and that openat2 takes it, is a matter of
        # the path's text and the root's spellings, which never change
        self._reads: dict[str, str] = {}
        self._proc_fd = os.path.isdir("/proc/self/fd")

    def __del__(self) -> None:
        fd = getattr(self, "_root_fd", -1)
        if fd >= 0:
            self._root_fd = -1
            try:
                os.close(fd)
            except OSError:
                pass

    # -- resolution -----------------------------------------------------------
    def _root(self, path: str) -> int:
        fd = self._root_fd
        if fd >= 0:
            return fd
        with self._lock:
            if self._root_fd < 0:
                try:
                    self._root_fd = os.open(self.root, _PATH | _DIRECTORY | _CLOEXEC)
                except OSError as e:
                    raise FsError(path, reason(e)) from None
            return self._root_fd

    def _norm_rel(self, path: str) -> tuple[str, list[str] | None]:
        """The normalised path and its components below the root (None when it is not
        under the root, textually: `..` is already gone from kernel paths)."""
        if "\0" in path:
            check_name(path)  # (refuses it)
        if "/." in path or "//" in path:
            norm = posixpath.normpath(path)
            if norm.startswith("//"):
                norm = "/" + norm.lstrip("/")
        else:
            norm = path.rstrip("/") or "/"
        for spelling, prefix in self._roots:
            if norm.startswith(prefix):
                return norm, norm[len(prefix):].split("/")
            if norm == spelling:
                return norm, []
        return norm, None

    def _below(self, path: str) -> list[str] | None:
        return self._norm_rel(path)[1]

    def _comps(self, path: str) -> list[str]:
        """The components below the root of a kernel path; DENIED outside it."""
        comps = self._norm_rel(path)[1]
        if comps is None:
            raise FsError(path, DENIED)
        return comps

    def _link_target(self, path: str, target: str) -> list[str] | None:
        """The components below the root of an absolute symlink target, or None when
        it points outside (its own `..` are left for the walk to take physically)."""
        parts = [c for c in target.split("/") if c and c != "."]
        for spelling in self._spellings:
            rp = [c for c in spelling.split("/") if c]
            if parts[: len(rp)] == rp:
                return parts[len(rp):]
        return None

    def _reopen(self, path: str, real: list[str]) -> int:
        """An fd for the directory `real` names below the root, opened afresh (after a
        `..`): never `openat(fd, "..")`, which a concurrent rename could turn outward."""
        fd = self._root(path)
        owned = False
        try:
            for name in real:
                nfd = os.open(name, _SUBDIR, dir_fd=fd)
                if owned:
                    os.close(fd)
                fd, owned = nfd, True
        except OSError as e:
            if owned:
                os.close(fd)
            raise FsError(path, reason(e)) from None
        return fd

    def _walk(self, path: str, comps: list[str], follow_last: bool,
              lenient: bool = False) -> tuple[_Dir, list[str]]:
        """Resolve `comps` beneath the root, one component at a time: every name is
        opened O_PATH|O_NOFOLLOW relative to the directory fd before it, symlinks are
        read from their own fd and their targets walked in turn (absolute ones from the
        root, `..` never above it). Returns the directory holding the final name (a
        symlink there is followed when `follow_last`; the name is "." when the path ends
        on a directory reached through `..` or a link) and, when `lenient`, the
        components left after the first one that could not be looked up (for realpath
        and mkdir -p), that one being the returned name."""
        try:
            return self._walk_from(path, comps, follow_last, lenient)
        except OSError as e:
            raise FsError(path, reason(e)) from None

    def _walk_from(self, path: str, comps: list[str], follow_last: bool,
                   lenient: bool) -> tuple[_Dir, list[str]]:
        root = self._root(path)
        todo = comps[::-1]
        real: list[str] = []
        cur, owned, stale = root, False, False
        hops = 0
        steps = 0
        try:
            while todo:
                name = todo.pop()
                if name == "..":
                    if not real:
                        raise FsError(path, DENIED)
                    real.pop()
                    stale = True
                    continue
                if stale:
                    if owned:
                        os.close(cur)
                    cur, owned, stale = root, False, False
                    if real:
                        cur, owned = self._reopen(path, real), True
                last = not todo
                if last and not follow_last:
                    d = _Dir(cur, name, owned, real)
                    owned = False
                    return d, []
                steps += 1
                if steps & 1023 == 0:
                    self.checkpoint()
                try:
                    fd = os.open(name, _LINK, dir_fd=cur)
                except OSError as e:
                    if last and e.errno == errno.ENOENT or lenient:
                        d = _Dir(cur, name, owned, real)
                        owned = False
                        return d, todo[::-1]
                    raise FsError(path, reason(e)) from None
                try:
                    mode = os.fstat(fd).st_mode
                    if stat_mod.S_ISLNK(mode):
                        hops += 1
                        if hops > MAX_LINKS:
                            raise FsError(path, ELOOP)
                        target = os.readlink("", dir_fd=fd)
                        if target.startswith("/"):
                            inside = self._link_target(path, target)
                            if inside is None:
                                raise FsError(path, DENIED)
                            if owned:
                                os.close(cur)
                            cur, owned, stale = root, False, False
                            real = []
                            todo.extend(reversed(inside))
                        else:
                            todo.extend(reversed([c for c in target.split("/")
                                                  if c and c != "."]))
                        continue
                    if last:
                        d = _Dir(cur, name, owned, real)
                        owned = False
                        return d, []
                    if not stat_mod.S_ISDIR(mode):
                        if lenient:
                            d = _Dir(cur, name, owned, real)
                            owned = False
                            return d, todo[::-1]
                        raise FsError(path, ENOTDIR)
                    if owned:
                        os.close(cur)
                    cur, owned = fd, True
                    fd = -1
                    real.append(name)
                finally:
                    if fd >= 0:
                        os.close(fd)
            if stale:
                if owned:
                    os.close(cur)
                cur, owned = root, False
                if real:
                    cur, owned = self._reopen(path, real), True
            d = _Dir(cur, ".", owned, real)
            owned = False
            return d, []
        finally:
            if owned:
                os.close(cur)

    def _fast(self, rel: str) -> Openat2 | None:
        """openat2, when the host has it and the path is short enough for one call."""
        if len(rel) > _FAST_MAX:
            return None
        if not self._probed:  # ctypes loads here, not for a kernel that opens no file
            self._openat2 = resolver()
            if self._openat2 is not None:
                self._read_at = fixed(_READ)
            self._probed = True
        return self._openat2

    def _open(self, path: str, comps: list[str], flags: int, mode: int = 0o666) -> int:
        """An fd for what `comps` names (symlinks followed, the last one too), opened
        with `flags`; FsError otherwise."""
        root = self._root(path)
        if not comps:
            try:
                return os.open(".", flags, mode, dir_fd=root)
            except OSError as e:
                raise FsError(path, reason(e)) from None
        rel = "/".join(comps)
        fast = self._fast(rel)
        if fast is not None:
            try:
                return fast(root, rel, flags, mode)
            except OSError as e:
                if e.errno not in _WALK_DECIDES:
                    raise FsError(path, reason(e)) from None
        return self._open_walked(path, comps, flags, mode)

    def _open_walked(self, path: str, comps: list[str], flags: int, mode: int = 0o666) -> int:
        """`_open` by the walk, for a path openat2 did not resolve alone."""
        for _ in range(MAX_RETRIES):
            with self._walk(path, comps, follow_last=True)[0] as d:
                try:
                    return os.open(d.name, flags | _NOFOLLOW, mode, dir_fd=d.fd)
                except OSError as e:
                    # the name became a symlink since the walk looked: look again
                    if e.errno != errno.ELOOP:
                        raise FsError(path, reason(e)) from None
        raise FsError(path, ELOOP)

    def _parent(self, path: str, comps: list[str]) -> _Dir:
        """The directory holding the last component (not followed) and its name; the
        root itself is (root fd, ".")."""
        root = self._root(path)
        if not comps:
            return _Dir(root, ".", False, [])
        if len(comps) == 1:
            return _Dir(root, comps[0], False, [])
        rel = "/".join(comps[:-1])
        fast = self._fast(rel)
        if fast is not None:
            try:
                return _Dir(fast(root, rel, _PATH | _DIRECTORY | _CLOEXEC, 0), comps[-1],
                            True, [])
            except OSError as e:
                if e.errno not in _WALK_DECIDES:
                    raise FsError(path, reason(e)) from None
        return self._walk(path, comps, follow_last=False)[0]

    def _final(self, path: str, comps: list[str]) -> _Dir:
        """The directory holding what the path names once a symlink in the last
        component is followed, and the name there (which, when the walk looked, was not a
        symlink, or did not exist)."""
        d = self._parent(path, comps)
        try:
            st = os.stat(d.name, dir_fd=d.fd, follow_symlinks=False)
        except OSError:
            return d
        if not stat_mod.S_ISLNK(st.st_mode):
            return d
        d.__exit__()
        return self._walk(path, comps, follow_last=True)[0]

    def _check_slash(self, path: str, comps: list[str]) -> None:
        """A trailing `/` names a directory: fail unless the path resolves to one."""
        if self.stat(path).kind != "directory":
            raise FsError(path, ENOTDIR)

    # -- FileSystem -------------------------------------------------------------
    def under_root(self, path: str) -> bool:
        """Whether a kernel path, as written, names a place under the root (no link on
        it is followed: the overlay asks this of paths that exist only in memory)."""
        return "\0" not in path and self._below(path) is not None

    def contains(self, path: str) -> bool:
        """Whether a kernel path resolves inside the sandbox (it may not exist yet)."""
        try:
            self.realpath(path)
            return True
        except FsError as e:
            return e.reason != DENIED

    def open(self, path: str, mode: str = "rb") -> IO[bytes]:
        if mode == "rb":
            rel = self._reads.get(path)
            if rel is not None:
                return self._read_known(path, rel)
        return self._open_path(path, mode)

    def read_small(self, path: str, limit: int) -> bytes | IO[bytes]:
        rel = self._reads.get(path)
        if rel is None or "/" in rel or not _NOFOLLOW:
            return self.open(path, "rb")
        # a file in the root read before
        return read_whole(self._read_fd(path, rel), limit, path, self.checkpoint)

    def _read_known(self, path: str, rel: str) -> IO[bytes]:
        """`open(path, "rb")` for a path `_reads` holds: `_open_path`'s steps with the
        answers that depend on the path's text alone already known."""
        return wrap_fd(self._read_fd(path, rel), "rb", path, self.checkpoint)

    def _read_fd(self, path: str, rel: str) -> int:
        """An fd read-only of a path `_reads` holds (its path below the root `rel`)."""
        try:
            if "/" in rel or not _NOFOLLOW:
                fd = self._read_at(self._root_fd, rel)  # type: ignore[misc]  # (set with rel)
            else:  # (os.open costs a third of openat2's call through ctypes)
                try:
                    fd = os.open(rel, _READ_HERE, dir_fd=self._root_fd)
                except OSError as e:
                    if e.errno != errno.ELOOP:
                        raise
                    fd = self._read_at(self._root_fd, rel)  # type: ignore[misc]
        except OSError as e:
            if e.errno not in _WALK_DECIDES:
                raise FsError(path, reason(e)) from None
            fd = self._open_walked(path, rel.split("/"), _READ)
        return fd

    def _open_path(self, path: str, mode: str) -> IO[bytes]:
        if "b" not in mode:
            mode += "b"
        norm, rel = self._norm_rel(path)
        if rel is None:
            if norm in ALLOWED_OUTSIDE and not names_dir(path):
                return super().open(norm, mode)
            raise FsError(path, DENIED)
        comps = rel
        if path[-1:] == "/" and names_dir(path):
            # as the host kernel answers: no file is created or written at `name/`, and
            # reading one names a directory that must be there
            if mode[0] != "r" or "+" in mode:
                raise FsError(path, "Is a directory")
            kind = self.stat(path).kind
            raise FsError(path, "Is a directory" if kind == "directory" else ENOTDIR)
        flags = mode_flags(mode)
        try:
            fd = self._open(path, comps, flags)
        except FsError as e:
            if e.reason != _ENXIO:
                raise
            fd = self._open_writer(path, comps, flags)
        except OSError:
            fd = self._open_writer(path, comps, flags)
        if mode == "rb" and comps and self._read_at is not None:
            below = "/".join(comps)
            if len(below) <= _FAST_MAX:  # (what `_fast` asks)
                reads = self._reads
                if len(reads) >= _READS_KEPT:
                    reads.clear()
                reads[path] = below
        return wrap_fd(fd, mode, path, self.checkpoint)

    def _open_writer(self, path: str, comps: list[str], flags: int) -> int:
        """After an open failed with ENXIO (a FIFO with no reader yet, opened
        non-blocking): wait for a reader, or say so when it is no FIFO."""
        def attempt() -> int:
            try:
                return self._open(path, comps, flags)
            except FsError as e:
                if e.reason == _ENXIO:
                    raise OSError(errno.ENXIO, e.reason) from None
                raise

        if not self._fifo(path):
            raise FsError(path, _ENXIO) from None
        return open_fifo_writer(attempt, path, self.checkpoint)

    def _fifo(self, path: str) -> bool:
        try:
            return stat_mod.S_ISFIFO(self.stat(path).mode)
        except FsError:
            return False

    def stat(self, path: str, follow: bool = True) -> FileStat:
        norm, rel = self._norm_rel(path)
        if rel is None:
            if norm in ALLOWED_OUTSIDE:
                return super().stat(norm, follow)
            raise FsError(path, DENIED)
        comps = rel
        slash = path.endswith("/") and norm != "/"
        if len(comps) == 1 and not slash:
            # one name in the root itself: no directory on the way to resolve; a link
            # there is followed the general way, beneath the root
            try:
                st = os.stat(comps[0], dir_fd=self._root(path), follow_symlinks=False)
            except OSError as e:
                if e.errno == errno.ENOENT:
                    fail(path, e)
            else:
                if not follow or not stat_mod.S_ISLNK(st.st_mode):
                    return to_stat(path, st)
        try:
            if follow or slash:
                fd = self._open(path, comps, _PATH | _CLOEXEC)
                try:
                    st = os.fstat(fd)
                finally:
                    os.close(fd)
            else:
                with self._parent(path, comps) as d:
                    st = os.stat(d.name, dir_fd=d.fd, follow_symlinks=False)
        except OSError as e:
            fail(path, e)
        if slash and not stat_mod.S_ISDIR(st.st_mode):
            raise FsError(path, ENOTDIR)
        return to_stat(path, st)

    def exists(self, path: str) -> bool:
        try:
            self.stat(path)
            return True
        except FsError:
            return False

    def is_dir(self, path: str) -> bool:
        try:
            return self.stat(path).kind == "directory"
        except FsError:
            return False

    def is_file(self, path: str) -> bool:
        try:
            return self.stat(path).kind == "file"
        except FsError:
            return False

    def listdir(self, path: str) -> list[str]:
        return [n for n, _kind in self.list_entries(path)]

    def list_entries(self, path: str) -> list[tuple[str, str]]:
        self.checkpoint()  # a walk over a big tree stops at the kernel's limits
        fd = self._open(path, self._comps(path), _LIST)
        try:
            return scan_kinds(fd)
        except OSError as e:
            fail(path, e)
        finally:
            os.close(fd)

    def open_dir(self, path: str) -> DirHandle:
        self.checkpoint()
        return FdDir(self, path, self._open(path, self._comps(path), _LIST))

    def list_stats(self, path: str) -> list[tuple[str, FileStat]]:
        self.checkpoint()
        fd = self._open(path, self._comps(path), _LIST)
        try:
            return scan_stats(fd, path.rstrip("/") + "/")
        except OSError as e:
            fail(path, e)
        finally:
            os.close(fd)

    def mkdir(self, path: str, parents: bool = False, mode: int = 0o777) -> None:
        if parents:
            self.make_dirs(path, mode)
            return
        comps = self._comps(path)
        with self._parent(path, comps) as d:
            try:
                os.mkdir(d.name, mode, dir_fd=d.fd)
            except OSError as e:
                fail(path, e)

    def make_dirs(self, path: str, mode: int = 0o777) -> int:
        """Walks to the deepest existing directory, then creates the rest one level at
        a time from the fd of the last one made: any depth, linear time, a checkpoint a
        level."""
        comps = self._comps(path)
        d, rest = self._walk(path, comps, follow_last=True, lenient=True)
        made = 0
        with d:
            cur, owned = d.fd, False
            try:
                for i, name in enumerate([d.name, *rest]):
                    self.checkpoint()
                    if name == ".":
                        continue
                    if name == "..":
                        raise FsError(path, ENOENT)
                    try:
                        os.mkdir(name, mode, dir_fd=cur)
                        made += 1
                    except FileExistsError:
                        pass
                    except OSError as e:
                        fail(path, e)
                    try:
                        nfd = os.open(name, _SUBDIR, dir_fd=cur)
                    except OSError as e:
                        if e.errno in (errno.ENOTDIR, errno.ELOOP):
                            raise FsError(path, "File exists" if i == len(rest) else ENOTDIR) \
                                from None
                        fail(path, e)
                    if owned:
                        os.close(cur)
                    cur, owned = nfd, True
            finally:
                if owned:
                    os.close(cur)
        return made

    def remove(self, path: str) -> None:
        comps = self._comps(path)
        if names_dir(path):
            self._check_slash(path, comps)
            raise FsError(path, "Is a directory")
        with self._parent(path, comps) as d:
            try:
                os.unlink(d.name, dir_fd=d.fd)
            except OSError as e:
                fail(path, e)

    def rmdir(self, path: str) -> None:
        comps = self._comps(path)
        with self._parent(path, comps) as d:
            try:
                if names_dir(path) and not stat_mod.S_ISDIR(
                        os.stat(d.name, dir_fd=d.fd, follow_symlinks=False).st_mode):
                    raise FsError(path, ENOTDIR)
                os.rmdir(d.name, dir_fd=d.fd)
            except OSError as e:
                fail(path, e)

    def rename(self, src: str, dst: str) -> None:
        sc = self._comps(src)
        dc = self._comps(dst)
        with self._parent(src, sc) as s, self._parent(dst, dc) as t:
            try:
                if names_dir(src) or names_dir(dst):
                    st = os.stat(s.name, dir_fd=s.fd, follow_symlinks=False)
                    if not stat_mod.S_ISDIR(st.st_mode):
                        raise FsError(src if names_dir(src) else dst, ENOTDIR)
                os.replace(s.name, t.name, src_dir_fd=s.fd, dst_dir_fd=t.fd)
            except OSError as e:
                fail(src, e)

    def touch(self, path: str, mtime: float | None = None) -> None:
        comps = self._comps(path)
        if names_dir(path):
            self._check_slash(path, comps)
        times = None if mtime is None else (mtime, mtime)
        with self._final(path, comps) as d:
            try:
                try:
                    os.utime(d.name, times, dir_fd=d.fd, follow_symlinks=False)
                except FileNotFoundError:
                    os.close(os.open(d.name, os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK
                                     | _NOFOLLOW | _CLOEXEC, 0o666, dir_fd=d.fd))
                    os.utime(d.name, times, dir_fd=d.fd, follow_symlinks=False)
            except OSError as e:
                fail(path, e)

    def chmod(self, path: str, mode: int) -> None:
        comps = self._comps(path)
        fd = self._open(path, comps, _PATH | _CLOEXEC)
        try:
            if stat_mod.S_ISLNK(os.fstat(fd).st_mode):
                # the name turned into a symlink after the walk looked: never chmod
                # through it
                raise FsError(path, ELOOP)
            if self._proc_fd:
                # the O_PATH fd's /proc entry names exactly the inode resolved above
                os.chmod(f"/proc/self/fd/{fd}", mode)
            else:
                rfd = self._open(path, comps, os.O_RDONLY | os.O_NONBLOCK | _CLOEXEC)
                try:
                    if not os.path.samestat(os.fstat(fd), os.fstat(rfd)):
                        raise FsError(path, ENOENT)
                    os.fchmod(rfd, mode)
                finally:
                    os.close(rfd)
        except OSError as e:
            fail(path, e)
        finally:
            os.close(fd)

    def readlink(self, path: str) -> str:
        comps = self._comps(path)
        with self._parent(path, comps) as d:
            try:
                return os.readlink(d.name, dir_fd=d.fd)
            except OSError as e:
                fail(path, e)

    def symlink(self, target: str, path: str) -> None:
        check_name(target)
        comps = self._comps(path)
        with self._parent(path, comps) as d:
            try:
                os.symlink(target, d.name, dir_fd=d.fd)
            except OSError as e:
                fail(path, e)

    def link(self, src: str, dst: str) -> None:
        sc = self._comps(src)
        dc = self._comps(dst)
        with self._final(src, sc) as s, self._parent(dst, dc) as t:
            try:
                os.link(s.name, t.name, src_dir_fd=s.fd, dst_dir_fd=t.fd,
                        follow_symlinks=False)
            except OSError as e:
                fail(dst, e)

    def realpath(self, path: str) -> str:
        """The physical path, computed by the walk (components that do not exist are
        kept as written, as os.path.realpath does); DENIED when it leaves the root."""
        norm, rel = self._norm_rel(path)
        if rel is None:
            if norm in ALLOWED_OUTSIDE:
                return norm
            raise FsError(path, DENIED)
        d, rest = self._walk(path, rel, follow_last=True, lenient=True)
        with d:
            out = list(d.real)
            for name in [d.name, *rest]:
                if name == "..":
                    if not out:
                        raise FsError(path, DENIED)
                    out.pop()
                elif name != ".":
                    out.append(name)
        return self.root if not out else self.root.rstrip("/") + "/" + "/".join(out)

    def real_os_path(self, path: str) -> str | None:
        return self.realpath(path)

    @contextmanager
    def replace(self, path: str) -> Iterator[IO[bytes]]:
        comps = self._comps(path)
        old_mode = replace_check(self, path)
        with self._parent(path, comps) as d:
            if d.name == ".":
                raise FsError(path, "Is a directory")
            with replace_in(d.fd, d.name, path, old_mode, self.checkpoint) as f:
                yield f
