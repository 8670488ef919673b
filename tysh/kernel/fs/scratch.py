"""A confined host folder with a private, in-memory /tmp: `Kernel(cwd)`'s filesystem.

Scripts expect a /tmp (`mktemp`, `sort -T /tmp`, `cd /tmp`); the host's is shared with
every other process and lies outside the sandbox. Here /tmp and everything below it is
served by a MemoryFileSystem of its own — except, for a root inside /tmp, the host
folder of /tmp that leads to the root (it stays the host's: the root, or refused) — bounded, seen
by this kernel only, and gone when it is cleared or the kernel is dropped. Everything
else is the confined folder, as before. A rename or hard link between the two is
refused as between two devices (`mv` copies instead); a symlink is resolved within the
side that holds it. Files in this /tmp have no host path, so an external program does
not see them (a sandboxed program gets a /tmp of its own)."""

from __future__ import annotations

import contextlib
import posixpath
from collections.abc import Callable, Iterator

from tysh.kernel.fs.api import DirHandle, FileStat, FsError
from tysh.kernel.fs.confined import ConfinedFileSystem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO

    from tysh.kernel.fs.memory import MemoryFileSystem

SCRATCH = "/tmp"
EXDEV = "Invalid cross-device link"


class ScratchFileSystem(ConfinedFileSystem):
    """`root` confined, with /tmp (outside the root) in memory, at most `max_bytes`."""

    def __init__(self, root: str, max_bytes: int | None = None) -> None:
        super().__init__(root)
        self._max_bytes = max_bytes
        self._scratch: MemoryFileSystem | None = None  # made when /tmp is first used
        # a root inside /tmp keeps the host folder on its way out of the private /tmp:
        # `../out` from /tmp/a/root is the host's /tmp/a/out, refused as outside, never
        # a fresh name in memory that hides what is really there
        self._host_ways = tuple(
            f"{SCRATCH}/{s[len(SCRATCH) + 1:].split('/', 1)[0]}"
            for s in self._spellings if s.startswith(SCRATCH + "/"))

    @property
    def scratch(self) -> MemoryFileSystem:
        mem = self._scratch
        if mem is None:
            mem = self._scratch = self._fresh()
        return mem

    def _fresh(self) -> MemoryFileSystem:
        from tysh.kernel.fs.memory import MemoryFileSystem

        mem = MemoryFileSystem(max_bytes=self._max_bytes)
        mem.mkdir(SCRATCH)
        mem.chmod(SCRATCH, 0o1777)
        mem.set_checkpoint(self.checkpoint)
        return mem

    def clear_scratch(self) -> None:
        """Drop everything in /tmp (the kernel's close())."""
        self._scratch = None

    def set_checkpoint(self, check: Callable[[], None]) -> None:
        super().set_checkpoint(check)
        if self._scratch is not None:
            self._scratch.set_checkpoint(check)

    def in_scratch(self, path: str) -> bool:
        """Whether a kernel path is served by the private /tmp."""
        if not path.startswith(SCRATCH) or "\0" in path:
            return False
        if "/." in path or "//" in path:
            path = posixpath.normpath(path)
        if path != SCRATCH and not path.startswith(SCRATCH + "/"):
            return False
        for way in self._host_ways:
            if path == way or path.startswith(way + "/"):
                return False
        return self._below(path) is None

    # -- one side or the other -------------------------------------------------
    def open(self, path: str, mode: str = "rb") -> IO[bytes]:
        if self.in_scratch(path):
            return self.scratch.open(path, mode)
        return super().open(path, mode)

    def stat(self, path: str, follow: bool = True) -> FileStat:
        if self.in_scratch(path):
            return self.scratch.stat(path, follow)
        return super().stat(path, follow)

    def exists(self, path: str) -> bool:
        if self.in_scratch(path):
            return self.scratch.exists(path)
        return super().exists(path)

    def is_dir(self, path: str) -> bool:
        if self.in_scratch(path):
            return self.scratch.is_dir(path)
        return super().is_dir(path)

    def is_file(self, path: str) -> bool:
        if self.in_scratch(path):
            return self.scratch.is_file(path)
        return super().is_file(path)

    def listdir(self, path: str) -> list[str]:
        if self.in_scratch(path):
            return self.scratch.listdir(path)
        return super().listdir(path)

    def mkdir(self, path: str, parents: bool = False, mode: int = 0o777) -> None:
        if self.in_scratch(path):
            return self.scratch.mkdir(path, parents, mode)
        return super().mkdir(path, parents, mode)

    def make_dirs(self, path: str, mode: int = 0o777) -> int:
        if self.in_scratch(path):
            return self.scratch.make_dirs(path, mode)
        return super().make_dirs(path, mode)

    def remove(self, path: str) -> None:
        if self.in_scratch(path):
            return self.scratch.remove(path)
        return super().remove(path)

    def rmdir(self, path: str) -> None:
        if self.in_scratch(path):
            if posixpath.normpath(path) == SCRATCH:
                raise FsError(path, "Device or resource busy")
            return self.scratch.rmdir(path)
        return super().rmdir(path)

    def rename(self, src: str, dst: str) -> None:
        a, b = self.in_scratch(src), self.in_scratch(dst)
        if a != b:
            raise FsError(dst, EXDEV)
        if a:
            return self.scratch.rename(src, dst)
        return super().rename(src, dst)

    def link(self, src: str, dst: str) -> None:
        a, b = self.in_scratch(src), self.in_scratch(dst)
        if a != b:
            raise FsError(dst, EXDEV)
        if a:
            return self.scratch.link(src, dst)
        return super().link(src, dst)

    def copy_file(self, src: str, dst: str) -> None:
        if self.in_scratch(src) or self.in_scratch(dst):
            with self.open(src, "rb") as fi, self.open(dst, "wb") as fo:
                while chunk := fi.read(1 << 16):
                    self.checkpoint()
                    fo.write(chunk)
            return
        return super().copy_file(src, dst)

    def touch(self, path: str, mtime: float | None = None) -> None:
        if self.in_scratch(path):
            return self.scratch.touch(path, mtime)
        return super().touch(path, mtime)

    def chmod(self, path: str, mode: int) -> None:
        if self.in_scratch(path):
            return self.scratch.chmod(path, mode)
        return super().chmod(path, mode)

    def readlink(self, path: str) -> str:
        if self.in_scratch(path):
            return self.scratch.readlink(path)
        return super().readlink(path)

    def symlink(self, target: str, path: str) -> None:
        if self.in_scratch(path):
            return self.scratch.symlink(target, path)
        return super().symlink(target, path)

    def realpath(self, path: str) -> str:
        if self.in_scratch(path):
            return self.scratch.realpath(path)
        return super().realpath(path)

    def list_entries(self, path: str) -> list[tuple[str, str]]:
        if self.in_scratch(path):
            return self.scratch.list_entries(path)
        return super().list_entries(path)

    def open_dir(self, path: str) -> DirHandle:
        if self.in_scratch(path):
            return self.scratch.open_dir(path)
        return super().open_dir(path)

    def list_stats(self, path: str) -> list[tuple[str, FileStat]]:
        if self.in_scratch(path):
            return self.scratch.list_stats(path)
        return super().list_stats(path)

    def real_os_path(self, path: str) -> str | None:
        if self.in_scratch(path):
            return None
        return super().real_os_path(path)

    def contains(self, path: str) -> bool:
        return self.in_scratch(path) or super().contains(path)

    @contextlib.contextmanager
    def replace(self, path: str) -> Iterator[IO[bytes]]:
        if self.in_scratch(path):
            with self.scratch.replace(path) as f:
                yield f
            return
        with super().replace(path) as f:
            yield f
