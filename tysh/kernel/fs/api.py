"""The one door to files: every builtin, redirect, glob, `cd` and `source`
goes through a FileSystem, which is what makes sandboxing, an in-memory filesystem and
an overlay possible. Paths given to these methods are absolute (callers join them with
the session's cwd through `Context.path`)."""

from __future__ import annotations

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
