"""Redirections: build a command's fd table from its parent's and its redirect list.

Files are opened through the kernel's filesystem (the one door to files); the
devices `/dev/null`, `/dev/stdin`, `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` are
resolved without touching it, so they work in a sandbox too."""

from __future__ import annotations

import io

from tysh.kernel.base.errors import TyshError
from tysh.kernel.base.streams import NULL_IO, Fds
from tysh.kernel.fs.api import FsError
from tysh.kernel.syntax import ast

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import IO

    from tysh.kernel.run.interpreter import Interpreter

    FixedRedirects = Callable[[Fds], Fds | None]


class RedirectError(TyshError):
    """A redirection that cannot be made; the command does not run (status 1)."""


_NOFILE = 7  # RLIMIT_NOFILE (Linux)
_OUT_MODES = {">": "wb", ">|": "wb", ">>": "ab", "&>": "wb", "&>>": "ab"}


def _device(path: str, fds: Fds) -> IO[bytes] | None:
    if path == "/dev/null":
        return NULL_IO
    if path in ("/dev/stdin", "/dev/fd/0"):
        return fds.get(0)
    if path in ("/dev/stdout", "/dev/fd/1"):
        return fds.get(1)
    if path in ("/dev/stderr", "/dev/fd/2"):
        return fds.get(2)
    if path.startswith("/dev/fd/") and path[8:].isdigit():
        return fds.get(int(path[8:]))
    return None


def _open(interp: Interpreter, target: str, mode: str, fds: Fds, op: str) -> IO[bytes]:
    if not target:
        raise RedirectError("tysh: : No such file or directory")
    dev = _device(target, fds)
    if dev is not None:
        return dev
    if interp.procsubs and target.startswith("/dev/fd/"):
        for p in interp.procsubs:  # `< <(cmd)`: the pipe of a process substitution
            if p.name == target:
                return p.stream  # type: ignore[no-any-return]
    path = interp.abspath(target)
    if target.endswith("/") and path != "/":
        path += "/"  # `> file/` names a directory: the filesystem refuses a file there
    fs = interp.fs if interp.state.umask is None else interp.files()
    limits = interp.state.tables.rlimits
    if limits and 0 <= limits.get(_NOFILE, (-1, -1))[0] <= 3:
        # `ulimit -n 3`: no descriptor is left beyond stdin, stdout and stderr
        raise RedirectError(f"tysh: {target}: Too many open files")
    try:
        if op in (">", "&>") and "noclobber" in interp.state.options and fs.is_file(path):
            raise RedirectError(f"tysh: {target}: cannot overwrite existing file")
        if mode == "r+b" and not fs.exists(path):
            fs.write_bytes(path, b"")
        return fs.open(path, mode)
    except FsError as e:
        raise RedirectError(f"tysh: {target}: {e.reason}") from None


def apply_redirects(
    interp: Interpreter, redirects: tuple[ast.Redirect, ...], fds: Fds
) -> tuple[Fds, list[IO[bytes]]]:
    """The new fd table and the streams opened for it (the caller closes them).
    On error the already opened streams are closed and RedirectError is raised."""
    new = dict(fds)
    opened: list[IO[bytes]] = []
    try:
        for r in redirects:
            _apply_one(interp, r, new, opened)
    except BaseException:
        close_all(opened)
        raise
    return new, opened


# the first descriptor `{name}>file` allocates, as bash
FIRST_NAMED_FD = 10


def _named_fd(interp: Interpreter, r: ast.Redirect, new: Fds) -> ast.Redirect:
    """`{name}>file`: the same redirection on a free descriptor (>= 10) stored in
    `name`; `{name}>&-` closes the descriptor `name` holds."""
    from tysh.kernel.base.record import replace
    from tysh.kernel.base.values import to_text

    name = r.fd_var
    assert name is not None
    target = r.target
    closing = r.op in (">&", "<&") and isinstance(target, ast.Word) and \
        interp.expand_word_text(target) == "-"
    if closing:
        got = to_text(interp.state.get(name) or "")
        if not got.isdigit():
            raise RedirectError(f"tysh: {name}: ambiguous redirect")
        return replace(r, fd=int(got), fd_var=None)
    fd = FIRST_NAMED_FD
    while fd in new:
        fd += 1
    interp.state.set(name, str(fd))
    return replace(r, fd=fd, fd_var=None)


def _apply_one(interp: Interpreter, r: ast.Redirect, new: Fds, opened: list[IO[bytes]]) -> None:
    if r.fd_var is not None:
        r = _named_fd(interp, r, new)
    op = r.op
    target = r.target
    if op in ("<<", "<<-"):
        assert isinstance(target, ast.HereDoc)
        text = interp.expand_heredoc(target)
        new[0 if r.fd is None else r.fd] = io.BytesIO(text.encode("utf-8", "surrogateescape"))
        return
    assert isinstance(target, ast.Word)
    if op == "<<<":
        text = interp.expand_word_text(target)
        new[0 if r.fd is None else r.fd] = io.BytesIO(
            (text + "\n").encode("utf-8", "surrogateescape")
        )
        return
    word = interp.expand_word_text(target)
    if op in (">&", "<&"):
        fd = r.fd if r.fd is not None else (1 if op == ">&" else 0)
        if word == "-":
            new.pop(fd, None)
            return
        src = word[:-1] if word.endswith("-") and word[:-1].isdigit() else word
        if src.isdigit():
            s = new.get(int(src))
            if s is None:
                raise RedirectError(f"tysh: {src}: Bad file descriptor")
            new[fd] = s
            if src != word:  # N>&M- moves the fd
                new.pop(int(src), None)
            return
        if op == ">&" and r.fd is None:  # `>&file` is `&>file`
            f = _open(interp, word, "wb", new, ">")
            if _device(word, new) is None:
                opened.append(f)
            new[1] = f
            new[2] = f
            return
        raise RedirectError(f"tysh: {word}: ambiguous redirect")
    if op == "<":
        f = _open(interp, word, "rb", new, op)
        fd = 0 if r.fd is None else r.fd
    elif op == "<>":
        f = _open(interp, word, "r+b", new, op)
        fd = 0 if r.fd is None else r.fd
    else:
        mode = _OUT_MODES.get(op)
        if mode is None:
            raise RedirectError(f"tysh: unsupported redirection '{op}'")
        f = _open(interp, word, mode, new, op)
        fd = 1 if r.fd is None else r.fd
        if op in ("&>", "&>>"):
            new[2] = f
            fd = 1
    if _device(word, new) is None:
        opened.append(f)
    new[fd] = f


# the steps of a `fixed_redirects` table: /dev/null on a descriptor, a copy of one
# descriptor to another (kept, or moved: `N>&M-`), a descriptor closed
_NULL, _COPY, _MOVE, _CLOSE = range(4)
_NULL_OPS = {">": 1, ">|": 1, ">>": 1, "<": 0}


def fixed_redirects(redirects: tuple[ast.Redirect, ...]) -> FixedRedirects | None:
    """For redirections that expand nothing and open nothing — `>/dev/null`,
    `2>/dev/null`, `&>/dev/null`, `2>&1`, `>&2`, `3>&-` — a function giving the
    command's new descriptor table from its own, as `apply_redirects` makes it, or None
    from it when a descriptor it copies is not open (the general path reports that).
    None when any redirection needs the general path."""
    steps: list[tuple[int, int, int]] = []
    for r in redirects:
        target = r.target
        if r.fd_var is not None or type(target) is not ast.Word:
            return None
        word = target.literal_text()
        op = r.op
        if word is None:
            return None
        if op in (">&", "<&"):
            fd = r.fd if r.fd is not None else (1 if op == ">&" else 0)
            if word == "-":
                steps.append((_CLOSE, fd, 0))
            elif word.isdigit() and word.isascii():
                steps.append((_COPY, fd, int(word)))
            elif word[:-1].isdigit() and word[:-1].isascii() and word[-1] == "-":
                steps.append((_MOVE, fd, int(word[:-1])))
            elif word == "/dev/null" and op == ">&" and r.fd is None:  # `>&file` is `&>file`
                steps += ((_NULL, 2, 0), (_NULL, 1, 0))
            else:
                return None
        elif word != "/dev/null":
            return None
        elif op in ("&>", "&>>"):
            steps += ((_NULL, 2, 0), (_NULL, 1, 0))
        else:
            default = _NULL_OPS.get(op)
            if default is None:
                return None
            steps.append((_NULL, default if r.fd is None else r.fd, 0))
    table = tuple(steps)

    def apply(fds: Fds) -> Fds | None:
        new = dict(fds)
        for kind, fd, src in table:
            if kind == _NULL:
                new[fd] = NULL_IO
            elif kind == _CLOSE:
                new.pop(fd, None)
            else:
                s = new.get(src)
                if s is None:
                    return None
                new[fd] = s
                if kind == _MOVE:
                    new.pop(src, None)
        return new

    return apply


def close_all(streams: list[IO[bytes]], report: Callable[[str], None] | None = None) -> bool:
    """Close a command's redirected files; a close that fails to store the data (a full
    in-memory filesystem) is reported and makes the command fail: returns True then."""
    failed = False
    for s in streams:
        try:
            s.close()
        except TyshError as e:
            failed = True
            if report is not None and not getattr(getattr(s, "raw", s), "tysh_failed", False):
                report(e.message if e.message.startswith("tysh:") else "tysh: " + e.message)
        except (OSError, ValueError):
            pass
    return failed
