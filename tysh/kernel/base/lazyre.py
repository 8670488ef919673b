"""Regular expressions compiled on first use, without importing `re` at start-up.

Every module-level `re.compile` is paid by every process start, used or not (`echo hi`
would compile printf's number parsers and the lexer's `${…}` and `$'…'` scanners). A
`LazyRegex` compiles when first asked for a method and then stores the compiled pattern's
bound methods on itself, so later calls cost an ordinary attribute lookup.

Importing `re` itself (with the `enum` and `functools` it loads) is a sixth of a
`tysh -c 'echo hi'`. So the program `re` compiles a pattern into is kept in the per-user
cache (see cache.py), and a later process builds the pattern object from it with `_sre`,
the C engine `re` wraps, without loading `re`. An entry is written only when the pattern
it builds compares equal to `re.compile`'s (a pattern's equality covers its flags, source
and program), and the file is named for the interpreter's bytecode and the engine's
version, so another Python never reads it. Without a cache, or for a pattern not in it,
`re` compiles as usual."""

from __future__ import annotations

import _sre  # type: ignore[import-not-found,unused-ignore]
import os
import sys

from tysh.kernel.base.cache import cache_dir, read_cached, write_atomic
from tysh.kernel.base.lazymod import load

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Iterator
    from typing import Any

# The flags tysh's patterns use, as `re` numbers them (a test holds them equal), so a
# module can name them without importing `re`.
IGNORECASE = 2
MULTILINE = 8
DOTALL = 16
VERBOSE = 64
ASCII = 256

_METHODS = ("match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer",
            "pattern", "flags", "groups", "groupindex")

# at most this many programs are kept; a file that grows past it starts again
_MOST = 2000

# (pattern, flags) → the rest of `_sre.compile`'s arguments; None until first read
_programs: dict[tuple[Any, int], tuple[Any, ...]] | None = None


def _cache_path() -> str | None:
    d = cache_dir()
    if d is None:
        return None
    return os.path.join(
        d, f"regex-{sys.implementation.cache_tag}-{_sre.MAGIC}-{_sre.CODESIZE}.marshal")


def _read_programs() -> dict[tuple[Any, int], tuple[Any, ...]]:
    import marshal

    path = _cache_path()
    raw = None if path is None else read_cached(path)
    if raw is not None:
        try:
            data = marshal.loads(raw)
            if type(data) is dict:
                return data
        except (EOFError, ValueError, TypeError):
            pass
    return {}


def _program(pattern: Any, flags: int) -> tuple[Any, ...] | None:
    """`_sre.compile`'s arguments after the pattern, built as `re` builds them; None
    where this Python's `re` is not laid out as expected."""
    try:
        from re import _compiler, _parser  # type: ignore[attr-defined,unused-ignore]

        p = _parser.parse(pattern, flags)
        code = [int(c) for c in _compiler._code(p, flags)]  # (some are int subclasses)
        state = p.state
        groupindex = dict(state.groupdict)
        indexgroup: list[str | None] = [None] * state.groups
        for name, i in groupindex.items():
            indexgroup[i] = name
        return (flags | state.flags, code, state.groups - 1, groupindex, tuple(indexgroup))
    except Exception:  # noqa: BLE001 - an unknown `re` layout only forgoes the cache
        return None


def compile_pattern(pattern: str | bytes, flags: int = 0) -> re.Pattern[Any]:
    """re.compile(pattern, flags), from the cached program when there is one."""
    global _programs
    if _programs is None:
        _programs = _read_programs()
    key = (pattern, flags)
    args = _programs.get(key)
    if args is not None:
        try:
            rx: re.Pattern[Any] = _sre.compile(pattern, *args)
            return rx
        except Exception:  # noqa: BLE001 - a damaged entry: compile it again below
            pass
    rx = load("re").compile(pattern, flags)  # (re, loaded as other lazy modules are)
    args = _program(pattern, flags)
    if args is not None and _sre.compile(pattern, *args) == rx:
        path = _cache_path()
        if path is not None:
            import marshal

            programs = _read_programs()
            if len(programs) >= _MOST:
                programs = {}
            programs[key] = args
            _programs = programs
            try:
                data = marshal.dumps(programs)
            except ValueError:  # (a program of a shape marshal cannot hold)
                return rx
            write_atomic(path, data)
    return rx


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
        rx = compile_pattern(*self._source)
        for name in _METHODS:
            setattr(self, name, getattr(rx, name))
        return rx

    def __getattr__(self, name: str) -> Any:
        # Only reached for names not yet stored: the first use of the pattern.
        if name not in _METHODS:
            raise AttributeError(name)
        return getattr(self.compiled(), name)
