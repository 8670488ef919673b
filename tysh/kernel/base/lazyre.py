"""Regular expressions compiled on first use.

Every module-level `re.compile` is paid by every process start, used or not (`echo hi`
would compile printf's number parsers and the lexer's `${…}` and `$'…'` scanners). A
`LazyRegex` compiles when first asked for a method and then stores the compiled pattern's
bound methods on itself, so later calls cost an ordinary attribute lookup."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_METHODS = ("match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer",
            "pattern", "flags", "groups", "groupindex")


class LazyRegex:
    # Declared for type checkers; present on the instance once the pattern is compiled.
    match: Callable[..., re.Match[str] | None]
    fullmatch: Callable[..., re.Match[str] | None]
    search: Callable[..., re.Match[str] | None]
    sub: Callable[..., str]
    subn: Callable[..., tuple[str, int]]
    split: Callable[..., list[Any]]
    findall: Callable[..., list[Any]]
    finditer: Callable[..., Iterator[re.Match[str]]]
    pattern: str

    def __init__(self, pattern: str | bytes, flags: int = 0) -> None:
        # a bytes pattern works the same; its methods then take and give bytes
        self._source: tuple[Any, int] = (pattern, flags)

    def compiled(self) -> re.Pattern[Any]:
        rx = re.compile(*self._source)
        for name in _METHODS:
            setattr(self, name, getattr(rx, name))
        return rx

    def __getattr__(self, name: str) -> Any:
        # Only reached for names not yet stored: the first use of the pattern.
        if name not in _METHODS:
            raise AttributeError(name)
        return getattr(self.compiled(), name)
