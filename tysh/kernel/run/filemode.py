"""The session's umask: the permission bits of the files and folders a session creates.

The process umask is shared by every kernel in the process and every thread, so a
script's `umask 077` cannot set it. Instead the session keeps its own mask (State.umask,
copied into subshells like the rest of the state); while one is set, the commands of the
session see the filesystem through `MaskedFileSystem`, which gives what they create the
bits `0666 & ~mask` (files) or `0777 & ~mask` (folders), and external commands start
with that umask. A session that never ran `umask` uses the filesystem as it is (the
process umask applies, as it always did): nothing is paid until a script asks."""

from __future__ import annotations

import posixpath

from tysh.kernel.base.lazymod import contextmanager
from tysh.kernel.fs.api import FileStat, FileSystem, FsError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import IO, Any

_umask: int | None = None


def process_umask() -> int:
    """The process's umask, read once (Linux reports it in /proc without changing it;
    elsewhere 022, the usual default)."""
    global _umask
    if _umask is None:
        _umask = _read_umask()
    return _umask


def _read_umask() -> int:
    try:
        with open("/proc/self/status", "rb") as f:
            for line in f:
                if line.startswith(b"Umask:"):
                    return int(line.split()[1], 8) & 0o777
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


_WRITES = frozenset("wax+")


class MaskedFileSystem(FileSystem):
    """`inner` as a session with its own umask sees it: what is created gets the
    session's bits (set right after creation); everything else is `inner`'s own."""

    def __init__(self, inner: FileSystem, umask: int) -> None:
        self.inner = inner
        self.umask = umask & 0o777

    def __getattr__(self, name: str) -> Any:
        # the inner kind's own extras (an overlay's changes(), a memory budget)
        return getattr(self.inner, name)

    def _settle(self, path: str, existed: bool, base: int = 0o666) -> None:
        if existed:
            return
        try:
            self.inner.chmod(path, base & ~self.umask)
        except FsError:
            pass  # a kind without modes, or a file already gone

    def open(self, path: str, mode: str = "rb") -> IO[bytes]:
        if not _WRITES.intersection(mode):
            return self.inner.open(path, mode)
        existed = self.inner.exists(path)
        f = self.inner.open(path, mode)
        self._settle(path, existed)
        return f

    def read_small(self, path: str, limit: int) -> bytes | IO[bytes]:
        return self.inner.read_small(path, limit)  # (a read creates nothing)

    def write_bytes(self, path: str, data: bytes, append: bool = False) -> None:
        existed = self.inner.exists(path)
        self.inner.write_bytes(path, data, append)
        self._settle(path, existed)

    def copy_file(self, src: str, dst: str) -> None:
        existed = self.inner.exists(dst)
        self.inner.copy_file(src, dst)
        self._settle(dst, existed)

    def touch(self, path: str, mtime: float | None = None) -> None:
        existed = self.inner.exists(path)
        self.inner.touch(path, mtime)
        self._settle(path, existed)

    def mkdir(self, path: str, parents: bool = False, mode: int = 0o777) -> None:
        made: list[str] = []
        if parents:
            p = path.rstrip("/")
            while p and not self.inner.exists(p):
                made.append(p)
                p = p.rsplit("/", 1)[0]
        elif not self.inner.exists(path):
            made.append(path)
        self.inner.mkdir(path, parents, mode)
        for p in made:
            # the folder asked for gets `mode`; the parents made on the way also
            # keep u+wx so the rest of the path can be made (GNU mkdir -p's rule)
            bits = mode & 0o7777 & ~self.umask if p == path.rstrip("/") else (
                0o777 & ~self.umask) | 0o300
            try:
                self.inner.chmod(p, bits)
            except FsError:
                pass

    def make_dirs(self, path: str, mode: int = 0o777) -> int:
        made = self.inner.make_dirs(path, mode)
        parts = [p for p in posixpath.normpath(path).split("/") if p]
        for k in range(len(parts) - made, len(parts)):
            p = "/" + "/".join(parts[:k + 1])
            # as mkdir -p above: the last folder gets `mode`, the parents keep u+wx
            bits = mode & 0o7777 & ~self.umask if k == len(parts) - 1 else (
                0o777 & ~self.umask) | 0o300
            try:
                self.inner.chmod(p, bits)
            except FsError:
                pass
        return made

    @contextmanager
    def replace(self, path: str) -> Iterator[IO[bytes]]:
        existed = self.inner.exists(path)
        with self.inner.replace(path) as f:
            yield f
        self._settle(path, existed)

    # the rest is the inner filesystem's
    def stat(self, path: str, follow: bool = True) -> FileStat:
        return self.inner.stat(path, follow)

    def exists(self, path: str) -> bool:
        return self.inner.exists(path)

    def is_dir(self, path: str) -> bool:
        return self.inner.is_dir(path)

    def is_file(self, path: str) -> bool:
        return self.inner.is_file(path)

    def listdir(self, path: str) -> list[str]:
        return self.inner.listdir(path)

    def list_entries(self, path: str) -> list[tuple[str, str]]:
        return self.inner.list_entries(path)

    def walk(self, path: str) -> Iterator[tuple[str, list[str], list[str]]]:
        return self.inner.walk(path)

    def read_bytes(self, path: str) -> bytes:
        return self.inner.read_bytes(path)

    def real_os_path(self, path: str) -> str | None:
        return self.inner.real_os_path(path)


def _delegate(name: str) -> Callable[..., Any]:
    def method(self: MaskedFileSystem, *args: Any, **kw: Any) -> Any:
        return getattr(self.inner, name)(*args, **kw)

    method.__name__ = name
    return method


# every other method of the filesystem interface (remove, rename, chmod, links, …, and
# any added later) goes straight to the inner filesystem
for _name, _value in list(vars(FileSystem).items()):
    if callable(_value) and not _name.startswith("_") and _name not in vars(MaskedFileSystem):
        setattr(MaskedFileSystem, _name, _delegate(_name))
