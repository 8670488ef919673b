"""The shell's paths: absolute, `/`-separated text, resolved against the session's cwd.

`..` is taken on the text (the logical path, as `cd` and bash's `$PWD` see it), never
by asking the filesystem, so the same path means the same file in every tool."""

from __future__ import annotations

import posixpath


def join(directory: str, name: str) -> str:
    """`directory/name` with exactly one slash between them (`name` is relative)."""
    return directory.rstrip("/") + "/" + name


def abspath(path: str, cwd: str) -> str:
    """An absolute, normalised path for `path`, relative to `cwd` unless it starts with
    `/`; a leading `//` becomes one slash."""
    if not path.startswith("/"):
        path = join(cwd, path)
    out = posixpath.normpath(path)
    return "/" + out.lstrip("/") if out.startswith("//") else out
