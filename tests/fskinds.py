"""Each filesystem kind made over a fresh root, for tests that pin one rule on all."""

from __future__ import annotations

from pathlib import Path

from tysh.kernel.fs.api import FileSystem
from tysh.kernel.fs.confined import ConfinedFileSystem
from tysh.kernel.fs.local import LocalFileSystem
from tysh.kernel.fs.memory import MemoryFileSystem
from tysh.kernel.fs.overlay import OverlayFileSystem

KINDS = ["local", "confined", "memory", "overlay"]


def make(kind: str, tmp: Path) -> tuple[FileSystem, str]:
    root = tmp / "root"
    root.mkdir()
    if kind == "local":
        return LocalFileSystem(), str(root)
    if kind == "confined":
        return ConfinedFileSystem(str(root)), str(root)
    if kind == "memory":
        fs = MemoryFileSystem()
        fs.mkdir(str(root), parents=True)
        return fs, str(root)
    return OverlayFileSystem(ConfinedFileSystem(str(root))), str(root)
