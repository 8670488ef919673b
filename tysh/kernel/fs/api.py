"""The one door to files: every builtin, redirect, glob, `cd` and `source`
goes through a FileSystem, which is what makes sandboxing, an in-memory filesystem and
an overlay possible. Paths given to these methods are absolute (callers join them with
the session's cwd through `Context.path`).

Every kind follows the same rules for what a path may say: a NUL byte makes it invalid (an
error value, `Invalid argument`), and a trailing `/` means the path names a directory —
on anything else the operation fails with `Not a directory`, as the host kernel does."""

from __future__ import annotations

import os
import posixpath

from tysh.kernel.base.errors import TyshError
from tysh.kernel.base.lazymod import contextmanager
from tysh.kernel.base.record import Record, frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import IO


class FsError(TyshError):
    """A filesystem failure phrased as GNU tools phrase it (`No such file or directory`)."""

    def __init__(self, path: str, reason: str, status: int = 1) -> None:
        super().__init__(f"{path}: {reason}", status)
        self.path = path
        self.reason = reason


INVALID_NUL = "Invalid argument (a file name cannot contain a NUL byte)"
ENOTDIR = "Not a directory"


def check_name(path: str) -> None:
    """Refuse a path no filesystem can hold (a NUL byte), as an error value."""
    if "\0" in path:
        raise FsError(path, INVALID_NUL)


def names_dir(path: str) -> bool:
    """Whether a path ends in `/` (and is not the root itself): it names a directory."""
    return len(path) > 1 and path.endswith("/") and path.strip("/") != ""


def own_names(names: list[str]) -> bool:
    """Whether each of `names` is an entry's own name, which a directory's fd can open
    without resolving anything else: no `/`, no NUL, not "", "." or "..". A few scans
    in C of the names joined: a `/` in a name shows as one `/` more than the joins, and
    "", "." and ".." as `//`, `/./` and `/../` between the slashes put around each."""
    if not names:
        return True
    joined = "/" + "/".join(names) + "/"
    return (joined.count("/") == len(names) + 1 and "\0" not in joined
            and "//" not in joined and "/./" not in joined and "/../" not in joined)


def left_out(got: object, without: bytes | None) -> bool:
    """Whether read_files leaves out what it read for a name: content read whole that
    does not hold `without` (given)."""
    return without is not None and type(got) is bytes and got.find(without) < 0


def _no_checkpoint() -> None:
    return None


@frozen
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


class DirHandle:
    """A directory opened once for a walk: its entries, and its files opened by name
    from it. The host kinds hold the directory's fd, so a walk resolves each directory
    once instead of once per file; this base form joins paths (memory, overlay)."""

    def __init__(self, fs: FileSystem, path: str) -> None:
        self.fs = fs
        self.path = path
        self._base = path.rstrip("/") + "/"

    def entries(self) -> list[tuple[str, str]]:
        """(name, kind) of each entry, not following symlinks (as list_entries)."""
        return self.fs.list_entries(self.path)

    def open(self, name: str, mode: str = "rb") -> IO[bytes]:
        """Open an entry by name (a symlink is resolved as the filesystem resolves any
        path)."""
        return self.fs.open(self._base + name, mode)

    def stat(self, name: str, follow: bool = False) -> FileStat:
        """The stat of an entry by name (through a symlink when `follow`)."""
        return self.fs.stat(self._base + name, follow)

    def read_small(self, name: str, limit: int) -> bytes | IO[bytes]:
        """The whole content of the entry `name` when it is a regular file of at most
        `limit` bytes, else the entry opened for reading as `open` opens it: a search
        over many small files then costs one open and one read each."""
        return self.open(name, "rb")

    def read_files(self, names: Iterable[str], limit: int, without: bytes | None = None
                   ) -> Iterator[tuple[str, bytes | IO[bytes] | FsError]]:
        """Each entry of `names` in turn, as `read_small` gives it, or the FsError that
        reading it met, as a value: a walk over many files makes one call per directory
        rather than one per file, and one unreadable file does not end the batch. A
        file object given is the caller's to close. With `without`, a file read whole
        that does not hold those bytes is left out: a search that passes over such a
        file (grep -r's plain string) then costs no step of the caller's for it."""
        for name in names:
            try:
                got: bytes | IO[bytes] | FsError = self.read_small(name, limit)
            except FsError as e:
                got = e
            if not left_out(got, without):
                yield name, got

    def close(self) -> None:
        return None

    def __enter__(self) -> DirHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class FileSystem:
    """Abstract filesystem; concrete kinds override every method.

    `checkpoint` is called while an operation waits or works for long (a FIFO with no
    writer, `mkdir -p` a hundred thousand levels deep): the kernel that owns the
    filesystem sets it to its own check, which raises when the run is cancelled or past
    its time limit."""

    checkpoint: Callable[[], None] = staticmethod(_no_checkpoint)

    def set_checkpoint(self, check: Callable[[], None]) -> None:
        self.checkpoint = check

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

    def make_dirs(self, path: str, mode: int = 0o777) -> int:
        """`mkdir -p`: create every missing directory of `path`; returns how many were
        created (always the last ones of the path). An existing non-directory on the way
        fails with `Not a directory` (`File exists` for the last component)."""
        parts = [p for p in posixpath.normpath(path).split("/") if p]
        cur = ""
        made = 0
        for i, name in enumerate(parts):
            self.checkpoint()
            cur += "/" + name
            try:
                st = self.stat(cur)
            except FsError as e:
                if e.reason != "No such file or directory":
                    raise
                self.mkdir(cur, mode=mode)
                made += 1
                continue
            if st.kind != "directory":
                raise FsError(cur, ENOTDIR if i < len(parts) - 1 else "File exists")
        return made

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

    def open_dir(self, path: str) -> DirHandle:
        """A directory to walk: its entries and its files, resolved once (FsError when
        it cannot be listed)."""
        return DirHandle(self, path)

    def list_stats(self, path: str) -> list[tuple[str, FileStat]]:
        """(name, lstat) of each entry of a directory, in one pass over it: what du and
        ls -l need (the host kinds stat each entry relative to the open directory)."""
        out: list[tuple[str, FileStat]] = []
        base = path.rstrip("/") + "/"
        for n in self.listdir(path):
            try:
                out.append((n, self.stat(base + n, follow=False)))
            except FsError:
                continue
        return out

    def real_os_path(self, path: str) -> str | None:
        """The host path for a kernel path, for handing to external commands; None when
        the file has no host counterpart (in-memory)."""
        return None

    def walk(self, path: str) -> Iterator[tuple[str, list[str], list[str]]]:
        """Top-down walk like os.walk, not following symlinked directories (the caller
        may prune `dirs` in place)."""
        try:
            entries = sorted(self.list_entries(path))
        except FsError:
            return
        dirs = [n for n, kind in entries if kind == "directory"]
        files = [n for n, kind in entries if kind != "directory"]
        yield path, dirs, files
        for d in dirs:
            yield from self.walk(path.rstrip("/") + "/" + d)

    def read_bytes(self, path: str) -> bytes:
        with self.open(path, "rb") as f:
            return f.read()

    def read_small(self, path: str, limit: int) -> bytes | IO[bytes]:
        """The whole content of `path` when it is a regular file of at most `limit`
        bytes, else the file opened for reading as `open(path, "rb")` opens it (the
        caller closes it); the errors are `open`'s. A tool that reads a small file
        whole (`cat f`) then costs one open and one read, and no file object."""
        return self.open(path, "rb")

    def write_bytes(self, path: str, data: bytes, append: bool = False) -> None:
        with self.open(path, "ab" if append else "wb") as f:
            f.write(data)

    @contextmanager
    def replace(self, path: str) -> Iterator[IO[bytes]]:
        """Give `path` a whole new content without risking the old one (`sed -i`,
        `sort -o` onto its input): the block writes a temporary file beside it, which
        takes the name only when the block ends without error — on a full disk the
        original stays as it was. The new file keeps the original's permissions; a
        symlink is replaced by the file, as GNU sed -i does."""
        check_name(path)
        try:
            st: FileStat | None = self.stat(path)
        except FsError:
            if names_dir(path):
                raise
            st = None
        if st is not None and st.kind == "directory":
            raise FsError(path, "Is a directory")
        if st is not None and names_dir(path):
            raise FsError(path, ENOTDIR)
        old_mode = st.mode & 0o7777 if st is not None else None
        head, base = posixpath.split(posixpath.normpath(path))
        for _ in range(100):
            tmp = posixpath.join(head, f".{base}.tysh-{os.urandom(4).hex()}")
            if not self.exists(tmp) and not self._lexists(tmp):
                break
        f = self.open(tmp, "wb")
        try:
            try:
                yield f
            except BaseException:
                try:
                    f.close()
                except Exception:
                    pass
                raise
            f.close()  # a write error held in the buffer surfaces here
            if old_mode is not None:
                self.chmod(tmp, old_mode)
            self.rename(tmp, path)
        except BaseException:
            try:
                self.remove(tmp)
            except FsError:
                pass
            raise

    def _lexists(self, path: str) -> bool:
        try:
            self.stat(path, follow=False)
            return True
        except FsError:
            return False
