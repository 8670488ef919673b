"""File names in messages as GNU's quotef shows them (tail -f, readlink): bare when plain,
quoted as fileinfo.q quotes them otherwise."""

from __future__ import annotations

from tysh.builtins._common.fileinfo import q
from tysh.kernel.base.lazyre import LazyRegex

_PLAIN_NAME = LazyRegex(r"[\w./@%+=:,^-]+")


def quotef(name: str) -> str:
    """A name as GNU's quotef shows it: bare unless it needs shell quoting."""
    return name if _PLAIN_NAME.fullmatch(name) else q(name)
