"""The per-user cache directory: data that costs every start to rebuild (the parser's LALR
tables, the compiled node constructors) is kept here between processes. Losing it only
makes the next start slower."""

from __future__ import annotations

import os
import sys
from typing import Any


def cache_dir() -> str | None:
    """A directory only this user can write, for the parser's tables and compiled constructors: `$TYSH_CACHE_DIR`, else
    `tysh-UID` in the temp directory (where Lark keeps its own cache; never under the
    user's home, which a sandboxed session may be listing). None when there is none.

    `tempfile.gettempdir()` is not used: importing tempfile costs a cold start more than
    the cache saves on small scripts."""
    override = os.environ.get("TYSH_CACHE_DIR")
    if override:
        return override
    uid = os.getuid() if hasattr(os, "getuid") else 0
    for var in ("TMPDIR", "TEMP", "TMP"):
        base = os.environ.get(var)
        if base and os.path.isdir(base):
            break
    else:
        base = next((d for d in ("/tmp", "/var/tmp", "/usr/tmp") if os.path.isdir(d)), None)
        if base is None:
            return None
    path = os.path.join(base, f"tysh-{uid}")
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        st = os.lstat(path)
    except OSError:
        return None
    # someone else's directory, or one others can write: do not trust what is in it
    if not os.path.isdir(path) or os.path.islink(path) or (
            hasattr(os, "getuid") and st.st_uid != uid) or st.st_mode & 0o022:
        return None
    return path


def compile_cached(src: str, filename: str) -> Any:
    """compile(src, filename), kept here between processes, so code generated at start-up
    (the parser's node constructors, the tools' fast binders) is compiled once per
    machine rather than once per start. One entry per filename; it holds its source and
    is used only for exactly that source and this interpreter's bytecode."""
    import marshal

    d = cache_dir()
    slug = "".join(c if c.isalnum() else "-" for c in filename).strip("-")
    path = None if d is None else os.path.join(
        d, f"code-{slug}-{sys.implementation.cache_tag}.marshal")
    if path is not None:
        try:
            with open(path, "rb") as f:
                cached = marshal.loads(f.read())
            if type(cached) is tuple and len(cached) == 2 and cached[0] == src:
                return cached[1]
        except (OSError, EOFError, ValueError, TypeError):
            pass
    code = compile(src, filename, "exec")
    if path is not None:
        write_atomic(path, marshal.dumps((src, code)))
    return code


def write_atomic(path: str, data: bytes) -> None:
    """Replace the file at once, so a concurrent start reads the old entry or the new one,
    never half of one; a cache that cannot be written is only slower."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
