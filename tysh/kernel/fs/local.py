"""The host's filesystem, unconfined: what the REPL and `Kernel.repl()` use, and the
base the confined kind checks paths around."""

from __future__ import annotations

import os
import stat as stat_mod
from typing import IO

from tysh.kernel.fs.api import FileStat, FileSystem, FsError


def _reason(e: OSError) -> str:
    return e.strerror or str(e)


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
