"""The file family: ls find glob mkdir rm rmdir cp mv touch stat basename dirname realpath
ln chmod. Each lives in a files_* module; this one gathers them for the builtin table."""

from __future__ import annotations

from tysh.builtins.files_chmod import chmod
from tysh.builtins.files_find import find
from tysh.builtins.files_glob import glob
from tysh.builtins.files_info import basename, dirname, realpath, stat
from tysh.builtins.files_ls import ls
from tysh.builtins.files_ops import cp, ln, mkdir, mv, rm, rmdir, touch
from tysh.kernel.tooldef import Tool

TOOLS: list[Tool] = [
    ls, find, glob, mkdir, rm, rmdir, cp, mv, touch, stat, basename, dirname, realpath,
    ln, chmod,
]
