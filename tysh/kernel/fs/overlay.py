"""An overlay: writes land in memory over a read-only host layer.

An agent can work freely and the embedder decides afterwards: `changes()` lists what
was added, modified and deleted, `diff()` shows it, `commit()` writes exactly that to the
host — through the confined resolution of the lower layer's root (a host symlink is never
followed out of it), all or nothing."""

from __future__ import annotations

import difflib
import posixpath
from collections.abc import Callable

from tysh.kernel.base.record import Record, frozen
from tysh.kernel.fs.api import (
    ENOTDIR,
    FileStat,
    FileSystem,
    FsError,
    check_name,
    names_dir,
)
from tysh.kernel.fs.confined import DENIED
from tysh.kernel.fs.memory import EEXIST, ENOENT, MemoryFileSystem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO


@frozen
class Change(Record):
    kind: str  # "added" "modified" "deleted"
    path: str


class CommitError(FsError):
    """`commit()` refused: the changes cannot all be applied to the target (a path
    resolves outside the root, a parent is not a directory, …). Nothing was changed;
    `problems` lists every path that stood in the way."""

    def __init__(self, problems: list[FsError]) -> None:
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(first.path, f"{first.reason}{more}; nothing was committed")
        self.problems = problems


Step = Callable[[], None]


class OverlayFileSystem(FileSystem):
    def __init__(self, lower: FileSystem, max_bytes: int | None = None) -> None:
        self.lower = lower
        self.upper = MemoryFileSystem(max_bytes=max_bytes)
        self.deleted: set[str] = set()
        self.touched: set[str] = set()

    def set_checkpoint(self, check: Callable[[], None]) -> None:
        self.checkpoint = check
        self.lower.set_checkpoint(check)
        self.upper.set_checkpoint(check)

    def _dir_path(self, path: str) -> str:
        """A path with a trailing `/` must name a directory (`Not a directory`
        otherwise); returns it without the slash."""
        if not names_dir(path):
            return path
        norm = self._norm(path)
        if self.stat(norm).kind != "directory":
            raise FsError(path, ENOTDIR)
        return norm

    def _lower_link(self, path: str) -> bool:
        """Whether `path` shows the lower layer's entry and that entry is a symlink."""
        if self._in_upper(path) or self._hidden(path):
            return False
        try:
            return self.lower.stat(path, follow=False).kind == "symlink"
        except FsError:
            return False

    # -- layer selection ----------------------------------------------------
    def _norm(self, path: str) -> str:
        check_name(path)
        return posixpath.normpath(path) if path != "/" else "/"

    def _hidden(self, path: str) -> bool:
        """Whether the path or a directory above it was deleted in this layer."""
        if not self.deleted:
            return False
        p = self._norm(path)
        if p in self.deleted:
            return True
        if len(self.deleted) < p.count("/"):  # few deletions, a deep path
            return any(p.startswith(d.rstrip("/") + "/") for d in self.deleted)
        while p != "/":
            p = posixpath.dirname(p)
            if p in self.deleted:
                return True
        return False

    def _in_upper(self, path: str) -> bool:
        try:
            self.upper.stat(self._norm(path), follow=False)
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
        """Make the parent folders of `path` exist in the upper layer (every write
        passes here: a path the confined lower layer refuses is refused here too)."""
        check_name(path)
        under_root = getattr(self.lower, "under_root", None)
        if under_root is not None and not under_root(path):
            raise FsError(path, DENIED)
        parent = posixpath.dirname(self._norm(path))
        if not self._in_upper(parent):
            if self._hidden(parent):
                raise FsError(path, ENOENT)
            try:
                kind = self.lower.stat(parent).kind
            except FsError as e:  # outside the sandbox, a loop, … as the lower says
                raise FsError(path, e.reason) from None
            if kind != "directory":
                raise FsError(path, ENOTDIR)
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
        if names_dir(path):
            raise FsError(path, "Is a directory")  # no file is written at `name/`
        if self._lower_link(path):
            # writing through a host symlink writes where it leads, inside the root
            # only, as the lower layer resolves it
            return self.open(self.lower.realpath(path), mode)
        exists = self.exists(path)
        if exists and (mode.startswith("a") or "+" in mode):
            self._copy_up(path)
        else:
            self._copy_up_dirs(path)
        self.deleted.discard(self._norm(path))
        self.touched.add(self._norm(path))
        return self.upper.open(path, mode)

    def stat(self, path: str, follow: bool = True) -> FileStat:
        if names_dir(path):
            st = self._layer(self._norm(path)).stat(self._norm(path), True)
            if st.kind != "directory":
                raise FsError(path, ENOTDIR)
            return st
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
        path = self._norm(path)
        if self._lower_link(path) and not self.is_dir(path):
            # a host symlink that leads nowhere inside: as the confined layer says
            try:
                self.lower.stat(path)
            except FsError as e:
                raise FsError(path, e.reason) from None
            raise FsError(path, EEXIST)
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
        if names_dir(path):
            self._dir_path(path)
            raise FsError(path, "Is a directory")
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
        if names_dir(path) and self.stat(self._norm(path), follow=False).kind != "directory":
            raise FsError(path, ENOTDIR)
        path = self._norm(path)
        if self.listdir(path):
            raise FsError(path, "Directory not empty")
        if self._in_upper(path):
            self.upper.rmdir(path)
        if self.lower.is_dir(path):
            self.deleted.add(self._norm(path))
        self.touched.discard(self._norm(path))

    def rename(self, src: str, dst: str) -> None:
        check_name(src)
        check_name(dst)
        if names_dir(src) or names_dir(dst):
            if self.stat(self._norm(src), follow=False).kind != "directory":
                raise FsError(src if names_dir(src) else dst, ENOTDIR)
            src, dst = self._norm(src), self._norm(dst)
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
        path = self._dir_path(path)
        if self._lower_link(path):
            path = self.lower.realpath(path)
        if self.exists(path):
            self._copy_up(path)
        else:
            self._copy_up_dirs(path)
        self.upper.touch(path, mtime)
        self.deleted.discard(self._norm(path))
        self.touched.add(self._norm(path))

    def chmod(self, path: str, mode: int) -> None:
        path = self._dir_path(path)
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
            kind = self.upper.stat(p, follow=False).kind
            try:
                low: FileStat | None = None if p in self.deleted else \
                    self.lower.stat(p, follow=False)
            except FsError:
                low = None
            if kind == "directory":
                if low is None or low.kind != "directory":
                    out.append(Change("added", p))
                continue
            if low is None:
                out.append(Change("added", p))
            elif kind == "symlink":
                if low.kind != "symlink" or self.lower.readlink(p) != self.upper.readlink(p):
                    out.append(Change("modified", p))
            elif low.kind == "symlink" or not self._same_content(p):
                out.append(Change("modified", p))
        return sorted(out, key=lambda c: c.path)

    def _same_content(self, path: str) -> bool:
        try:
            return self.lower.read_bytes(path) == self.upper.read_bytes(path)
        except FsError:
            return False

    def diff(self) -> str:
        """A unified diff of the changed files (binary files named, not shown), with
        paths relative to the root as git writes them (`a/config.ini`), so it applies
        with `patch -p1` or `git apply` in the root."""
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
                rel = self._relative(c.path)
                chunks.append(f"Binary files a/{rel} and b/{rel} differ\n")
                continue
            rel = self._relative(c.path)
            chunks.extend(
                difflib.unified_diff(
                    a, b,
                    "/dev/null" if c.kind == "added" else "a/" + rel,
                    "/dev/null" if c.kind == "deleted" else "b/" + rel,
                )
            )
        return "".join(chunks)

    def _relative(self, path: str) -> str:
        """A kernel path as the diff names it: below the lower layer's root when it has
        one, else without its leading slash."""
        below = getattr(self.lower, "_below", None)
        if below is not None:
            comps = below(path)
            if comps is not None:
                return "/".join(comps)
        return path.lstrip("/")

    def commit(self, target: FileSystem | None = None) -> list[Change]:
        """Apply exactly `changes()` to the host, then start afresh; returns them.

        The changes are applied through a ConfinedFileSystem of the lower layer's root
        (when `target` is None or the unconfined host filesystem; a confined or in-memory
        `target` is used as it is), so each path is resolved beneath the root: a host
        symlink leading out is refused, never followed, and a deletion removes the entry
        itself (a symlink, not what it points to). All or nothing: every change is
        checked first — each path resolves inside, each parent is (or will be) a
        directory — and if any cannot be applied, CommitError lists them and nothing is
        changed. Files are written whole (a temporary file renamed over the old one)."""
        fs = self._commit_target(target)
        changes = self.changes()
        problems: list[FsError] = []
        steps: list[Step] = []
        planned_dirs: dict[str, bool] = {}  # directory -> whether commit creates it
        deletions = [c for c in changes if c.kind == "deleted"]
        others = [c for c in changes if c.kind != "deleted"]
        for c in sorted(deletions, key=lambda c: c.path, reverse=True):
            self._plan_delete(fs, c.path, steps, problems)
        for c in others:
            self._plan_write(fs, c.path, steps, problems, planned_dirs)
        if problems:
            raise CommitError(problems)
        for step in steps:
            step()
        self.upper = MemoryFileSystem(max_bytes=self.upper.max_bytes)
        self.upper.set_checkpoint(self.checkpoint)
        self.deleted.clear()
        self.touched.clear()
        return changes

    def _commit_target(self, target: FileSystem | None) -> FileSystem:
        from tysh.kernel.fs.confined import ConfinedFileSystem
        from tysh.kernel.fs.local import LocalFileSystem

        if isinstance(target, ConfinedFileSystem):
            return target
        if target is None or type(target) is LocalFileSystem:
            root = getattr(self.lower, "root", None)
            if isinstance(self.lower, ConfinedFileSystem) and isinstance(root, str):
                return ConfinedFileSystem(root)
            if target is None:
                raise FsError("/", "commit needs a target filesystem")
        return target

    @staticmethod
    def _lstat(fs: FileSystem, path: str) -> FileStat | None:
        """What is at `path` in the target, not following a last symlink; None when
        nothing is; FsError when the path cannot be resolved (outside, a loop…)."""
        try:
            return fs.stat(path, follow=False)
        except FsError as e:
            if e.reason == ENOENT:
                parent = posixpath.dirname(path)
                if parent != path:
                    fs.stat(parent)  # the parent must resolve, inside
                return None
            raise

    def _plan_delete(self, fs: FileSystem, path: str, steps: list[Step],
                     problems: list[FsError]) -> None:
        try:
            st = self._lstat(fs, path)
        except FsError as e:
            problems.append(FsError(path, e.reason))
            return
        if st is None:
            return
        if st.kind == "directory":
            steps.append(lambda: _remove_tree(fs, path))
        else:
            steps.append(lambda: fs.remove(path))

    def _plan_write(self, fs: FileSystem, path: str, steps: list[Step],
                    problems: list[FsError], planned_dirs: dict[str, bool]) -> None:
        kind = self.upper.stat(path, follow=False).kind
        parent = posixpath.dirname(path)
        st: FileStat | None = None
        if not planned_dirs.get(parent, False):  # in a directory commit makes: nothing yet
            try:
                if parent not in planned_dirs and fs.stat(parent).kind != "directory":
                    raise FsError(parent, ENOTDIR)
                st = self._lstat(fs, path)
            except FsError as e:
                problems.append(FsError(path, e.reason))
                return
        if kind == "directory":
            fresh = st is None or st.kind != "directory"
            planned_dirs[path] = fresh
            if not fresh:
                return
            if st is not None:
                steps.append(lambda: fs.remove(path))
            mode = self.upper.stat(path).mode & 0o7777
            steps.append(lambda: fs.mkdir(path, mode=mode))
            return
        if st is not None and st.kind == "directory":
            steps.append(lambda: _remove_tree(fs, path))
        if kind == "symlink":
            link = self.upper.readlink(path)
            if st is not None and st.kind != "directory":
                steps.append(lambda: fs.remove(path))
            steps.append(lambda: fs.symlink(link, path))
            return
        data = self.upper.read_bytes(path)
        mode = self.upper.stat(path).mode & 0o7777
        if st is not None and st.kind == "symlink":
            # a host symlink is written through only where it leads inside the root
            try:
                dest = fs.realpath(path)
                fs.stat(posixpath.dirname(dest))
            except FsError as e:
                problems.append(FsError(path, e.reason))
                return
        else:
            dest = path

        def write() -> None:
            with fs.replace(dest) as f:
                f.write(data)
            if st is None:
                fs.chmod(dest, mode)

        steps.append(write)


def _remove_tree(fs: FileSystem, path: str) -> None:
    """Remove a directory and everything in it, never following a symlink (a link is
    removed as an entry)."""
    for name, kind in fs.list_entries(path):
        child = path.rstrip("/") + "/" + name
        if kind == "directory":
            _remove_tree(fs, child)
        else:
            fs.remove(child)
    fs.rmdir(path)
