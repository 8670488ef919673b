"""Process substitution: `<(cmd)` and `>(cmd)` expand to a name such as `/dev/fd/63`.

The body runs on a fork of the session in a thread, joined to the command by an OS pipe:
for `<(…)` it writes the pipe and the command reads the name; for `>(…)` the command
writes the name and the body reads. The name is the real descriptor's number, so an
external program (given that descriptor) opens it as bash's would; builtins open it
through the session: the command runs with a filesystem that answers for these names
and hands everything else to the session's own (sandboxed) filesystem. The pipe ends
are closed when the command that used them is done."""

from __future__ import annotations

import io
import os
import stat
import threading

from tysh.kernel.base.hints import cast
from tysh.kernel.base.record import mutable
from tysh.kernel.base.streams import NULL_IO, Fds, close_quietly
from tysh.kernel.base.threads import start_deep
from tysh.kernel.fs.api import FileStat, FileSystem, FsError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

if TYPE_CHECKING:
    from tysh.kernel.run.interpreter import Interpreter
    from tysh.kernel.syntax import ast


@mutable
class ProcSub:
    """One substitution: its name, the command's end of the pipe, the body's thread."""

    name: str
    stream: IO[bytes]
    fd: int
    reads: bool  # `<(…)`: the command reads the name
    thread: threading.Thread


def start(interp: Interpreter, node: ast.ProcSub) -> str:
    """Start the body and return the name the command sees."""
    r, w = os.pipe()
    reads = node.direction == "<"
    ours, theirs = (r, w) if reads else (w, r)
    sub = interp.fork()
    parent = interp.cur_fds
    body_end = os.fdopen(theirs, "wb" if reads else "rb")
    if reads:
        fds: Fds = {0: NULL_IO, 1: cast("IO[bytes]", body_end), 2: parent.get(2) or NULL_IO}
    else:
        fds = {0: cast("IO[bytes]", body_end), 1: parent.get(1) or NULL_IO,
               2: parent.get(2) or NULL_IO}

    def run() -> None:
        try:
            sub.run_script(node.body, fds)
        except BaseException:  # noqa: BLE001 — a body's end (exit, broken pipe) is its own
            pass
        finally:
            sub.close_exec_files()
            close_quietly(cast("IO[bytes]", body_end))

    t = threading.Thread(target=run, daemon=True, name="tysh-procsub")
    stream = os.fdopen(ours, "rb" if reads else "wb")
    entry = ProcSub(f"/dev/fd/{ours}", cast("IO[bytes]", stream), ours, reads, t)
    interp.procsubs.append(entry)
    start_deep(t)
    return entry.name


def finish(interp: Interpreter, mark: int) -> None:
    """The command is done: close its ends of the pipes made since `mark`; wait for the
    `>(…)` bodies (they end at the end of their input), not for `<(…)` ones (closing
    the pipe ends a writer nobody reads)."""
    done = interp.procsubs[mark:]
    del interp.procsubs[mark:]
    for p in done:
        close_quietly(p.stream)
    for p in done:
        if not p.reads:
            p.thread.join()


def table(interp: Interpreter, fds: Fds | None = None) -> dict[str, IO[bytes]]:
    """`/dev/fd/N` names a builtin may open: the open substitutions, and the command's
    own descriptors above 2 (`8<<EOF`, `exec 3<f`), each lent, not handed over."""
    names: dict[str, IO[bytes]] = {}
    if fds is not None:
        for fd, stream in fds.items():
            if fd > 2 and stream is not None:
                names[f"/dev/fd/{fd}"] = cast("IO[bytes]", Lent(stream))
    for p in interp.procsubs:
        names[p.name] = p.stream
    return names


class Lent:
    """A descriptor's stream opened by name: reads and writes go to it, closing it
    leaves it open for the shell that owns it."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    def __iter__(self) -> Any:
        return iter(self._stream)

    def __enter__(self) -> Lent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        try:
            self._stream.flush()
        except (OSError, ValueError):
            pass

    def opened(self, mode: str) -> IO[bytes]:
        """What opening the name gives: a regular file read from its start again (as
        Linux reopens `/dev/fd/N`), in the direction the descriptor already allows;
        anything else (a pipe, a here-document) is the stream itself, lent."""
        if "r" in mode and "+" not in mode and not self._stream.writable():
            try:
                n = self._stream.fileno()
                if stat.S_ISREG(os.fstat(n).st_mode):
                    return open(  # noqa: SIM115 — the caller closes it
                        os.open(f"/proc/self/fd/{n}", os.O_RDONLY | os.O_CLOEXEC), "rb")
            except (AttributeError, OSError, ValueError):
                pass
        return cast("IO[bytes]", self)

    @property
    def closed(self) -> bool:
        return False


def pass_fds(interp: Interpreter) -> tuple[int, ...]:
    """The descriptors an external program inherits so it can open the names."""
    return tuple(p.fd for p in interp.procsubs)


class ProcSubFS:
    """The session's filesystem, plus the names of the open substitutions (pipes)."""

    def __init__(self, base: FileSystem, names: dict[str, IO[bytes]]) -> None:
        self._base = base
        self._names = names

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)

    def open(self, path: str, mode: str = "rb") -> IO[bytes]:
        s = self._names.get(path)
        if s is None:
            return self._base.open(path, mode)
        if s.closed:
            # a command that read the substitution closed its end (`cat <(…) /dev/fd/63`
            # names it twice): as the shell's own descriptor would, it reads as ended
            if "r" not in mode:
                raise FsError(path, "Bad file descriptor")
            return io.BytesIO()
        if ("r" in mode) != s.readable():
            raise FsError(path, "Permission denied")
        return s.opened(mode) if isinstance(s, Lent) else s

    def read_bytes(self, path: str) -> bytes:
        s = self._names.get(path)
        return self._base.read_bytes(path) if s is None else s.read()

    def read_small(self, path: str, limit: int) -> bytes | IO[bytes]:
        if path in self._names:  # a pipe: read as it comes, as `open` gives it
            return self.open(path, "rb")
        return self._base.read_small(path, limit)

    def stat(self, path: str, follow: bool = True) -> FileStat:
        if path in self._names:
            return FileStat(path, "other", 0, 0o10600, 0.0, False)
        return self._base.stat(path, follow)

    def exists(self, path: str) -> bool:
        return path in self._names or self._base.exists(path)

    def is_file(self, path: str) -> bool:
        return path not in self._names and self._base.is_file(path)

    def is_dir(self, path: str) -> bool:
        return path not in self._names and self._base.is_dir(path)


def session_fs(interp: Interpreter, fds: Fds | None = None) -> FileSystem:
    """The filesystem a command sees while substitutions or descriptors above 2 are
    open."""
    return cast(FileSystem, ProcSubFS(interp.files(), table(interp, fds)))
