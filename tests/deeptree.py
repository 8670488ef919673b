"""Removing a directory tree of any depth: shutil.rmtree recurses a Python frame a
level and fails past about a thousand (tests that make `mkdir -p` trees 100,000 deep
clean up with this)."""

from __future__ import annotations

import contextlib
import itertools
import os


def remove_tree(top: str) -> None:
    """Remove `top` and everything below it, lifting each subdirectory's entries into
    `top` (renames within one filesystem) until none is left: linear in the entries,
    whatever the depth."""
    if not os.path.lexists(top):
        return
    if os.path.islink(top) or not os.path.isdir(top):
        os.unlink(top)
        return
    fresh = itertools.count()
    while True:
        subdirs = []
        with os.scandir(top) as it:
            for e in it:
                if e.is_dir(follow_symlinks=False):
                    subdirs.append(e.name)
                else:
                    os.unlink(os.path.join(top, e.name))
        if not subdirs:
            break
        for name in subdirs:
            sub = os.path.join(top, name)
            with os.scandir(sub) as it:
                children = [e.name for e in it]
            for child in children:
                os.rename(os.path.join(sub, child), os.path.join(top, f".lift{next(fresh)}"))
            with contextlib.suppress(OSError):
                os.rmdir(sub)
    os.rmdir(top)
