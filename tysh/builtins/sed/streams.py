"""sed's input and output streams: lines read in large blocks with one line of lookahead
(so `$` is known), and output buffered in pieces that remember a separator still owed."""

from __future__ import annotations

from tysh.kernel.base.values import encode_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import IO

READ_SIZE = 1 << 18


class Output:
    """One output stream as GNU keeps it: text pieces buffered until flushed, and where a
    piece lacked its separator (a line read without one, printed as read). GNU writes the
    missing separator before any further output to the same stream — so
    `printf 'a' | sed p` gives "a\\na" while `sed -n p` gives "a" — and `q` writes it at
    once. `gaps` holds the piece counts after such pieces; [0] carries one over a flush."""

    __slots__ = ("sink", "sep", "parts", "gaps")

    def __init__(self, sink: IO[bytes], sep: str) -> None:
        self.sink = sink
        self.sep = sep
        self.parts: list[str] = []
        self.gaps: list[int] = []

    def raw(self, text: str) -> None:
        """`text` without its separator: owed before the next output."""
        self.parts.append(text)
        self.gaps.append(len(self.parts))

    def line(self, text: str, nl: bool) -> None:
        if nl:
            self.parts.append(text + self.sep)
        else:
            self.raw(text)

    def end_line(self) -> None:
        """Write a separator still owed (as `q` does)."""
        gaps = self.gaps
        if gaps and gaps[-1] == len(self.parts):
            gaps.pop()
            self.parts.append(self.sep)

    def flush(self) -> None:
        parts = self.parts
        if not parts:
            return
        gaps = self.gaps
        if gaps:
            n = len(parts)
            pieces = list(parts)
            for i in reversed(gaps):
                if i < n:
                    pieces.insert(i, self.sep)
            owed = gaps[-1] == n
            gaps.clear()
            if owed:
                gaps.append(0)
            text = "".join(pieces)
        else:
            text = "".join(parts)
        del parts[:]  # in place: the runners hold the list
        self.sink.write(text.encode("utf-8", "surrogateescape"))
        self.sink.flush()


class WFile:
    """A `w` file (or /dev/stdout, /dev/stderr) with its own owed-separator flag, as GNU
    keeps one per output: `write` goes to a byte stream or to the main output's pieces."""

    __slots__ = ("fp", "parts", "sep", "missing")

    def __init__(self, fp: IO[bytes] | None, parts: list[str] | None, sep: str) -> None:
        self.fp = fp
        self.parts = parts
        self.sep = sep
        self.missing = False

    def write(self, text: str, nl: bool) -> None:
        if self.missing:
            text = self.sep + text
        self.missing = not nl
        if nl:
            text += self.sep
        if self.parts is not None:
            self.parts.append(text)
        elif self.fp is not None:
            self.fp.write(text.encode("utf-8", "surrogateescape"))

    def close(self) -> None:
        if self.fp is not None and self.parts is None:
            self.fp.close()


class Input:
    """The lines of one stream (several files, or one with -s/-i), with one line of
    lookahead so `$` is known; lines are decoded text without their separator."""

    def __init__(
        self, sources: Iterator[tuple[str, IO[bytes]]], sep: str, flush: Callable[[], None]
    ) -> None:
        self.sources = sources
        self.sep = sep
        self.bsep = encode_text(sep)
        self.flush = flush
        self.buf: list[str] = []
        self.text = ""  # buf's lines joined by the separator, as decoded
        self.nbuf = 0
        self.k = 0
        self.rest = b""
        self.cur: IO[bytes] | None = None
        self.exhausted = False
        self.buf_has_sep = True
        self.name = "-"

    def fill(self) -> bool:
        """Load more lines into buf; False at the end of every source."""
        while True:
            if self.cur is None:
                try:
                    nxt = next(self.sources)
                except StopIteration:
                    self.exhausted = True
                    return False
                self.name, self.cur = nxt
            self.flush()
            read = getattr(self.cur, "read1", self.cur.read)
            chunk = read(READ_SIZE)
            if not chunk:
                self.cur = None
                if self.rest:
                    text = self.rest.decode("utf-8", "surrogateescape")
                    self.rest = b""
                    self.buf = [text]
                    self.text = text
                    self.nbuf = 1
                    self.k = 0
                    self.buf_has_sep = False
                    return True
                continue
            data = self.rest + chunk if self.rest else chunk
            cut = data.rfind(self.bsep)
            if cut < 0:
                self.rest = data
                continue
            self.rest = data[cut + 1 :]
            self.text = data[:cut].decode("utf-8", "surrogateescape")
            self.buf = self.text.split(self.sep)
            self.nbuf = len(self.buf)
            self.buf_has_sep = True
            self.k = 0
            return True

    def next(self) -> str | None:
        k = self.k
        if k < self.nbuf:
            self.k = k + 1
            return self.buf[k]
        if self.exhausted or not self.fill():
            return None
        self.k = 1
        return self.buf[0]

    @property
    def last_had_sep(self) -> bool:
        """Whether the line just read ended with the separator: only a buffer holding a
        file's unterminated last line lacks it (a lookahead may have loaded the next)."""
        return self.buf_has_sep or self.k < self.nbuf

    def at_end(self) -> bool:
        if self.k < self.nbuf:
            return False
        if self.exhausted:
            return True
        return not self.fill()
