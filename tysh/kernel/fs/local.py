"""The host's filesystem, unconfined: what the REPL and `Kernel.repl()` use.

Paths go to the host kernel as they are, trailing slash included (so `rm file/` fails with
`Not a directory` there, as in GNU). Files come back through hostio: FIFOs are polled,
write failures are error values."""

from __future__ import annotations

import errno
import os
import posixpath
import stat as stat_mod

from tysh.kernel.base.lazymod import contextmanager
from tysh.kernel.fs.api import (
    ENOTDIR,
    INVALID_NUL,
    DirHandle,
    FileStat,
    FileSystem,
    FsError,
    check_name,
    left_out,
    names_dir,
    own_names,
)
from tysh.kernel.fs.hostio import (
    mode_flags,
    open_fifo_writer,
    read_whole,
    reason,
    replace_in,
    wrap_fd,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import IO, NoReturn

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIR = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC
# an entry of a directory held open, read without following a final symlink (and without
# waiting on a FIFO: hostio polls one)
_READ_PATH = mode_flags("rb")
_READ_ENTRY = _READ_PATH | getattr(os, "O_NOFOLLOW", 0)
# what a positioned read of something that is no regular file can fail with
_NO_PREAD = frozenset({errno.ESPIPE, errno.EINVAL, errno.EAGAIN, errno.EWOULDBLOCK})


def _kind(mode: int) -> str:
    if stat_mod.S_ISDIR(mode):
        return "directory"
    if stat_mod.S_ISREG(mode):
        return "file"
    if stat_mod.S_ISLNK(mode):
        return "symlink"
    return "other"


def fail(path: str, e: Exception) -> NoReturn:
    """Raise the FsError for an OS error (or for a name the OS cannot take)."""
    if isinstance(e, OSError):
        raise FsError(path, reason(e)) from None
    raise FsError(path, INVALID_NUL if "\0" in path else "Invalid argument") from None


def to_stat(path: str, st: os.stat_result) -> FileStat:
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


def scan_stats(fd_or_path: int | str, base: str) -> list[tuple[str, FileStat]]:
    """(name, lstat) of each entry of an open directory (or a host path); entries that
    vanish meanwhile are left out. With an fd, each stat is relative to it."""
    out: list[tuple[str, FileStat]] = []
    with os.scandir(fd_or_path) as it:
        for e in it:
            try:
                st = e.stat(follow_symlinks=False)
            except OSError:
                continue
            out.append((e.name, to_stat(base + e.name, st)))
    return out


def scan_kinds(fd_or_path: int | str) -> list[tuple[str, str]]:
    """(name, kind) of each entry of an open directory (or a host path), the kind not
    following a link; entries that vanish meanwhile are left out."""
    out: list[tuple[str, str]] = []
    with os.scandir(fd_or_path) as it:
        for e in it:
            # the three tests exclude each other (none follows a link): the commonest
            # kind is asked first
            try:
                if e.is_file(follow_symlinks=False):
                    out.append((e.name, "file"))
                elif e.is_dir(follow_symlinks=False):
                    out.append((e.name, "directory"))
                elif e.is_symlink():
                    out.append((e.name, "symlink"))
                else:
                    out.append((e.name, "other"))
            except OSError:  # vanished meanwhile
                continue
    return out


class FdDir(DirHandle):
    """A directory held open by fd: entries listed from it, files opened relative to it
    without following a final symlink (a link is opened through the filesystem's own
    resolution instead: confined for the confined kind)."""

    def __init__(self, fs: FileSystem, path: str, fd: int) -> None:
        super().__init__(fs, path)
        self.fd = fd

    def entries(self) -> list[tuple[str, str]]:
        try:
            return scan_kinds(self.fd)
        except OSError as e:
            fail(self.path, e)

    def open(self, name: str, mode: str = "rb") -> IO[bytes]:
        if "b" not in mode:
            mode += "b"
        path = self._base + name
        if "\0" in name or "/" in name or name in ("", ".", ".."):
            return self.fs.open(path, mode)
        try:
            fd = os.open(name, mode_flags(mode) | os.O_NOFOLLOW, 0o666, dir_fd=self.fd)
        except OSError as e:
            if e.errno in (errno.ELOOP, errno.ENXIO):  # a symlink; a FIFO to wait on
                return self.fs.open(path, mode)
            fail(path, e)
        return wrap_fd(fd, mode, path, self.fs.checkpoint)

    def stat(self, name: str, follow: bool = False) -> FileStat:
        # the entry itself, relative to the directory's fd; a link to follow goes through
        # the filesystem's own resolution (confined for the confined kind)
        path = self._base + name
        if "\0" in name or "/" in name or name in ("", ".", ".."):
            return self.fs.stat(path, follow)
        try:
            st = os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except OSError as e:
            fail(path, e)
        if follow and stat_mod.S_ISLNK(st.st_mode):
            return self.fs.stat(path, follow=True)
        return to_stat(path, st)

    def read_small(self, name: str, limit: int) -> bytes | IO[bytes]:
        if "\0" in name or "/" in name or name in ("", ".", ".."):
            return self.fs.open(self._base + name, "rb")
        try:
            fd = os.open(name, _READ_ENTRY, dir_fd=self.fd)
        except OSError as e:
            if e.errno == errno.ELOOP:  # a symlink: the filesystem's own resolution
                return self.fs.open(self._base + name, "rb")
            fail(self._base + name, e)
        return read_whole(fd, limit, self._base + name, self.fs.checkpoint)

    def read_files(self, names: Iterable[str], limit: int, without: bytes | None = None
                   ) -> Iterator[tuple[str, bytes | IO[bytes] | FsError]]:
        # read_small's answers, with less work per file: the size is where a seek to the
        # end lands (no stat record to build), and a positioned read of one byte more
        # than the size that gives the size stopped at the end (a regular file's read is
        # short only there), so a small file costs one read, into a buffer of its own
        # size. Any other case (a bigger file, one that grew or shrank meanwhile, one
        # that refuses to seek or to read at a position: a FIFO, /proc) starts again from
        # offset 0 on read_small's own steps (fstat, then one read or a stream), as if
        # nothing had been read: a seek that fails is no error of the file's. The names
        # are checked once for the batch: one that is no entry's own name (a path, "..")
        # goes the filesystem's way, as in read_small, and so does the rest of the batch.
        batch = names if type(names) is list else list(names)
        if not own_names(batch):
            yield from super().read_files(batch, limit, without)
            return
        dfd = self.fd
        sys_open, sys_lseek, sys_pread, sys_close = os.open, os.lseek, os.pread, os.close
        flags, end = _READ_ENTRY, os.SEEK_END
        # the size of a file whose seek to the end failed: above the limit and any size
        no_size = (1 << 63) + max(limit, 0)
        for name in batch:
            got: bytes | IO[bytes] | FsError
            fd = -1
            try:
                fd = sys_open(name, flags, dir_fd=dfd)
                try:
                    size = sys_lseek(fd, 0, end)
                except OSError:  # (a FIFO, a /proc file): read_small's steps decide
                    size = no_size
                if size <= limit and len(data := sys_pread(fd, size + 1, 0)) == size:
                    # (partition takes its argument as it is, where find parses a tuple)
                    if without is not None and not data.partition(without)[1]:
                        continue  # (the finally clause closes it)
                    got = data
                else:
                    owned, fd = fd, -1
                    got = self._read_rest(owned, name, limit, size != no_size)
                    if left_out(got, without):
                        continue
            except OSError as e:
                owned, fd = fd, -1
                got = self._read_failed(owned, name, limit, e)
                if left_out(got, without):
                    continue
            finally:
                if fd >= 0:
                    sys_close(fd)
            yield name, got

    def _read_rest(self, fd: int, name: str, limit: int, sought: bool
                   ) -> bytes | IO[bytes] | FsError:
        """_read_open's answer for the entry `name` opened as `fd` (this call's), its
        error as a value."""
        try:
            return self._read_open(fd, self._base + name, limit, sought)
        except OSError as e:
            return FsError(self._base + name, reason(e))
        except FsError as e:
            return e

    def _read_failed(self, fd: int, name: str, limit: int, e: OSError
                     ) -> bytes | IO[bytes] | FsError:
        """read_files' answer for the entry `name` when opening it (fd -1) or a positioned
        read of it (`fd`, this call's) failed with `e`: a symlink is opened through the
        filesystem's own resolution, what refuses a positioned read is read on
        read_small's steps, anything else is the error."""
        path = self._base + name
        if fd < 0:
            if e.errno != errno.ELOOP:
                return FsError(path, reason(e))
            try:
                return self.fs.open(path, "rb")
            except FsError as fe:
                return fe
        if e.errno in _NO_PREAD:  # (after a seek to the end, which moved the offset)
            return self._read_rest(fd, name, limit, True)
        os.close(fd)
        return FsError(path, reason(e))

    def _read_open(self, fd: int, path: str, limit: int, sought: bool) -> bytes | IO[bytes]:
        """read_small's steps for an entry opened as `fd`, which is this call's, from
        offset 0 (sought back to when `sought`: a seek to its end moved it): the whole
        content of a regular file of at most `limit` bytes, else a stream over `fd`.
        A failure is raised (the seek's OSError, read_whole's FsError)."""
        if sought:
            try:
                os.lseek(fd, 0, os.SEEK_SET)
            except BaseException:
                os.close(fd)
                raise
        return read_whole(fd, limit, path, self.fs.checkpoint)

    def close(self) -> None:
        if self.fd >= 0:
            fd, self.fd = self.fd, -1
            os.close(fd)


class LocalFileSystem(FileSystem):
    """The host's filesystem, unconfined (the sandboxed kind is ConfinedFileSystem)."""

    def open(self, path: str, mode: str = "rb") -> IO[bytes]:
        check_name(path)
        if "b" not in mode:
            mode += "b"
        flags = mode_flags(mode)
        try:
            fd = os.open(path, flags, 0o666)
        except (OSError, ValueError) as e:
            if isinstance(e, OSError) and e.errno == errno.ENXIO and self._is_fifo(path):
                fd = open_fifo_writer(lambda: os.open(path, flags, 0o666), path,
                                      self.checkpoint)
            else:
                fail(path, e)
        return wrap_fd(fd, mode, path, self.checkpoint)

    def read_small(self, path: str, limit: int) -> bytes | IO[bytes]:
        check_name(path)
        try:
            fd = os.open(path, _READ_PATH)
        except (OSError, ValueError):  # (open says why, or opens what it may)
            return self.open(path, "rb")
        return read_whole(fd, limit, path, self.checkpoint)

    def _is_fifo(self, path: str) -> bool:
        try:
            return stat_mod.S_ISFIFO(os.stat(path).st_mode)
        except (OSError, ValueError):
            return False

    def stat(self, path: str, follow: bool = True) -> FileStat:
        check_name(path)
        try:
            st = os.stat(path) if follow else os.lstat(path)
        except (OSError, ValueError) as e:
            fail(path, e)
        return to_stat(path, st)

    def exists(self, path: str) -> bool:
        return "\0" not in path and os.path.exists(path)

    def is_dir(self, path: str) -> bool:
        return "\0" not in path and os.path.isdir(path)

    def is_file(self, path: str) -> bool:
        return "\0" not in path and os.path.isfile(path)

    def listdir(self, path: str) -> list[str]:
        check_name(path)
        try:
            return os.listdir(path)
        except (OSError, ValueError) as e:
            fail(path, e)

    def mkdir(self, path: str, parents: bool = False, mode: int = 0o777) -> None:
        check_name(path)
        if parents:
            self.make_dirs(path, mode)
            return
        try:
            os.mkdir(path, mode)
        except (OSError, ValueError) as e:
            fail(path, e)

    def make_dirs(self, path: str, mode: int = 0o777) -> int:
        """Walks down from `/` holding a directory fd, so a path of any depth works (no
        `File name too long`) in time linear in its length, with a checkpoint a level."""
        check_name(path)
        parts = [p for p in path.split("/") if p and p != "."]
        fd = os.open("/", _DIR)
        made = 0
        cur = ""
        try:
            for i, name in enumerate(parts):
                self.checkpoint()
                cur += "/" + name
                last = i == len(parts) - 1
                try:
                    nfd = os.open(name, _DIR, dir_fd=fd)
                except (OSError, ValueError) as e:
                    if not isinstance(e, FileNotFoundError):
                        if isinstance(e, NotADirectoryError) and last:
                            raise FsError(cur, "File exists") from None
                        fail(cur, e)
                    try:
                        os.mkdir(name, mode, dir_fd=fd)
                        made += 1
                    except FileExistsError:
                        pass
                    except OSError as e2:
                        fail(cur, e2)
                    try:
                        nfd = os.open(name, _DIR, dir_fd=fd)
                    except OSError as e2:
                        fail(cur, e2)
                os.close(fd)
                fd = nfd
        finally:
            os.close(fd)
        return made

    def remove(self, path: str) -> None:
        check_name(path)
        try:
            os.unlink(path)
        except (OSError, ValueError) as e:
            fail(path, e)

    def rmdir(self, path: str) -> None:
        check_name(path)
        try:
            os.rmdir(path)
        except (OSError, ValueError) as e:
            fail(path, e)

    def rename(self, src: str, dst: str) -> None:
        check_name(src)
        check_name(dst)
        try:
            os.replace(src, dst)
        except (OSError, ValueError) as e:
            fail(src, e)

    def touch(self, path: str, mtime: float | None = None) -> None:
        check_name(path)
        times = None if mtime is None else (mtime, mtime)
        try:
            try:
                os.utime(path, times)
            except FileNotFoundError:
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | _CLOEXEC,
                                 0o666))
                os.utime(path, times)
        except (OSError, ValueError) as e:
            fail(path, e)

    def chmod(self, path: str, mode: int) -> None:
        check_name(path)
        try:
            os.chmod(path, mode)
        except (OSError, ValueError) as e:
            fail(path, e)

    def readlink(self, path: str) -> str:
        check_name(path)
        try:
            return os.readlink(path)
        except (OSError, ValueError) as e:
            fail(path, e)

    def symlink(self, target: str, path: str) -> None:
        check_name(path)
        check_name(target)
        try:
            os.symlink(target, path)
        except (OSError, ValueError) as e:
            fail(path, e)

    def realpath(self, path: str) -> str:
        check_name(path)
        return os.path.realpath(path)

    def link(self, src: str, dst: str) -> None:
        check_name(src)
        check_name(dst)
        try:
            os.link(src, dst)
        except (OSError, ValueError) as e:
            fail(dst, e)

    def list_entries(self, path: str) -> list[tuple[str, str]]:
        check_name(path)
        self.checkpoint()  # a walk over a big tree stops at the kernel's limits
        try:
            return scan_kinds(path)
        except (OSError, ValueError) as e:
            fail(path, e)

    def open_dir(self, path: str) -> DirHandle:
        check_name(path)
        self.checkpoint()
        try:
            return FdDir(self, path, os.open(path, _DIR))
        except (OSError, ValueError) as e:
            fail(path, e)

    def list_stats(self, path: str) -> list[tuple[str, FileStat]]:
        check_name(path)
        self.checkpoint()
        try:
            return scan_stats(path, path.rstrip("/") + "/")
        except (OSError, ValueError) as e:
            fail(path, e)

    def real_os_path(self, path: str) -> str | None:
        return path

    @contextmanager
    def replace(self, path: str) -> Iterator[IO[bytes]]:
        check_name(path)
        old_mode = replace_check(self, path)
        head, name = posixpath.split(posixpath.normpath(path))
        try:
            dirfd = os.open(head or ".", _DIR)
        except OSError as e:
            fail(path, e)
        try:
            with replace_in(dirfd, name, path, old_mode, self.checkpoint) as f:
                yield f
        finally:
            os.close(dirfd)


def replace_check(fs: FileSystem, path: str) -> int | None:
    """FileSystem.replace's checks on `path`: a directory (or a trailing `/`) is refused;
    returns the permissions the new file keeps (None when there is no file yet)."""
    try:
        st = fs.stat(path)
    except FsError:
        if names_dir(path):
            raise
        return None
    if st.kind == "directory":
        raise FsError(path, "Is a directory")
    if names_dir(path):
        raise FsError(path, ENOTDIR)
    return st.mode & 0o7777
