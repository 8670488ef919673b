"""An in-memory filesystem: a hermetic session for an agent, with a size limit.

Files live in a tree of nodes guarded by one lock (kernels in threads may share nothing,
but pipeline stages of one kernel run in threads). Writes become visible on flush/close,
as with a real file written through a buffer.

A file's content is one immutable bytes object, held once: a reader gets a stream over
that very object (no copy), and a writer's buffer becomes the content when it is stored
(no copy either). `max_bytes` bounds the content — what is stored and what open writers
have buffered beyond it, so writers running side by side cannot each fill the budget."""

from __future__ import annotations

import io
import posixpath
import threading
import time

from tysh.kernel.base.record import field, mutable
from tysh.kernel.fs.api import FileStat, FileSystem, FsError, check_name, names_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

ENOENT = "No such file or directory"
ENOTDIR = "Not a directory"
EISDIR = "Is a directory"
EEXIST = "File exists"
ENOTEMPTY = "Directory not empty"
ENOSPC = "No space left on device"
ELOOP = "Too many levels of symbolic links"
EINVAL = "Invalid argument"

MAX_LINKS = 40


@mutable
class Node:
    kind: str  # "file" "directory" "symlink"
    mode: int
    mtime: float
    data: bytes = b""
    children: dict[str, Node] = field(factory=dict)
    target: str = ""
    ino: int = 0
    # removed (or replaced by a rename) while a writer may still hold it open: what is
    # stored into it then no longer counts against the filesystem's size
    unlinked: bool = False


def _split(path: str) -> list[str]:
    return [p for p in path.split("/") if p and p != "."]


class _WriteHandle(io.BytesIO):
    """A buffer that stores its content into the node on flush and close.

    While open it reserves, in the filesystem's count, what it holds beyond the node's
    stored content, so a full filesystem fails the write that would overfill it (as a
    full disk does) before the buffer grows, however many writers are open."""

    def __init__(
        self, fs: MemoryFileSystem, node: Node, initial: bytes, append: bool, path: str
    ) -> None:
        super().__init__(initial)  # shares `initial` until the first write
        self._path = path
        if append:
            self.seek(0, io.SEEK_END)
        self._fs = fs
        self._node = node
        self._reserved = 0
        self._dirty = False

    def write(self, b: Any) -> int:
        fs = self._fs
        n = len(b) if type(b) is bytes else memoryview(b).nbytes
        end = self.tell() + n
        if fs.max_bytes is not None:
            want = max(0, end - len(self._node.data))
            if want > self._reserved:
                fs._reserve(want - self._reserved, self._path)
                self._reserved = want
        self._dirty = True
        return super().write(b)

    def truncate(self, size: int | None = None) -> int:
        self._dirty = True  # BytesIO only shrinks: nothing to reserve
        return super().truncate(size)

    def _store_now(self) -> None:
        if self._dirty or self._reserved:
            self._fs._store(self._node, self.getvalue(), self._path, self._reserved)
            self._reserved = 0
            self._dirty = False

    def flush(self) -> None:
        if not self.closed:
            self._store_now()
        super().flush()

    def close(self) -> None:
        if self.closed:
            return
        try:
            self._store_now()
        finally:
            super().close()


class MemoryFileSystem(FileSystem):
    """A POSIX-like tree held in memory; `max_bytes` bounds the total file content."""

    def __init__(self, max_bytes: int | None = None) -> None:
        self._lock = threading.RLock()
        self._next_ino = 1
        self.root = self._new("directory", 0o755)
        self.max_bytes = max_bytes
        self.used_bytes = 0

    # -- internals -----------------------------------------------------------
    def _new(self, kind: str, mode: int) -> Node:
        self._next_ino += 1
        return Node(kind=kind, mode=mode, mtime=time.time(), ino=self._next_ino)

    def _reserve(self, n: int, path: str) -> None:
        """Count `n` more bytes an open writer holds, or fail as a full disk does."""
        with self._lock:
            if self.max_bytes is not None and self.used_bytes + n > self.max_bytes:
                raise FsError(path, ENOSPC)
            self.used_bytes += n

    def _store(self, node: Node, data: bytes, path: str, reserved: int = 0) -> None:
        """Make `data` the node's content (held as it is, not copied); `reserved` is
        what its writer had counted beyond the old content, now part of it."""
        with self._lock:
            if node.unlinked:
                self.used_bytes -= reserved
                grow = 0
            else:
                grow = len(data) - len(node.data) - reserved
            if grow > 0 and self.max_bytes is not None \
                    and self.used_bytes + grow > self.max_bytes:
                raise FsError(path, ENOSPC)
            self.used_bytes += grow
            node.data = bytes(data) if type(data) is not bytes else data
            node.mtime = time.time()

    def _lookup(self, path: str, follow: bool = True, depth: int = 0) -> Node:
        """The node at an absolute path, following symlinks in every component (and in
        the last one when `follow`)."""
        if depth > MAX_LINKS:
            raise FsError(path, ELOOP)
        if depth == 0:
            check_name(path)
            if names_dir(path):
                node = self._lookup(path.rstrip("/"), True, 1)
                if node.kind != "directory":
                    raise FsError(path, ENOTDIR)
                return node
        node = self.root
        parts = _split(path)
        walked: list[str] = []
        for i, name in enumerate(parts):
            if node.kind != "directory":
                raise FsError(path, ENOTDIR)
            if name == "..":
                walked = walked[:-1]
                node = self._lookup("/" + "/".join(walked), True, depth + 1)
                continue
            child = node.children.get(name)
            if child is None:
                raise FsError(path, ENOENT)
            last = i == len(parts) - 1
            if child.kind == "symlink" and (follow or not last):
                base = "/" + "/".join(walked)
                target = posixpath.join(base, child.target)
                child = self._lookup(target, True, depth + 1)
                rest = parts[i + 1 :]
                if rest:
                    return self._lookup(
                        posixpath.join(target, *rest), follow, depth + 1
                    )
                return child
            walked.append(name)
            node = child
        return node

    def _parent(self, path: str) -> tuple[Node, str]:
        check_name(path)
        norm = posixpath.normpath(path)
        parent, name = posixpath.split(norm)
        if not name or name in (".", ".."):
            raise FsError(path, EINVAL)
        pnode = self._lookup(parent or "/")
        if pnode.kind != "directory":
            raise FsError(path, ENOTDIR)
        return pnode, name

    def _lookup_or_create(self, path: str) -> Node:
        """The node at `path`, or a new empty file (0644) there when nothing is (opening
        for writing and `touch`); creating an entry updates its directory's mtime."""
        try:
            return self._lookup(path)
        except FsError as e:
            if e.reason != ENOENT:
                raise
            if names_dir(path):
                raise FsError(path, EISDIR) from None
        pnode, name = self._parent(path)
        node = self._new("file", 0o644)
        pnode.children[name] = node
        pnode.mtime = time.time()
        return node

    # -- FileSystem ----------------------------------------------------------
    def open(self, path: str, mode: str = "rb") -> IO[bytes]:
        with self._lock:
            if mode.startswith("r") and "+" not in mode:
                node = self._lookup(path)
                if node.kind == "directory":
                    raise FsError(path, EISDIR)
                return io.BytesIO(node.data)  # a view of the content, not a copy
            if names_dir(path):
                raise FsError(path, EISDIR)  # no file is written at `name/`
            node = self._lookup_or_create(path)
            if node.kind == "directory":
                raise FsError(path, EISDIR)
            if mode.startswith("w"):
                self._store(node, b"", path)
                return _WriteHandle(self, node, b"", False, path)
            return _WriteHandle(self, node, node.data, mode.startswith("a"), path)

    def stat(self, path: str, follow: bool = True) -> FileStat:
        with self._lock:
            node = self._lookup(path, follow)
            size = len(node.data) if node.kind == "file" else (
                len(node.target) if node.kind == "symlink" else 4096
            )
            type_bits = {"file": 0o100000, "directory": 0o040000, "symlink": 0o120000}[node.kind]
            return FileStat(
                path=path,
                kind=node.kind,
                size=size,
                mode=type_bits | node.mode,
                mtime=node.mtime,
                executable=node.kind == "file" and bool(node.mode & 0o111),
                nlink=2 if node.kind == "directory" else 1,
                ino=node.ino,
            )

    def listdir(self, path: str) -> list[str]:
        with self._lock:
            node = self._lookup(path)
            if node.kind != "directory":
                raise FsError(path, ENOTDIR)
            return list(node.children)

    def mkdir(self, path: str, parents: bool = False, mode: int = 0o777) -> None:
        with self._lock:
            if parents:
                self.make_dirs(path, mode)
                return
            pnode, name = self._parent(path)
            if name in pnode.children:
                raise FsError(path, EEXIST)
            pnode.children[name] = self._new("directory", mode & 0o755)
            pnode.mtime = time.time()

    def make_dirs(self, path: str, mode: int = 0o777) -> int:
        """Walks down the tree once (symlinks on the way followed), so any depth takes
        time linear in it, with a checkpoint a level."""
        check_name(path)
        parts = _split(posixpath.normpath(path))
        made = 0
        with self._lock:
            node = self.root
            for i, name in enumerate(parts):
                self.checkpoint()
                child = node.children.get(name)
                if child is None:
                    child = self._new("directory", mode & 0o755)
                    node.children[name] = child
                    node.mtime = time.time()
                    made += 1
                elif child.kind == "symlink":
                    child = self._lookup("/" + "/".join(parts[: i + 1]))
                if child.kind != "directory":
                    raise FsError("/" + "/".join(parts[: i + 1]),
                                  ENOTDIR if i < len(parts) - 1 else EEXIST)
                node = child
        return made

    def remove(self, path: str) -> None:
        with self._lock:
            pnode, name = self._parent(path)
            node = pnode.children.get(name)
            if node is None:
                raise FsError(path, ENOENT)
            if names_dir(path):
                self._lookup(path)  # ENOTDIR unless it resolves to a directory
                raise FsError(path, EISDIR)
            if node.kind == "directory":
                raise FsError(path, EISDIR)
            self.used_bytes -= len(node.data)
            node.unlinked = True
            del pnode.children[name]

    def rmdir(self, path: str) -> None:
        with self._lock:
            pnode, name = self._parent(path)
            node = pnode.children.get(name)
            if node is None:
                raise FsError(path, ENOENT)
            if node.kind != "directory":
                raise FsError(path, ENOTDIR)
            if node.children:
                raise FsError(path, ENOTEMPTY)
            del pnode.children[name]

    def rename(self, src: str, dst: str) -> None:
        with self._lock:
            sp, sname = self._parent(src)
            node = sp.children.get(sname)
            if node is None:
                raise FsError(src, ENOENT)
            if (names_dir(src) or names_dir(dst)) and node.kind != "directory":
                raise FsError(src if names_dir(src) else dst, ENOTDIR)
            dp, dname = self._parent(dst)
            old = dp.children.get(dname)
            if old is not None and old.kind == "directory":
                if node.kind != "directory":
                    raise FsError(dst, EISDIR)
                if old.children:
                    raise FsError(dst, ENOTEMPTY)
            if node.kind == "directory":
                norm_src = posixpath.normpath(src).rstrip("/") + "/"
                if (posixpath.normpath(dst).rstrip("/") + "/").startswith(norm_src):
                    raise FsError(dst, EINVAL)
            if old is node:
                return  # a name onto itself: nothing moves, nothing is freed
            if old is not None and old.kind == "file":
                self.used_bytes -= len(old.data)
                old.unlinked = True
            del sp.children[sname]
            dp.children[dname] = node

    def touch(self, path: str, mtime: float | None = None) -> None:
        with self._lock:
            if names_dir(path):
                node = self._lookup(path)  # `missing/` names no file to create
            else:
                node = self._lookup_or_create(path)
            node.mtime = time.time() if mtime is None else mtime

    def chmod(self, path: str, mode: int) -> None:
        with self._lock:
            self._lookup(path).mode = mode & 0o7777

    def readlink(self, path: str) -> str:
        with self._lock:
            node = self._lookup(path, follow=False)
            if node.kind != "symlink":
                raise FsError(path, EINVAL)
            return node.target

    def symlink(self, target: str, path: str) -> None:
        with self._lock:
            pnode, name = self._parent(path)
            if name in pnode.children:
                raise FsError(path, EEXIST)
            node = self._new("symlink", 0o777)
            node.target = target
            pnode.children[name] = node

    def realpath(self, path: str) -> str:
        with self._lock:
            out: list[str] = []
            parts = _split(path)
            hops = 0
            while parts:
                name = parts.pop(0)
                if name == "..":
                    out = out[:-1]
                    continue
                cur = "/" + "/".join([*out, name])
                try:
                    node = self._lookup(cur, follow=False)
                except FsError:
                    out.append(name)
                    continue
                if node.kind == "symlink":
                    hops += 1
                    if hops > MAX_LINKS:
                        raise FsError(path, ELOOP)
                    if node.target.startswith("/"):
                        out = []
                    parts = _split(node.target) + parts
                    continue
                out.append(name)
            return "/" + "/".join(out)
