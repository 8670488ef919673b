"""The one door to files (DESIGN §1): every builtin, redirect, glob, `cd` and `source`
goes through a FileSystem, which is what makes sandboxing, an in-memory filesystem and
an overlay possible. Paths given to these methods are absolute (callers join them with
the session's cwd through `Context.path`)."""

from __future__ import annotations

import os
import stat as stat_mod
from collections.abc import Iterator
from typing import IO

import attrs

from tysh.kernel.base.errors import TyshError
from tysh.kernel.base.record import Record


class FsError(TyshError):
    """A filesystem failure phrased as GNU tools phrase it (`No such file or directory`)."""

    def __init__(self, path: str, reason: str, status: int = 1) -> None:
        super().__init__(f"{path}: {reason}", status)
        self.path = path
        self.reason = reason


@attrs.frozen(repr=False, eq=False)
class FileStat(Record):
    path: str
    kind: str  # "file" "directory" "symlink" "other"
    size: int
    mode: int
    mtime: float
    executable: bool
    nlink: int = 1
    uid: int = 0
    gid: int = 0
    ino: int = 0
    dev: int = 0
    blocks: int = 0  # 512-byte blocks allocated (ls -l "total", stat %b)
    atime: float = 0.0
    ctime: float = 0.0


def _reason(e: OSError) -> str:
    return e.strerror or str(e)


class FileSystem:
    """Abstract filesystem; concrete kinds override every method."""

    def open(self, path: str, mode: str = "rb") -> IO[bytes]:
        raise NotImplementedError

    def stat(self, path: str, follow: bool = True) -> FileStat:
        raise NotImplementedError

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
        raise NotImplementedError

    def mkdir(self, path: str, parents: bool = False, mode: int = 0o777) -> None:
        raise NotImplementedError

    def remove(self, path: str) -> None:
        raise NotImplementedError

    def rmdir(self, path: str) -> None:
        raise NotImplementedError

    def rename(self, src: str, dst: str) -> None:
        raise NotImplementedError

    def copy_file(self, src: str, dst: str) -> None:
        with self.open(src, "rb") as fi, self.open(dst, "wb") as fo:
            while chunk := fi.read(1 << 16):
                fo.write(chunk)

    def touch(self, path: str, mtime: float | None = None) -> None:
        raise NotImplementedError

    def chmod(self, path: str, mode: int) -> None:
        raise NotImplementedError

    def readlink(self, path: str) -> str:
        raise NotImplementedError

    def symlink(self, target: str, path: str) -> None:
        raise NotImplementedError

    def realpath(self, path: str) -> str:
        raise NotImplementedError

    def link(self, src: str, dst: str) -> None:
        """Make a hard link `dst` to `src` (`ln` without -s); kinds without links refuse."""
        raise FsError(dst, "Operation not supported")

    def list_entries(self, path: str) -> list[tuple[str, str]]:
        """(name, kind) of each entry of a directory, the kind not following symlinks —
        what find, ls -R and glob need, in one call (the local kind avoids a stat each)."""
        out: list[tuple[str, str]] = []
        base = path.rstrip("/") + "/"
        for n in self.listdir(path):
            try:
                out.append((n, self.stat(base + n, follow=False).kind))
            except FsError:
                continue
        return out

    def real_os_path(self, path: str) -> str | None:
        """The host path for a kernel path, for handing to external commands; None when
        the file has no host counterpart (in-memory)."""
        return None

    def walk(self, path: str) -> Iterator[tuple[str, list[str], list[str]]]:
        """Top-down walk like os.walk, not following symlinked directories."""
        try:
            names = sorted(self.listdir(path))
        except FsError:
            return
        dirs: list[str] = []
        files: list[str] = []
        for n in names:
            full = path.rstrip("/") + "/" + n
            try:
                st = self.stat(full, follow=False)
            except FsError:
                continue
            (dirs if st.kind == "directory" else files).append(n)
        yield path, dirs, files
        for d in dirs:
            yield from self.walk(path.rstrip("/") + "/" + d)

    def read_bytes(self, path: str) -> bytes:
        with self.open(path, "rb") as f:
            return f.read()

    def write_bytes(self, path: str, data: bytes, append: bool = False) -> None:
        with self.open(path, "ab" if append else "wb") as f:
            f.write(data)


def _kind(mode: int) -> str:
    if stat_mod.S_ISDIR(mode):
        return "directory"
    if stat_mod.S_ISREG(mode):
        return "file"
    if stat_mod.S_ISLNK(mode):
        return "symlink"
    return "other"


class LocalFileSystem(FileSystem):
    """The host's filesystem, unconfined (the sandboxed kind wraps path checks around it)."""

    def _os(self, path: str) -> str:
        """The host path to use for a kernel path, following symlinks (a confined
        filesystem checks the resolved path here)."""
        return path

    def _os_link(self, path: str) -> str:
        """The host path for operations on a link itself (lstat, readlink, unlink, rename)."""
        return path

    def open(self, path: str, mode: str = "rb") -> IO[bytes]:
        try:
            if "b" not in mode:
                mode += "b"
            if os.path.isdir(self._os(path)) and mode[0] in "wa":
                raise FsError(path, "Is a directory")
            return open(self._os(path), mode)  # noqa: SIM115
        except IsADirectoryError:
            raise FsError(path, "Is a directory") from None
        except OSError as e:
            raise FsError(path, _reason(e)) from None

    def stat(self, path: str, follow: bool = True) -> FileStat:
        try:
            st = os.stat(self._os(path)) if follow else os.lstat(self._os_link(path))
        except OSError as e:
            raise FsError(path, _reason(e)) from None
        return FileStat(
            path=path,
            kind=_kind(st.st_mode),
            size=st.st_size,
            mode=st.st_mode,
            mtime=st.st_mtime,
            executable=bool(st.st_mode & 0o111) and not stat_mod.S_ISDIR(st.st_mode),
            nlink=st.st_nlink,
            uid=st.st_uid,
            gid=st.st_gid,
            ino=st.st_ino,
            dev=st.st_dev,
            blocks=getattr(st, "st_blocks", 0),
            atime=st.st_atime,
            ctime=st.st_ctime,
        )

    def exists(self, path: str) -> bool:
        return os.path.exists(self._os(path))

    def is_dir(self, path: str) -> bool:
        return os.path.isdir(self._os(path))

    def is_file(self, path: str) -> bool:
        return os.path.isfile(self._os(path))

    def listdir(self, path: str) -> list[str]:
        try:
            return os.listdir(self._os(path))
        except OSError as e:
            raise FsError(path, _reason(e)) from None

    def mkdir(self, path: str, parents: bool = False, mode: int = 0o777) -> None:
        try:
            if parents:
                os.makedirs(self._os(path), mode, exist_ok=True)
            else:
                os.mkdir(self._os(path), mode)
        except OSError as e:
            raise FsError(path, _reason(e)) from None

    def remove(self, path: str) -> None:
        try:
            os.unlink(self._os_link(path))
        except OSError as e:
            raise FsError(path, _reason(e)) from None

    def rmdir(self, path: str) -> None:
        try:
            os.rmdir(self._os_link(path))
        except OSError as e:
            raise FsError(path, _reason(e)) from None

    def rename(self, src: str, dst: str) -> None:
        try:
            os.replace(self._os_link(src), self._os_link(dst))
        except OSError as e:
            raise FsError(src, _reason(e)) from None

    def touch(self, path: str, mtime: float | None = None) -> None:
        p = self._os(path)
        try:
            if not os.path.exists(p):
                open(p, "ab").close()
            os.utime(p, None if mtime is None else (mtime, mtime))
        except OSError as e:
            raise FsError(path, _reason(e)) from None

    def chmod(self, path: str, mode: int) -> None:
        try:
            os.chmod(self._os(path), mode)
        except OSError as e:
            raise FsError(path, _reason(e)) from None

    def readlink(self, path: str) -> str:
        try:
            return os.readlink(self._os_link(path))
        except OSError as e:
            raise FsError(path, _reason(e)) from None

    def symlink(self, target: str, path: str) -> None:
        try:
            os.symlink(target, self._os_link(path))
        except OSError as e:
            raise FsError(path, _reason(e)) from None

    def realpath(self, path: str) -> str:
        return os.path.realpath(self._os(path))

    def link(self, src: str, dst: str) -> None:
        try:
            os.link(self._os(src), self._os(dst))
        except OSError as e:
            raise FsError(dst, _reason(e)) from None

    def list_entries(self, path: str) -> list[tuple[str, str]]:
        try:
            with os.scandir(self._os(path)) as it:
                out: list[tuple[str, str]] = []
                for e in it:
                    try:
                        if e.is_symlink():
                            kind = "symlink"
                        elif e.is_dir(follow_symlinks=False):
                            kind = "directory"
                        elif e.is_file(follow_symlinks=False):
                            kind = "file"
                        else:
                            kind = "other"
                    except OSError:
                        continue
                    out.append((e.name, kind))
                return out
        except OSError as e:
            raise FsError(path, _reason(e)) from None

    def real_os_path(self, path: str) -> str | None:
        return self._os(path)
