"""An overlay: writes land in memory over a read-only host layer.

An agent can work freely and the embedder decides afterwards: `changes()` lists what
was added, modified and deleted, `diff()` shows it, `commit()` writes it to the host."""

from __future__ import annotations

import difflib
import posixpath
from typing import IO

import attrs

from tysh.kernel.base.record import Record
from tysh.kernel.fs.api import FileStat, FileSystem, FsError
from tysh.kernel.fs.memory import ENOENT, MemoryFileSystem


@attrs.frozen(repr=False, eq=False)
class Change(Record):
    kind: str  # "added" "modified" "deleted"
    path: str


class OverlayFileSystem(FileSystem):
    def __init__(self, lower: FileSystem, max_bytes: int | None = None) -> None:
        self.lower = lower
        self.upper = MemoryFileSystem(max_bytes=max_bytes)
        self.deleted: set[str] = set()
        self.touched: set[str] = set()

    # -- layer selection ----------------------------------------------------
    def _norm(self, path: str) -> str:
        return posixpath.normpath(path) if path != "/" else "/"

    def _hidden(self, path: str) -> bool:
        p = self._norm(path)
        while True:
            if p in self.deleted:
                return True
            if p == "/":
                return False
            p = posixpath.dirname(p)

    def _in_upper(self, path: str) -> bool:
        try:
            self.upper.stat(path, follow=False)
            return True
        except FsError:
            return False

    def _layer(self, path: str) -> FileSystem:
        if self._in_upper(path):
            return self.upper
        if self._hidden(path):
            raise FsError(path, ENOENT)
        return self.lower

    def _copy_up_dirs(self, path: str) -> None:
        """Make the parent folders of `path` exist in the upper layer."""
        parent = posixpath.dirname(self._norm(path))
        if not self._in_upper(parent):
            if self._hidden(parent) or not self.lower.is_dir(parent):
                raise FsError(path, ENOENT)
            self.upper.mkdir(parent, parents=True)

    def _copy_up(self, path: str) -> None:
        if self._in_upper(path):
            return
        st = self._layer(path).stat(path)
        self._copy_up_dirs(path)
        if st.kind == "directory":
            self.upper.mkdir(path)
            for name in self.lower.listdir(path):
                child = posixpath.join(path, name)
                if not self._hidden(child):
                    self._copy_up(child)
        else:
            with self.upper.open(path, "wb") as f:
                f.write(self.lower.read_bytes(path))
            self.upper.chmod(path, st.mode & 0o7777)

    # -- reading ------------------------------------------------------------
    def open(self, path: str, mode: str = "rb") -> IO[bytes]:
        if mode.startswith("r") and "+" not in mode:
            return self._layer(path).open(path, mode)
        exists = self.exists(path)
        if exists and (mode.startswith("a") or "+" in mode):
            self._copy_up(path)
        else:
            self._copy_up_dirs(path)
        self.deleted.discard(self._norm(path))
        self.touched.add(self._norm(path))
        return self.upper.open(path, mode)

    def stat(self, path: str, follow: bool = True) -> FileStat:
        return self._layer(path).stat(path, follow)

    def listdir(self, path: str) -> list[str]:
        names: set[str] = set()
        found = False
        if self._in_upper(path):
            names.update(self.upper.listdir(path))
            found = True
        if not self._hidden(path):
            try:
                names.update(
                    n for n in self.lower.listdir(path)
                    if not self._hidden(posixpath.join(path, n))
                )
                found = True
            except FsError:
                if not found:
                    raise
        if not found:
            raise FsError(path, ENOENT)
        return sorted(names)

    def readlink(self, path: str) -> str:
        return self._layer(path).readlink(path)

    def realpath(self, path: str) -> str:
        return self._layer(path).realpath(path) if self.exists(path) else self._norm(path)

    # -- writing ------------------------------------------------------------
    def mkdir(self, path: str, parents: bool = False, mode: int = 0o777) -> None:
        if self.exists(path):
            if parents and self.is_dir(path):
                return
            raise FsError(path, "File exists")
        if parents:
            parent = posixpath.dirname(self._norm(path))
            if parent != "/" and not self.exists(parent):
                self.mkdir(parent, parents=True)
        self._copy_up_dirs(path)
        self.upper.mkdir(path, mode=mode)
        self.deleted.discard(self._norm(path))
        self.touched.add(self._norm(path))

    def _whiteout(self, path: str) -> None:
        if self._in_upper(path):
            return
        self.deleted.add(self._norm(path))

    def remove(self, path: str) -> None:
        layer = self._layer(path)
        if layer is self.upper:
            self.upper.remove(path)
            if self.lower.exists(path) or self.lower.is_file(path):
                self.deleted.add(self._norm(path))
        else:
            if layer.stat(path, follow=False).kind == "directory":
                raise FsError(path, "Is a directory")
            self.deleted.add(self._norm(path))
        self.touched.discard(self._norm(path))

    def rmdir(self, path: str) -> None:
        if self.listdir(path):
            raise FsError(path, "Directory not empty")
        if self._in_upper(path):
            self.upper.rmdir(path)
        if self.lower.is_dir(path):
            self.deleted.add(self._norm(path))
        self.touched.discard(self._norm(path))

    def rename(self, src: str, dst: str) -> None:
        self._copy_up(src)
        self._copy_up_dirs(dst)
        if self.exists(dst) and not self._in_upper(dst):
            self._copy_up(dst)
        self.upper.rename(src, dst)
        if self.lower.exists(src):
            self.deleted.add(self._norm(src))
        self.deleted.discard(self._norm(dst))
        self.touched.discard(self._norm(src))
        self.touched.add(self._norm(dst))

    def touch(self, path: str, mtime: float | None = None) -> None:
        if self.exists(path):
            self._copy_up(path)
        else:
            self._copy_up_dirs(path)
        self.upper.touch(path, mtime)
        self.deleted.discard(self._norm(path))
        self.touched.add(self._norm(path))

    def chmod(self, path: str, mode: int) -> None:
        self._copy_up(path)
        self.upper.chmod(path, mode)
        self.touched.add(self._norm(path))

    def symlink(self, target: str, path: str) -> None:
        if self.exists(path):
            raise FsError(path, "File exists")
        self._copy_up_dirs(path)
        self.upper.symlink(target, path)
        self.deleted.discard(self._norm(path))
        self.touched.add(self._norm(path))

    # -- review -------------------------------------------------------------
    def changes(self) -> list[Change]:
        """What the session changed relative to the host layer, sorted by path."""
        out: list[Change] = []
        for p in sorted(self.deleted):
            if not self._in_upper(p):
                out.append(Change("deleted", p))
        for p in sorted(self.touched):
            if not self._in_upper(p):
                continue
            if self.upper.stat(p, follow=False).kind == "directory":
                if not self.lower.is_dir(p):
                    out.append(Change("added", p))
                continue
            if self.lower.exists(p) and p not in self.deleted:
                if self.lower.read_bytes(p) != self.upper.read_bytes(p):
                    out.append(Change("modified", p))
            else:
                out.append(Change("added", p))
        return sorted(out, key=lambda c: c.path)

    def diff(self) -> str:
        """A unified diff of the changed files (binary files named, not shown)."""
        chunks: list[str] = []
        for c in self.changes():
            old = b"" if c.kind == "added" else self.lower.read_bytes(c.path) \
                if self.lower.is_file(c.path) else b""
            new = b"" if c.kind == "deleted" else self.upper.read_bytes(c.path) \
                if self.upper.is_file(c.path) else b""
            try:
                a = old.decode("utf-8").splitlines(keepends=True)
                b = new.decode("utf-8").splitlines(keepends=True)
            except UnicodeDecodeError:
                chunks.append(f"Binary files a{c.path} and b{c.path} differ\n")
                continue
            chunks.extend(
                difflib.unified_diff(
                    a, b,
                    "/dev/null" if c.kind == "added" else "a" + c.path,
                    "/dev/null" if c.kind == "deleted" else "b" + c.path,
                )
            )
        return "".join(chunks)

    def commit(self, target: FileSystem) -> list[Change]:
        """Write the changes to `target` (a writable view of the host layer), then reset."""
        changes = self.changes()
        for c in changes:
            if c.kind == "deleted":
                if target.is_dir(c.path):
                    for top, _dirs, files in reversed(list(target.walk(c.path))):
                        for f in files:
                            target.remove(posixpath.join(top, f))
                        target.rmdir(top)
                elif target.exists(c.path) or target.is_file(c.path):
                    target.remove(c.path)
            elif self.upper.is_dir(c.path):
                target.mkdir(c.path, parents=True)
            else:
                target.mkdir(posixpath.dirname(c.path), parents=True)
                target.write_bytes(c.path, self.upper.read_bytes(c.path))
        self.upper = MemoryFileSystem(max_bytes=self.upper.max_bytes)
        self.deleted.clear()
        self.touched.clear()
        return changes
