"""The per-user cache directory: code generated at start-up (the syntax tree's fast
constructors, the tools' fast binders) is compiled once and kept here between processes.
Losing it, or having none, only makes the next start slower. Nothing is ever cached in the
temp directory or the working directory, where a script's globs would see it."""

from __future__ import annotations

import marshal  # (built into the interpreter: no import cost)
import os
import stat
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any


def cache_dir() -> str | None:
    """`$TYSH_CACHE_DIR`, else `tysh` in `$XDG_CACHE_HOME` (an absolute path), else
    `~/.cache/tysh`; created on first use, mode 0700, but only in a cache directory that
    exists already: a home that is a sandbox's or a test's working directory never gets
    a `.cache` of tysh's making. None when there is none, or when the directory is not
    this user's alone (its files are code this process runs)."""
    env = os.environ
    override = env.get("TYSH_CACHE_DIR")
    if override:
        path = override
    else:
        base = env.get("XDG_CACHE_HOME", "")
        if not os.path.isabs(base):
            home = env.get("HOME", "")
            if not os.path.isabs(home):
                return None
            base = os.path.join(home, ".cache")
        if not os.path.isdir(base):
            return None
        path = os.path.join(base, "tysh")
    try:
        os.makedirs(path, 0o700, exist_ok=True)
        st = os.lstat(path)
    except (OSError, ValueError):
        return None
    # a symbolic link, another user's directory or one others can write: not trusted
    if not stat.S_ISDIR(st.st_mode) or st.st_mode & 0o022 or (
            hasattr(os, "getuid") and st.st_uid != os.getuid()):
        return None
    return path


def compile_cached(src: str, filename: str) -> Any:
    """compile(src, filename), kept here between processes, so code generated at start-up
    (the parser's node constructors, the tools' fast binders) is compiled once per
    machine rather than once per start (a process's first compile() costs milliseconds),
    and so are the programs tools generate from a script (sed's, awk's). One entry per
    filename and source; it holds its source and is used only for exactly that source and
    this interpreter's bytecode. Past _MOST_CODE entries, the oldest written go."""
    d = cache_dir()
    slug = "".join(c if c.isalnum() else "-" for c in filename).strip("-")
    # the source's checksum in the name: two versions of tysh (or a tool's two shapes)
    # sharing the directory keep an entry each instead of replacing each other's
    path = None if d is None else os.path.join(
        d, f"code-{slug}-{checksum(src):08x}-{sys.implementation.cache_tag}.marshal")
    data = None if path is None else read_cached(path)
    if data is not None:
        try:
            cached = marshal.loads(data)
            if type(cached) is tuple and len(cached) == 2 and cached[0] == src:
                return cached[1]
        except (EOFError, ValueError, TypeError):
            pass
    code = compile(src, filename, "exec")
    if path is not None and d is not None:
        write_atomic(path, marshal.dumps((src, code)))
        _trim(d)
    return code


_MOST_CODE = 1024


def _trim(d: str) -> None:
    """Keep at most _MOST_CODE compiled entries: past it, the oldest written go, down to
    three quarters of it (each is compiled again when next asked for)."""
    try:
        with os.scandir(d) as it:
            entries = [e for e in it if e.name.startswith("code-")]
        if len(entries) <= _MOST_CODE:
            return
        aged = sorted((e.stat().st_mtime, e.path) for e in entries)
        for _mtime, path in aged[:len(aged) - _MOST_CODE * 3 // 4]:
            os.unlink(path)
    except OSError:
        pass  # (another process trimmed it meanwhile, or it cannot be written: speed only)


# the largest prime below 2**30: one digit of CPython's integers, which it divides by
# in a single pass
_PRIME = 1073741789


def checksum(text: str) -> int:
    """A 30-bit checksum of the text that is the same in every process: the text's
    UTF-8 bytes read as one number, modulo a prime. It names cache entries, which
    hold their source and are used only for exactly that source, so a collision costs
    one compile. (zlib's crc32 would load libz, 5M instructions, into every start
    that binds a tool.)"""
    return int.from_bytes(text.encode("utf-8", "surrogatepass"), "little") % _PRIME


def read_cached(path: str) -> bytes | None:
    """A cache file's bytes; None when there is none, or it cannot be read, or it is no
    regular file (opened without blocking: a FIFO in its place must not hold a start)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    f = None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        f = open(fd, "rb")  # noqa: SIM115  (it owns fd from here: closed below)
        return f.read()
    except OSError:
        return None
    finally:
        if f is not None:
            f.close()
        else:
            os.close(fd)


def write_atomic(path: str, data: bytes) -> None:
    """Replace the file at once, so a concurrent start reads the old entry or the new one,
    never half of one; a cache that cannot be written is only slower."""
    write_atomic_parts(path, (data,))


def write_atomic_parts(path: str, parts: Iterable[bytes]) -> None:
    """`write_atomic` of the parts one after another, none held longer than its write
    (an OSError raised while they are made abandons the file)."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as f:
            for part in parts:
                f.write(part)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
