"""A confined host folder with a private, in-memory /tmp: `Kernel(cwd)`'s filesystem.

Scripts expect a /tmp (`mktemp`, `sort -T /tmp`, `cd /tmp`); the host's is shared with
every other process and lies outside the sandbox. Here /tmp and everything below it is
served by a MemoryFileSystem of its own — except, for a root inside /tmp, the host
folder of /tmp that leads to the root (it stays the host's: the root, or refused) — bounded, seen
by this kernel only, and gone when it is cleared or the kernel is dropped. Everything
else is the confined folder, as before. A rename or hard link between the two is
refused as between two devices (`mv` copies instead); a symlink is resolved within the
side that holds it.

When programs may run under bwrap (`use_host_dir()`), this /tmp is instead a private
host directory on a memory-backed filesystem (/dev/shm when present), created 0700 when
/tmp is first used and removed by `clear_scratch()` or when the kernel is dropped: bwrap
binds it at the program's /tmp, so the kernel and its programs share one /tmp. The
kernel's own writes there are held to `max_bytes` (what the directory holds when a file
is opened for writing, plus what the kernel writes); a program's are bounded by its
file-size rlimit and the size of the memory filesystem, not by `max_bytes`."""

from __future__ import annotations

import _thread
import os
import posixpath

from tysh.kernel.base.hints import cast
from tysh.kernel.base.lazymod import LazyModule, contextmanager
from tysh.kernel.fs.api import DirHandle, FileStat, FsError
from tysh.kernel.fs.confined import ConfinedFileSystem

TYPE_CHECKING = False
if TYPE_CHECKING:
    import weakref
    from collections.abc import Callable, Iterable, Iterator
    from typing import IO, Any

    from tysh.kernel.fs.memory import MemoryFileSystem
else:  # a finalizer only for a scratch directory made on the host
    weakref = LazyModule(globals(), "weakref", "weakref")

SCRATCH = "/tmp"
EXDEV = "Invalid cross-device link"
ENOSPC = "No space left on device"
# where a host-backed /tmp is made: memory-backed on Linux (a tmpfs), else the host's
# temporary directory
MEMORY_DIRS = ("/dev/shm",)


class HostScratch(ConfinedFileSystem):
    """A private host directory served as the kernel's /tmp: kernel paths under /tmp
    (and absolute symlink targets there) resolve beneath it, as a program under bwrap
    sees them. `host` is the directory; `realpath` answers in kernel paths and
    `real_os_path` in host paths."""

    def __init__(self, host: str, max_bytes: int | None) -> None:
        super().__init__(host)
        self._spellings = (SCRATCH,)
        self._prefixes = (SCRATCH + "/",)
        self._roots = ((SCRATCH, SCRATCH + "/"),)
        self.max_bytes = max_bytes
        self.used = 0  # bytes below the directory, as last counted plus kernel writes
        self._count_lock = _thread.allocate_lock()

    def realpath(self, path: str) -> str:
        real = super().realpath(path)
        root = self.root
        if real == root:
            return SCRATCH
        if real.startswith(root + "/"):
            return SCRATCH + real[len(root):]
        return real

    def real_os_path(self, path: str) -> str | None:
        return ConfinedFileSystem.realpath(self, path)

    def recount(self) -> None:
        """Count what the directory holds now (programs write there too)."""
        total = 0
        for top, _dirs, files in os.walk(self.root):
            for name in files:
                try:
                    total += os.lstat(os.path.join(top, name)).st_size
                except OSError:
                    pass
        self.used = total

    def grow(self, n: int, path: str) -> None:
        """Charge `n` more bytes the kernel writes; ENOSPC past `max_bytes`."""
        with self._count_lock:
            if self.max_bytes is not None and self.used + n > self.max_bytes:
                raise FsError(path, ENOSPC)
            self.used += n

    def open(self, path: str, mode: str = "rb") -> IO[bytes]:
        f = super().open(path, mode)
        if self.max_bytes is None or mode in ("rb", "r"):
            return f
        self.recount()
        return cast("IO[bytes]", _Counted(f, self, path))

    @contextmanager
    def replace(self, path: str) -> Iterator[IO[bytes]]:
        with super().replace(path) as f:
            if self.max_bytes is None:
                yield f
            else:
                self.recount()
                yield cast("IO[bytes]", _Counted(f, self, path))


class _Counted:
    """A writer on a host-backed /tmp that charges each byte it adds to the file."""

    def __init__(self, f: IO[bytes], scratch: HostScratch, path: str) -> None:
        self._f = f
        self._scratch = scratch
        self._path = path
        try:
            self._end = os.fstat(f.fileno()).st_size
        except (OSError, ValueError, AttributeError):
            self._end = 0

    def _reach(self, end: int) -> None:
        if end > self._end:
            self._scratch.grow(end - self._end, self._path)
            self._end = end

    def write(self, b: Any) -> int:
        n = len(b) if type(b) is bytes else memoryview(b).nbytes
        self._reach(self._f.tell() + n)
        return self._f.write(b)

    def truncate(self, size: int | None = None) -> int:
        self._reach(self._f.tell() if size is None else size)
        return self._f.truncate(size)

    def __enter__(self) -> _Counted:
        return self

    def __exit__(self, *exc: object) -> None:
        self._f.close()

    def writelines(self, lines: Iterable[Any]) -> None:
        for line in lines:
            self.write(line)

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._f)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._f, name)


def _make_host_dir() -> str:
    """A fresh private directory (0700) holding `tmp` (1777, as /tmp is), on a memory
    filesystem when there is one; returns the path of `tmp`."""
    import tempfile

    where = next((d for d in MEMORY_DIRS if os.path.isdir(d) and os.access(d, os.W_OK)),
                 None)
    box = tempfile.mkdtemp(prefix="tysh-tmp-", dir=where)
    inner = os.path.join(box, "tmp")
    os.mkdir(inner)
    os.chmod(inner, 0o1777)
    return inner


def _remove_host_dir(inner: str) -> None:
    import shutil

    shutil.rmtree(os.path.dirname(inner), ignore_errors=True)


class ScratchFileSystem(ConfinedFileSystem):
    """`root` confined, with /tmp (outside the root) in memory, at most `max_bytes`."""

    def __init__(self, root: str, max_bytes: int | None = None) -> None:
        super().__init__(root)
        self._max_bytes = max_bytes
        # made when /tmp is first used: in memory, or a host directory (use_host_dir)
        self._scratch: MemoryFileSystem | HostScratch | None = None
        self._host = False
        self._remover: weakref.finalize[Any, Any] | None = None
        self._making = _thread.allocate_lock()
        # a root inside /tmp keeps the host folder on its way out of the private /tmp:
        # `../out` from /tmp/a/root is the host's /tmp/a/out, refused as outside, never
        # a fresh name in memory that hides what is really there
        self._host_ways = tuple(
            f"{SCRATCH}/{s[len(SCRATCH) + 1:].split('/', 1)[0]}"
            for s in self._spellings if s.startswith(SCRATCH + "/"))

    def use_host_dir(self) -> None:
        """Serve /tmp from a private host directory, which programs run under bwrap see
        as their /tmp (call before /tmp is first used)."""
        if self._scratch is None:
            self._host = True

    def host_dir(self) -> str | None:
        """The host directory behind /tmp (made now if need be), or None when /tmp is
        held in memory."""
        if not self._host:
            return None
        scratch = self.scratch
        return scratch.root if isinstance(scratch, HostScratch) else None

    @property
    def scratch(self) -> MemoryFileSystem | HostScratch:
        mem = self._scratch
        if mem is None:
            with self._making:  # two pipeline stages touching /tmp first make one
                mem = self._scratch
                if mem is None:
                    mem = self._scratch = self._fresh()
        return mem

    def _fresh(self) -> MemoryFileSystem | HostScratch:
        if self._host:
            inner = _make_host_dir()
            # removed when this filesystem is dropped or the process exits, if
            # clear_scratch() did not come first
            self._remover = weakref.finalize(self, _remove_host_dir, inner)
            host = HostScratch(inner, self._max_bytes)
            host.set_checkpoint(self.checkpoint)
            return host
        from tysh.kernel.fs.memory import MemoryFileSystem

        mem = MemoryFileSystem(max_bytes=self._max_bytes)
        mem.mkdir(SCRATCH)
        mem.chmod(SCRATCH, 0o1777)
        mem.set_checkpoint(self.checkpoint)
        return mem

    def clear_scratch(self) -> None:
        """Drop everything in /tmp (the kernel's close()); a host directory is removed."""
        self._scratch = None
        remover, self._remover = self._remover, None
        if remover is not None:
            remover()

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
        if mode == "rb":
            # a path read before on the confined side (which side serves a path is a
            # matter of its text)
            rel = self._reads.get(path)
            if rel is not None:
                return self._read_known(path, rel)
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
            return self.scratch.real_os_path(path) if self._host else None
        return super().real_os_path(path)

    def contains(self, path: str) -> bool:
        return self.in_scratch(path) or super().contains(path)

    @contextmanager
    def replace(self, path: str) -> Iterator[IO[bytes]]:
        if self.in_scratch(path):
            with self.scratch.replace(path) as f:
                yield f
            return
        with super().replace(path) as f:
            yield f
