"""Patterns that are plain ASCII strings, searched with `bytes.find` instead of a regex.

Most patterns typed at grep name a string: `grep -r needle .`, `grep -n TODO f`. Turning
one into a regex would load `re`, the engine chooser and the POSIX translator (with
`enum`, `functools`, `warnings`, `array` and `math`), near a quarter of a short
`tysh -c 'grep needle file'`, to end with a pattern `re` runs as a string search anyway.
`compile_literal` recognises such a pattern and returns the `Compiled` grep would get from
kernel.text.regex, with a `LiteralPattern` in place of the compiled regex: the part of
`re.Pattern`'s interface grep uses (`search`, `finditer`, `pattern`, `flags`,
`groupindex`), meaning exactly what `re` means by the escaped string on bytes.

The scope is what keeps the meaning identical: one non-empty ASCII pattern with no
character its dialect treats specially (no `\\`, `[`, `.`, `*`, `^`, `$`, and for ERE
none of `+?{}()|` either; any ASCII string under -F), and neither -w nor -x nor -P. An
ASCII pattern runs on raw bytes in kernel.text.regex too, where `re.IGNORECASE` folds
ASCII letters only, as `bytes.lower` does, so -i is within scope (`FoldedPattern`).
Anything else gives None: the caller compiles the pattern as a regex.
"""

from __future__ import annotations

from itertools import repeat
from operator import not_

from tysh.kernel.base.hints import cast
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import Record, frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Iterator
    from typing import Any, Literal

    Kind = Literal["bre", "ere", "fixed", "perl"]

# characters that make a pattern of each dialect more than a string ("perl" is never one)
_SPECIAL: dict[str, str] = {"fixed": "", "bre": "\\[.*^$", "ere": "\\[.*^$+?{}()|"}

_ALL_BYTES = bytes(range(256))
# the bytes count_lines may mark matches with: one that a text lacks (NUL, mostly)
_MARKS = (b"\0", b"\1", b"\2", b"\3")

# `re.escape`'s table: the characters it puts a backslash before
_ESCAPED = {c: "\\" + chr(c) for c in b"()[]{}?*+-|^$\\.&~# \t\n\r\v\f"}


def escape(text: bytes) -> bytes:
    """`re.escape(text)` for bytes, without loading `re`: tools that build a pattern from
    a user's separator (sort -t, tr -s) compile it through the regex cache."""
    return text.decode("latin-1").translate(_ESCAPED).encode("latin-1")


def lazy_bytes(pattern: bytes, flags: int = 0) -> re.Pattern[bytes]:
    """A bytes pattern compiled on first use (a LazyRegex). LazyRegex declares its
    methods for str patterns; built from bytes it takes and gives bytes, as a
    re.Pattern[bytes] does, which is the type given here."""
    return cast("re.Pattern[bytes]", LazyRegex(pattern, flags))


IGNORECASE = 2  # re.IGNORECASE's value, for a FoldedPattern's `flags`
MULTILINE = 8  # re.MULTILINE's value: grep compiles its patterns with it


@frozen
class Compiled(Record):
    regex: Any  # re.Pattern's interface: on the engine kernel.text.engine chose, or plain
    text: bool  # True: match decoded text (str); False: raw bytes
    min_width: int  # shortest possible match (0 when it may match the empty string)
    # a cheaper regex finding candidate lines: the unwrapped pattern for -w/-x (whose
    # lookarounds defeat the engine's literal scan), or, when `lower`, the lower-cased
    # pattern to run case-sensitively on a lower-cased block (faster than IGNORECASE)
    prefilter: Any = None
    lower: bool = False
    wrapped: bool = False  # -w/-x: a prefilter hit must be confirmed with `regex`
    warnings: tuple[str, ...] = ()  # GNU's pattern warnings, for grep to print


class Found:
    """A match of a plain pattern: `re.Match`'s start, end, span and group (group 0, the
    only one a plain pattern has)."""

    __slots__ = ("string", "_start", "_end")

    def __init__(self, string: bytes, start: int, end: int) -> None:
        self.string = string
        self._start = start
        self._end = end

    def start(self, group: int = 0) -> int:
        return self._start

    def end(self, group: int = 0) -> int:
        return self._end

    def span(self, group: int = 0) -> tuple[int, int]:
        return self._start, self._end

    def group(self, group: int = 0) -> bytes:
        return self.string[self._start : self._end]


class LiteralPattern:
    """A non-empty byte string, with the search methods of the `re.Pattern` that is its
    escaped form compiled on bytes."""

    __slots__ = ("needle", "pattern", "flags", "groupindex", "groups")

    def __init__(self, needle: bytes) -> None:
        self.needle = needle
        self.pattern = needle
        self.flags = MULTILINE
        self.groupindex: dict[str, int] = {}
        self.groups = 0

    def search(self, string: bytes, pos: int = 0, endpos: int | None = None) -> Found | None:
        i = string.find(self.needle, pos, len(string) if endpos is None else endpos)
        return None if i < 0 else Found(string, i, i + len(self.needle))

    def finditer(self, string: bytes, pos: int = 0,
                 endpos: int | None = None) -> Iterator[Found]:
        end = len(string) if endpos is None else endpos
        needle, n = self.needle, len(self.needle)
        i = string.find(needle, pos, end)
        while i >= 0:
            yield Found(string, i, i + n)
            i = string.find(needle, i + n, end)

    def holds(self, lines: list[bytes], piece: bytes, invert: bool = False) -> Iterator[Any]:
        """For each of `lines` (the lines of `piece`), a value true when it holds a match
        (lacks one, under `invert`), as `search(line) is not None` is; made in C, a
        count of the needle per line (`in` on bytes first tries the needle as an int,
        at the cost of an exception a line)."""
        counts = map(bytes.count, lines, repeat(self.needle))
        return map(not_, counts) if invert else counts

    def count_lines(self, string: bytes) -> int:
        """How many lines of `string` hold the needle: what counting the matches of
        needle + `[^\\n]*` gives (each takes the rest of its line). Few matches are
        found one by one. Many are each replaced by a byte the string lacks, all else
        but newlines is deleted, and the lines that hold one are the marks at the start
        of the string or after a newline: a few passes in C, none per line."""
        needle = self.needle
        if string.count(needle) * 128 >= len(string):
            for mark in _MARKS:
                if string.find(mark) < 0:
                    kept = string.replace(needle, mark).translate(
                        None, _ALL_BYTES.replace(b"\n", b"").replace(mark, b""))
                    return kept.count(b"\n" + mark) + kept.startswith(mark)
        find = string.find
        count = 0
        i = find(needle)
        while i >= 0:
            count += 1
            eol = find(b"\n", i + len(needle))
            if eol < 0:
                break
            i = find(needle, eol)
        return count


class FoldedPattern:
    """A LiteralPattern with ASCII case folded, as `re.IGNORECASE` folds on bytes: the
    needle is lower case, and the range of the subject searched is lowered first."""

    __slots__ = ("plain", "pattern", "flags", "groupindex", "groups")

    def __init__(self, needle: bytes) -> None:
        self.plain = LiteralPattern(needle.lower())
        self.pattern = needle
        self.flags = MULTILINE | IGNORECASE
        self.groupindex: dict[str, int] = {}
        self.groups = 0

    def search(self, string: bytes, pos: int = 0, endpos: int | None = None) -> Found | None:
        start = max(pos, 0)
        i = string[start:endpos].lower().find(self.plain.needle)
        return None if i < 0 else Found(string, start + i, start + i + len(self.plain.needle))

    def finditer(self, string: bytes, pos: int = 0,
                 endpos: int | None = None) -> Iterator[Found]:
        start = max(pos, 0)
        for m in self.plain.finditer(string[start:endpos].lower()):
            yield Found(string, start + m.start(), start + m.end())

    def holds(self, lines: list[bytes], piece: bytes, invert: bool = False) -> Iterator[Any]:
        """LiteralPattern.holds with case folded: the lines of the lowered piece are
        tested."""
        return self.plain.holds(piece.lower().split(b"\n")[: len(lines)], piece, invert)


PLAIN = (LiteralPattern, FoldedPattern)  # the pattern classes that need no regex engine


def literal_of(patterns: tuple[str, ...], kind: Kind, word: bool = False,
               line: bool = False) -> str | None:
    """The one pattern of `patterns` when grep may search for it as a plain string (see
    the module doc), else None."""
    if len(patterns) != 1 or word or line:
        return None
    special = _SPECIAL.get(kind)
    pat = patterns[0]
    if special is None or not pat or not pat.isascii():
        return None
    for c in special:
        if c in pat:
            return None
    return pat


def compile_literal(patterns: tuple[str, ...], kind: Kind, *, ignore_case: bool = False,
                    word: bool = False, line: bool = False) -> Compiled | None:
    """What kernel.text.regex.compile_patterns gives for the same arguments, with a plain
    pattern for the regex, when the patterns are one plain string; else None."""
    pat = literal_of(patterns, kind, word, line)
    if pat is None:
        return None
    needle = pat.encode("ascii")
    if not ignore_case:
        return Compiled(LiteralPattern(needle), False, len(needle))
    # as compile_patterns does for an ASCII pattern under -i: the lower-cased pattern
    # searches a lower-cased block, the folding one serves line by line
    return Compiled(FoldedPattern(needle), False, len(needle),
                    LiteralPattern(needle.lower()), lower=True)
