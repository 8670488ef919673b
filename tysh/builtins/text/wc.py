"""wc (GNU coreutils 9.1): lines, words, characters, bytes and the longest line.

Counting works on chunks of bytes: lines are `bytes.count`, words come from a split
after removing the characters GNU treats as neither word nor space (controls, invalid
bytes), characters are the bytes that do not continue a UTF-8 sequence. Only the
requested counts are computed, so `wc -l` over a large file runs at memory speed."""

from __future__ import annotations

import codecs
from itertools import compress

from tysh.builtins._common.args import by_args
from tysh.builtins._common.lines import BIG, chunks
from tysh.builtins._common.operands import STDIN_DEVICES, InputStatus, open_input
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import MutableRecord, Record, field, mutable, value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import STREAMED, OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import unicodedata
    from typing import IO, Literal
else:  # only -L on text that is not ASCII measures widths
    unicodedata = LazyModule(globals(), "unicodedata", "unicodedata")

# ASCII bytes that are neither word characters nor separators (not printable, not space)
_ASCII_TRANSPARENT = bytes([*range(0, 9), *range(14, 32), 127])
# bytes that never start a character: continuations and invalid lead bytes
_NOT_CHAR_START = bytes([*range(0x80, 0xC2), *range(0xF5, 0x100)])
# in decoded text: controls (C0 but blanks, DEL, C1) and undecodable bytes
_TEXT_TRANSPARENT = LazyRegex("[\x00-\x08\x0e-\x1f\x7f-\x9f\udc80-\udcff]")
_ASCII_WS = frozenset(b" \t\n\r\x0b\x0c")


@mutable
class Counts(MutableRecord):
    lines: int = 0
    words: int = 0
    chars: int = 0
    bytes: int = 0
    max_line: int = 0

    def add(self, o: Counts) -> None:
        self.lines += o.lines
        self.words += o.words
        self.chars += o.chars
        self.bytes += o.bytes
        self.max_line = max(self.max_line, o.max_line)


def _display_width(line: str) -> int:
    """Columns a line occupies: tabs to the next multiple of 8, wide characters 2,
    controls and combining marks 0 (what GNU wc -L measures)."""
    if line.isascii() and line.isprintable():
        return len(line)
    col = 0
    for ch in line:
        if ch == "\t":
            col += 8 - col % 8
        elif ch.isascii():
            if ch.isprintable():
                col += 1
        elif unicodedata.combining(ch) or not ch.isprintable():
            continue
        else:
            col += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return col


@mutable
class _Counter(MutableRecord):
    """Counts one stream incrementally; words and -L carry state across chunks."""

    want_words: bool
    want_chars: bool
    want_max: bool
    c: Counts = field(factory=Counts)
    in_word: bool = False
    decoder: codecs.IncrementalDecoder = field(
        factory=lambda: codecs.getincrementaldecoder("utf-8")("surrogateescape")
    )
    line_tail: str = ""

    def feed(self, chunk: bytes) -> None:
        c = self.c
        c.bytes += len(chunk)
        c.lines += chunk.count(b"\n")
        if self.want_chars:
            c.chars += len(chunk.translate(None, _NOT_CHAR_START))
        if self.want_words:
            if chunk.isascii():
                self._words_ascii(chunk)
            else:
                self._words_text(self.decoder.decode(chunk))
        if self.want_max:
            self._max(chunk)

    def _words_ascii(self, chunk: bytes) -> None:
        t = chunk.translate(None, _ASCII_TRANSPARENT)
        if not t:
            return
        n = len(t.split())
        if self.in_word and t[0] not in _ASCII_WS:
            n -= 1
        self.c.words += n
        self.in_word = t[-1] not in _ASCII_WS

    def _words_text(self, text: str) -> None:
        t = _TEXT_TRANSPARENT.sub("", text)
        if not t:
            return
        n = len(t.split())
        if self.in_word and not t[0].isspace():
            n -= 1
        self.c.words += n
        self.in_word = not t[-1].isspace()

    def _max(self, chunk: bytes) -> None:
        text = self.line_tail + chunk.decode("utf-8", "surrogateescape")
        if "\r" in text or "\f" in text:  # GNU: a carriage return or form feed ends a column run
            text = text.replace("\r", "\n").replace("\f", "\n")
        lines = text.split("\n")
        self.line_tail = lines.pop()
        if lines:
            self.c.max_line = max(self.c.max_line, max(map(_display_width, lines)))

    def finish(self) -> Counts:
        if self.want_words:
            rest = self.decoder.decode(b"", final=True)
            if rest:
                self._words_text(rest)
        if self.want_max and self.line_tail:
            self.c.max_line = max(self.c.max_line, _display_width(self.line_tail))
        return self.c


@value_record
class WcArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="files to count; - is stdin")
    lines: bool = param(default=False, aliases=["-l"], help="print the newline counts")
    words: bool = param(default=False, aliases=["-w"], help="print the word counts")
    chars: bool = param(default=False, aliases=["-m"], help="print the character counts")
    bytes: bool = param(default=False, aliases=["-c"], help="print the byte counts")
    max_line_length: bool = param(
        default=False, aliases=["-L"], help="print the maximum display width"
    )
    total: Literal["auto", "always", "only", "never"] = param(
        default="auto", help="when to print a line with total counts"
    )


_FAILED = -1
_NOT_REGULAR = -2


def _input_size(ctx: Context, name: str) -> int:
    """The size of a regular-file input, _NOT_REGULAR for a pipe or device, _FAILED
    when it cannot be found."""
    if name == "-":
        size = _stream_size(ctx.stdin)
        return _NOT_REGULAR if size is None else size
    try:
        st = ctx.fs.stat(ctx.path(name))
    except FsError:
        return _FAILED
    return st.size if st.kind == "file" else _NOT_REGULAR


def _stream_size(f: IO[bytes]) -> int | None:
    """The remaining size of a regular-file stream (seekable), None for a pipe."""
    try:
        if not f.seekable():
            return None
        pos = f.tell()
        end = f.seek(0, 2)
        f.seek(pos)
        return end - pos
    except (OSError, ValueError, AttributeError):
        return None


def _count(f: IO[bytes], words: bool, chars: bool, longest: bool) -> Counts:
    if not (words or chars or longest):  # lines and bytes: two counts in C per chunk
        lines = size = 0
        read = getattr(f, "read1", None) or f.read  # (`chunks`, without a generator)
        while True:
            chunk = read(BIG)
            if not chunk:
                return Counts(lines, 0, 0, size)
            size += len(chunk)
            lines += chunk.count(b"\n")
    counter = _Counter(words, chars, longest)
    for chunk in chunks(f):
        counter.feed(chunk)
    return counter.finish()


_FIELDS = ("lines", "words", "chars", "bytes", "max_line_length")


@tool(
    "wc", kind="read",
    args=WcArgs,
    description=(
        "count lines, words, characters and bytes; --json gives "
        '{"lines","words","bytes"} (the selected counts; "chars", "max_line_length" with -m, -L) '
        'for standard input, or for files an array of such objects with "path" and a last '
        '{"total":true} entry when a total is shown'
    ),
    examples=[
        ("count lines", "wc -l notes.txt"),
        ("lines, words and bytes of several files", "wc *.txt"),
    ],
)
def wc(args: WcArgs, ctx: Context) -> ToolReturn:
    sel, names, only, show_total, sized, words, chars, longest = _plan_of(args)
    # GNU derives the column width from the sizes of all inputs, found before counting,
    # so each file's line can be written as soon as it is counted: an error about a later
    # file then follows it, as with GNU when stdout and stderr are one stream (2>&1)
    width = _width(sel, [_input_size(ctx, name) for name in names], only) if sized else 1
    rows = not ctx.json and not only
    named = bool(args.files)
    stdin = ctx.stdin
    status: InputStatus | None = None
    results: list[tuple[str, Counts | None]] = []
    for name in names:
        if name == "-" or name in STDIN_DEVICES:  # (open_input's answer for these)
            f = stdin
        else:
            if status is None:
                status = InputStatus()
            opened = open_input(ctx, name, status)
            if opened is None:
                results.append((name, None))
                continue
            f = opened
        try:
            counts = _count(f, words, chars, longest)
        except (FsError, OSError) as e:
            reason = e.reason if isinstance(e, FsError) else (e.strerror or str(e))
            ctx.error(f"{name}: {reason}")
            if status is None:
                status = InputStatus()
            status.failed = True
            results.append((name, None))
            continue
        finally:
            if f is not stdin:
                f.close()
        results.append((name, counts))
        if rows:
            if named:
                ctx.write(_row(sel, counts, width, name))
            else:  # (digits and spaces: ASCII)
                ctx.stdout.write(_row(sel, counts, width, None).encode())
    total: Counts | None = None
    if show_total:
        total = Counts()
        for _, c in results:
            if c is not None:
                total.add(c)
    code = 1 if status is not None and status.failed else 0

    def value() -> object:
        return _value(sel, results, total, named, show_total)

    if ctx.json:
        return Outcome(code=code, output=OutputData.text("", rich_json=value))
    if total is not None:
        ctx.write(_row(sel, total, width, None if only else "total"))
    output = OutputData(None, STREAMED, value)  # (OutputData.value, one call less)
    return output if code == 0 else Outcome(code, output)


# what wc's options ask for: the counts selected, the inputs, whether only the total is
# shown, whether a total is shown, whether the column width needs the inputs' sizes,
# and whether words, characters and the longest line are counted
_Plan = tuple[tuple[bool, ...], tuple[str, ...], bool, bool, bool, bool, bool, bool]


def _plan(args: WcArgs) -> _Plan:
    sel = (args.lines, args.words, args.chars, args.bytes, args.max_line_length)
    if not any(sel):
        sel = (True, True, False, True, False)
    names = args.files or ("-",)
    only = args.total == "only"
    show_total = args.total == "always" or only or (args.total == "auto" and len(names) > 1)
    # (`_width`'s first answer, known without the sizes)
    sized = not (only or (sum(sel) == 1 and len(names) == 1))
    return sel, names, only, show_total, sized, sel[1], sel[2], sel[4]


_plan_of = by_args(_plan)


def _values(sel: tuple[bool, ...], c: Counts) -> list[int]:
    return list(compress((c.lines, c.words, c.chars, c.bytes, c.max_line), sel))


def _row(sel: tuple[bool, ...], c: Counts, width: int, name: str | None) -> str:
    vals = _values(sel, c)
    if width == 1:  # (no count is narrower than one column)
        text = " ".join(map(str, vals))
    else:
        text = " ".join(str(v).rjust(width) for v in vals)
    return f"{text} {name}\n" if name is not None else text + "\n"


def _width(sel: tuple[bool, ...], sizes: list[int], only: bool) -> int:
    """GNU's rule: one count of one input is unpadded; otherwise the digits of the total
    size of the regular files, at least 7 when an input is not a regular file."""
    if only or (sum(sel) == 1 and len(sizes) == 1) or not sizes:
        return 1
    minimum = 1
    regular = 0
    for size in sizes:
        if size == _NOT_REGULAR:
            minimum = 7
        elif size > 0:
            regular += size
    return max(minimum, len(str(regular)))


def _value(
    sel: tuple[bool, ...],
    results: list[tuple[str, Counts | None]],
    total: Counts | None,
    named: bool,
    show_total: bool,
) -> object:
    """The typed value: one object of counts for standard input alone, else a list of
    {"path", counts…} records (and a last {"total": true, counts…} when the text shows
    a total line)."""
    def obj(c: Counts) -> dict[str, object]:
        vals = [c.lines, c.words, c.chars, c.bytes, c.max_line]
        return {k: v for k, v, on in zip(_FIELDS, vals, sel, strict=True) if on}

    if not named and len(results) == 1:
        c = results[0][1]
        return obj(c) if c is not None else {}
    entries: list[dict[str, object]] = [
        {"path": name, **obj(c)} for name, c in results if c is not None
    ]
    if show_total and total is not None:
        entries.append({"total": True, **obj(total)})
    return entries


TOOLS = [wc]
