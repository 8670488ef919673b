"""fmt (GNU coreutils 9.1): fill and join paragraphs with GNU's optimal line breaking.

Lines are broken as GNU fmt breaks them, by minimising a cost over the whole paragraph
(short lines and raggedness cost, sentence ends and punctuation earn bonuses, a widow
or orphan word costs), aiming at 93% of the width and never reaching it. Paragraphs
are separated by blank lines and indentation changes; -p keeps only prefixed lines.
Difference from GNU: GNU formats a paragraph of over 1000 words or 5000 bytes in
pieces (its buffer size); tysh formats it whole, which may break such paragraphs
elsewhere. Bytes count as columns (coreutils 9.1 has no multibyte support in fmt)."""

from __future__ import annotations

from tysh.builtins._common.operands import InputStatus, iter_inputs, iter_lines
from tysh.kernel.base.record import MutableRecord, Record, mutable, value_record
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO


def _sq(n: int) -> int:
    return n * n


LINE_COST = _sq(70)
SENTENCE_BONUS = _sq(50)
NOBREAK_COST = _sq(600)
PAREN_BONUS = _sq(40)
PUNCT_BONUS = _sq(40)
MAXCOST = 1 << 62
TABWIDTH = 8
DEF_INDENT = 3
_OPEN = b"([`'\""
_CLOSE = b")]'\""
_PERIOD = b".?!"
_PUNCT = frozenset(b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def _short(n: int) -> int:
    return _sq(n * 10)


def _ragged(n: int) -> int:
    return _short(n) // 2


@mutable
class Word(MutableRecord):
    text: bytes
    space: int = 1
    paren: bool = False
    punct: bool = False
    period: bool = False
    final: bool = False
    best_cost: int = 0
    next_break: int = 0
    line_length: int = 0


@value_record
class FmtArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="input files (default stdin)")
    width: str | None = param(default=None, aliases=["-w"], help="maximum line width (default 75)")
    goal: str | None = param(default=None, aliases=["-g"], help="goal width (default 93% of width)")
    split_only: bool = param(default=False, aliases=["-s"], help="split long lines, do not refill")
    uniform_spacing: bool = param(default=False, aliases=["-u"],
                                  help="one space between words, two after sentences")
    prefix: str | None = param(default=None, aliases=["-p"],
                               help="reformat only lines beginning with PREFIX")
    tagged_paragraph: bool = param(default=False, aliases=["-t"],
                                   help="indentation of first line differs from the second")
    crown_margin: bool = param(default=False, aliases=["-c"],
                               help="keep the indentation of the first two lines")


@mutable
class _Fmt(MutableRecord):
    """GNU fmt's reader and formatter state, one instance per run (state carries across
    files, as GNU's globals do)."""

    out: list[bytes]
    width: int
    goal: int
    uniform: bool
    split_only: bool
    tagged: bool
    crown: bool
    prefix: bytes = b""
    prefix_lead: int = 0
    prefix_full: int = 0
    tabs: bool = False
    other_indent: int = 0
    last_line_length: int = 0
    # the current input line, scanned by get_prefix
    line: bytes = b""
    pos: int = 0
    col: int = 0
    next_prefix_indent: int = 0
    eof: bool = False
    lines: Iterator[bytes] = iter(())

    # ----------------------------------------------------------------- reading
    def _space(self) -> None:
        ln, i, col = self.line, self.pos, self.col
        n = len(ln)
        while i < n:
            c = ln[i]
            if c == 32:
                col += 1
            elif c == 9:
                self.tabs = True
                col = (col // TABWIDTH + 1) * TABWIDTH
            else:
                break
            i += 1
        self.pos, self.col = i, col

    def _at_eol(self) -> bool:
        return self.pos >= len(self.line)

    def get_prefix(self) -> None:
        """Read the next line and scan its indentation and prefix."""
        nxt = next(self.lines, None)
        if nxt is None:
            self.eof = True
            self.line, self.pos, self.col = b"", 0, 0
            return
        self.line = nxt[:-1] if nxt.endswith(b"\n") else nxt
        self.pos = self.col = 0
        self._space()
        if not self.prefix:
            self.next_prefix_indent = min(self.prefix_lead, self.col)
            return
        self.next_prefix_indent = self.col
        p = self.prefix
        if self.line.startswith(p, self.pos):
            self.pos += len(p)
            self.col += len(p)
            self._space()
        else:  # GNU stops at the first differing byte, counting the matched part
            k = 0
            while self.pos + k < len(self.line) and k < len(p) and self.line[self.pos + k] == p[k]:
                k += 1
            self.pos += k
            self.col += k

    def _blank_or_foreign(self) -> bool:
        return (self.eof or self._at_eol() or self.next_prefix_indent < self.prefix_lead
                or self.col < self.next_prefix_indent + self.prefix_full)

    def same_para(self) -> bool:
        return (not self.eof and not self._at_eol()
                and self.next_prefix_indent == self.prefix_indent
                and self.col >= self.next_prefix_indent + self.prefix_full)

    prefix_indent: int = 0
    first_indent: int = 0

    def copy_rest(self) -> None:
        """A line that is blank or lacks the prefix goes out as it came."""
        buf = bytearray()
        col = 0
        if self.col > self.next_prefix_indent or not self._at_eol():
            col = self._put_space(buf, col, self.next_prefix_indent)
            k = 0
            while col != self.col and k < len(self.prefix):
                buf.append(self.prefix[k])
                k += 1
                col += 1
            if not self._at_eol():
                col = self._put_space(buf, col, self.col - col)
                buf += self.line[self.pos:]
        self.out.append(bytes(buf) + b"\n")

    def get_line(self, words: list[Word]) -> None:
        """Split the rest of the current line into words, then read the next line."""
        ln = self.line
        n = len(ln)
        while True:
            start = self.pos
            i = start + 1
            while i < n and ln[i] not in b" \t\n\r\v\f":
                i += 1
            w = Word(ln[start:i])
            self.pos = i
            self.col += i - start
            text = w.text
            w.paren = text[0] in _OPEN
            w.punct = text[-1] in _PUNCT
            end = len(text) - 1
            while end > 0 and text[end] in _CLOSE:
                end -= 1
            w.period = text[end] in _PERIOD
            before = self.col
            self._space()
            w.space = self.col - before
            at_end = self._at_eol()
            w.final = at_end and False or (w.period and (at_end or w.space > 1))
            if at_end or self.uniform:
                w.space = 2 if w.final else 1
            words.append(w)
            if at_end:
                break
            if ln[self.pos] in b"\r\v\f":  # GNU: not a space for get_space, so a word
                pass
        self.get_prefix()

    def set_other_indent(self, same: bool) -> None:
        if self.split_only:
            self.other_indent = self.first_indent
        elif self.crown:
            self.other_indent = self.col if same else self.first_indent
        elif self.tagged:
            if same and self.col != self.first_indent:
                self.other_indent = self.col
            elif self.other_indent == self.first_indent:
                self.other_indent = DEF_INDENT if self.first_indent == 0 else 0
        else:
            self.other_indent = self.first_indent

    def get_paragraph(self) -> list[Word] | None:
        while self._blank_or_foreign():
            if self.eof:
                return None
            self.copy_rest()
            self.get_prefix()
        self.prefix_indent = self.next_prefix_indent
        self.first_indent = self.col
        words: list[Word] = []
        self.get_line(words)
        self.set_other_indent(self.same_para())
        if self.split_only:
            pass
        elif self.crown:
            if self.same_para():
                self.get_line(words)
                while self.same_para() and self.col == self.other_indent:
                    self.get_line(words)
        elif self.tagged:
            if self.same_para() and self.col != self.first_indent:
                self.get_line(words)
                while self.same_para() and self.col == self.other_indent:
                    self.get_line(words)
        else:
            while self.same_para() and self.col == self.other_indent:
                self.get_line(words)
        words[-1].period = words[-1].final = True
        return words

    # ----------------------------------------------------------------- formatting
    def base_cost(self, words: list[Word], k: int) -> int:
        cost = LINE_COST
        if k > 0:
            prev = words[k - 1]
            if prev.period:
                cost += -SENTENCE_BONUS if prev.final else NOBREAK_COST
            elif prev.punct:
                cost -= PUNCT_BONUS
            elif k > 1 and words[k - 2].final:
                cost += 62500 // (len(prev.text) + 2)
        w = words[k]
        if w.paren:
            cost -= PAREN_BONUS
        elif w.final:
            cost += 62500 // (len(w.text) + 2)
        return cost

    def fmt_paragraph(self, words: list[Word]) -> None:
        limit = len(words)
        sentinel = Word(b"")
        sentinel.next_break = limit
        words.append(sentinel)
        goal, maxw = self.goal, self.width
        for start in range(limit - 1, -1, -1):
            best = MAXCOST
            length = (self.first_indent if start == 0 else self.other_indent) + len(
                words[start].text)
            k = start
            while True:
                k += 1
                if k == limit:
                    cost = 0
                else:
                    cost = _short(goal - length)
                    nxt = words[k]
                    if nxt.next_break != limit:
                        cost += _ragged(length - nxt.line_length)
                wcost = cost + words[k].best_cost
                if start == 0 and self.last_line_length > 0:
                    wcost += _ragged(length - self.last_line_length)
                if wcost < best:
                    best = wcost
                    words[start].next_break = k
                    words[start].line_length = length
                if k == limit:
                    break
                length += words[k - 1].space + len(words[k].text)
                if length >= maxw:
                    break
            words[start].best_cost = best + self.base_cost(words, start)
        words.pop()

    def _put_space(self, buf: bytearray, col: int, space: int) -> int:
        target = col + space
        if self.tabs:
            tab_target = target // TABWIDTH * TABWIDTH
            if col + 1 < tab_target:
                while col < tab_target:
                    buf.append(9)
                    col = (col // TABWIDTH + 1) * TABWIDTH
        if col < target:
            buf += b" " * (target - col)
            col = target
        return col

    def put_paragraph(self, words: list[Word]) -> None:
        k = 0
        indent = self.first_indent
        while k < len(words):
            end = words[k].next_break
            buf = bytearray()
            col = self._put_space(buf, 0, self.prefix_indent)
            buf += self.prefix
            col += len(self.prefix)
            col = self._put_space(buf, col, indent - col)
            for j in range(k, end - 1):
                buf += words[j].text
                col = self._put_space(buf, col + len(words[j].text), words[j].space)
            buf += words[end - 1].text
            col += len(words[end - 1].text)
            self.last_line_length = col
            self.out.append(bytes(buf) + b"\n")
            k = end
            indent = self.other_indent

    def run(self, lines: Iterator[bytes], flush: IO[bytes]) -> None:
        self.lines = lines
        self.eof = False
        self.tabs = False
        self.other_indent = 0
        self.get_prefix()
        while (words := self.get_paragraph()) is not None:
            self.last_line_length = 0
            self.fmt_paragraph(words)
            self.put_paragraph(words)
            if len(self.out) > 256:
                flush.write(b"".join(self.out))
                self.out.clear()


def _usage(ctx: Context, message: str) -> int:
    ctx.error(message)
    ctx.stderr.write(b"Try 'fmt --help' for more information.\n")
    return 1


@tool(
    "fmt", kind="read",
    args=FmtArgs,
    description="reformat paragraphs to fill lines up to WIDTH (default 75), breaking as GNU fmt",
    examples=[
        ("rewrap to 60 columns", "fmt -w 60 notes.txt"),
        ("rewrap comment lines only", "fmt -p '# ' script.sh"),
        ("only split long lines", "fmt -s README"),
    ],
)
def fmt(args: FmtArgs, ctx: Context) -> ToolReturn:
    files = list(args.files)
    width_spec = args.width
    for w in list(files):  # the obsolete `fmt -60`
        if len(w) > 1 and w[0] == "-" and w[1:].isdigit():
            width_spec = w[1:]
            files.remove(w)
    width, goal = 75, None
    if width_spec is not None:
        if not width_spec.strip().isdigit() or int(width_spec) > 2500:
            ctx.error(f"invalid width: '{width_spec}'")
            return 1
        width = int(width_spec)
    if args.goal is not None:
        if not args.goal.strip().isdigit():
            ctx.error(f"invalid width: '{args.goal}'")
            return 1
        goal = int(args.goal)
        if width_spec is None:
            width = goal + 10
    if goal is None:
        goal = width * (2 * (100 - 7) + 1) // 200
    if goal > width:
        return _usage(ctx, f"invalid width: '{goal}'")
    state = _Fmt([], width, goal, args.uniform_spacing, args.split_only,
                 args.tagged_paragraph, args.crown_margin)
    if args.prefix is not None:
        raw = args.prefix.encode("utf-8", "surrogateescape")
        stripped = raw.lstrip(b" ")
        state.prefix_lead = len(raw) - len(stripped)
        state.prefix_full = len(stripped)
        state.prefix = stripped.rstrip(b" ")
    status = InputStatus()
    for _, f in iter_inputs(ctx, files, status):
        state.run(iter_lines(f, ctx), ctx.stdout)
        ctx.stdout.write(b"".join(state.out))
        state.out.clear()
    return 1 if status.failed else 0


TOOLS = [fmt]
