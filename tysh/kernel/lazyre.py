"""Regular expressions compiled on first use.

Every module-level `re.compile` is paid by every process start, used or not (`echo hi`
would compile printf's number parsers). A `LazyRegex` compiles when first asked for a
method and then stores the compiled pattern's bound methods on itself, so later calls cost
an ordinary attribute lookup."""

from __future__ import annotations

import re
from typing import Any


class LazyRegex:
    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._source = (pattern, flags)

    def compiled(self) -> re.Pattern[str]:
        rx = re.compile(*self._source)
        for name in ("match", "fullmatch", "search", "sub", "subn", "split", "findall",
                     "finditer", "pattern", "flags", "groups", "groupindex"):
            setattr(self, name, getattr(rx, name))
        return rx

    def __getattr__(self, name: str) -> Any:
        # Only reached for names not yet stored: the first use of the pattern.
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.compiled(), name)
