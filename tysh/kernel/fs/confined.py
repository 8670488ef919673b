"""A host filesystem confined to one folder: the default for an embedded kernel.

Kernel paths are host paths, so `pwd` and error messages read naturally, but every
access is resolved (symlinks included) and refused unless it stays under the root.
`/dev/null` is the one path outside the root that is allowed."""

from __future__ import annotations

import os
import posixpath
from typing import IO

from tysh.kernel.fs.api import FsError
from tysh.kernel.fs.local import LocalFileSystem

DENIED = "Permission denied (outside the sandbox)"
ALLOWED_OUTSIDE = frozenset({"/dev/null"})


class ConfinedFileSystem(LocalFileSystem):
    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root)
        self._prefix = self.root.rstrip("/") + "/"

    def _inside(self, real: str) -> bool:
        return real == self.root or real.startswith(self._prefix)

    def _os(self, path: str) -> str:
        norm = posixpath.normpath(path)
        if norm in ALLOWED_OUTSIDE:
            return norm
        real = os.path.realpath(norm)
        if not self._inside(real):
            raise FsError(path, DENIED)
        return real

    def _os_link(self, path: str) -> str:
        norm = posixpath.normpath(path)
        parent, name = posixpath.split(norm)
        real_parent = os.path.realpath(parent or "/")
        if name in ("", ".", ".."):
            return self._os(path)
        host = posixpath.join(real_parent, name)
        # the root itself is reachable (`find .` at the root lstats it); its parent is not
        if not self._inside(real_parent) and host != self.root:
            raise FsError(path, DENIED)
        return host

    def contains(self, path: str) -> bool:
        """Whether a kernel path resolves inside the sandbox."""
        try:
            self._os(path)
            return True
        except FsError:
            return False

    def exists(self, path: str) -> bool:
        try:
            return os.path.exists(self._os(path))
        except FsError:
            return False

    def is_dir(self, path: str) -> bool:
        try:
            return os.path.isdir(self._os(path))
        except FsError:
            return False

    def is_file(self, path: str) -> bool:
        try:
            return os.path.isfile(self._os(path))
        except FsError:
            return False

    def open(self, path: str, mode: str = "rb") -> IO[bytes]:
        if mode[0] in "wa" and posixpath.normpath(path) not in ALLOWED_OUTSIDE:
            # creating a file: the link itself must be inside, and so must its target
            # when it already exists as a symlink (no writing through a link out)
            host = self._os_link(path)
            if os.path.islink(host):
                self._os(path)
        return super().open(path, mode)

    def realpath(self, path: str) -> str:
        real = os.path.realpath(posixpath.normpath(path))
        if not self._inside(real) and real not in ALLOWED_OUTSIDE:
            raise FsError(path, DENIED)
        return real
