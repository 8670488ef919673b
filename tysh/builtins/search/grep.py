"""grep: print lines that match patterns, as GNU grep 3.8 does.

Patterns are translated once to a Python regex (see kernel.text.regex), or, when they are one
plain string, searched with `bytes.find` (kernel.text.literal). The common cases run on
large blocks of lines: the regex engine scans the block and only the lines that match
cost any Python work. Context (-A/-B/-C) and `--json` take a per-line path.

`--json` gives `[{"path", "line", "text"}]` for matching lines (`text` is the match with
`-o`); with `-c`, `[{"path", "count"}]`; with `-l`/`-L`, `[{"path"}]`. The same value is
`r.data` without `--json`: the matching lines' records are made when it is read, by the
`--json` scan over the inputs kept for it (see `_Grep.keep`).
"""

from __future__ import annotations

import io
from itertools import compress
from operator import itemgetter

from tysh.builtins._common.lines import VALUE_BYTES, VALUE_ITEMS
from tysh.builtins._common.operands import is_stdin
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.fs.api import DirHandle, FsError
from tysh.kernel.text.literal import PLAIN, LiteralPattern, compile_literal, literal_of
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import collections
    import fnmatch
    from collections.abc import Callable, Iterator
    from typing import IO, Any, Literal

    from tysh.kernel.text import engine
    from tysh.kernel.text import regex as rx
    from tysh.kernel.text.literal import Compiled, Kind

    _Frame = tuple[DirHandle, Iterator[tuple[str, str]], str, str, tuple[tuple[int, int], ...]]
else:
    # a plain-string pattern (kernel.text.literal) needs no regex machinery, and only
    # --include/--exclude/--exclude-dir match globs: each is loaded when first used
    engine = LazyModule(globals(), "engine", "tysh.kernel.text.engine")
    rx = LazyModule(globals(), "rx", "tysh.kernel.text.regex")
    fnmatch = LazyModule(globals(), "fnmatch", "fnmatch")
    collections = LazyModule(globals(), "collections", "collections")

READ_SIZE = 1 << 18
_SAMPLE = 1 << 15  # bytes of a block whose newlines estimate its line count
_SLICE = 256  # files of a directory read between two checks for a cancel or a deadline
STDIN_LABEL = "(standard input)"


@value_record
class GrepArgs(Record):
    operands: tuple[str, ...] = param(
        positional=True, default=(), help="PATTERN (unless -e/-f) then FILEs"
    )
    regexp: tuple[str, ...] = param(default=(), aliases=["-e"], help="use PATTERN (repeatable)")
    file: tuple[str, ...] = param(default=(), aliases=["-f"], help="take patterns from FILE")
    extended_regexp: bool = param(False, aliases=["-E"], help="patterns are extended regexps")
    fixed_strings: bool = param(False, aliases=["-F"], help="patterns are fixed strings")
    basic_regexp: bool = param(False, aliases=["-G"], help="patterns are basic regexps")
    perl_regexp: bool = param(False, aliases=["-P"],
                              help="patterns are Python regexps (and PCRE's \\K)")
    ignore_case: bool = param(False, aliases=["-i", "-y"], help="ignore case distinctions")
    no_ignore_case: bool = param(False, help="do not ignore case (default)")
    invert_match: bool = param(False, aliases=["-v"], help="select non-matching lines")
    word_regexp: bool = param(False, aliases=["-w"], help="match only whole words")
    line_regexp: bool = param(False, aliases=["-x"], help="match only whole lines")
    count: bool = param(False, aliases=["-c"], help="print only a count of selected lines")
    line_number: bool = param(False, aliases=["-n"], help="prefix each line with its number")
    files_with_matches: bool = param(False, aliases=["-l"], help="print only names of matching files")
    files_without_match: bool = param(False, aliases=["-L"], help="print only names of files without a match")
    only_matching: bool = param(False, aliases=["-o"], help="print only the matched parts")
    quiet: bool = param(False, aliases=["-q", "--silent"], help="print nothing; exit 0 on a match")
    no_messages: bool = param(False, aliases=["-s"], help="suppress file error messages")
    with_filename: bool = param(False, aliases=["-H"], help="print the file name for each match")
    no_filename: bool = param(False, aliases=["-h"], help="never print file names")
    max_count: int | None = param(None, aliases=["-m"], help="stop after NUM selected lines")
    after_context: int | None = param(None, aliases=["-A"], help="print NUM lines after a match",
                                      min=0, range_error="{value}: invalid context length argument")
    before_context: int | None = param(None, aliases=["-B"], help="print NUM lines before a match",
                                       min=0, range_error="{value}: invalid context length argument")
    context: int | None = param(None, aliases=["-C"], help="print NUM lines around a match",
                                min=0, range_error="{value}: invalid context length argument")
    recursive: bool = param(False, aliases=["-r"], help="search directories recursively")
    dereference_recursive: bool = param(False, aliases=["-R"], help="like -r, following symlinks")
    directories: Literal["read", "skip", "recurse"] = param(
        "read", aliases=["-d"], help="what to do with a directory operand"
    )
    include: tuple[str, ...] = param(default=(), glob_passthrough=True,
                                    help="search only files whose name matches GLOB")
    exclude: tuple[str, ...] = param(default=(), glob_passthrough=True,
                                    help="skip files whose name matches GLOB")
    exclude_dir: tuple[str, ...] = param(default=(), glob_passthrough=True,
                                        help="skip directories matching GLOB")
    text: bool = param(False, aliases=["-a"], help="process a binary file as if it were text")
    binary_without_match: bool = param(False, aliases=["-I"], help="skip binary files")
    binary_files: Literal["binary", "text", "without-match"] = param(
        "binary", help="how to treat binary files"
    )
    binary: bool = param(False, aliases=["-U"], help="accepted; no CR/LF translation anyway")
    devices: Literal["read", "skip"] = param(
        "read", aliases=["-D"], help="accepted; devices are read"
    )
    color: str | None = param(None, aliases=["--colour"], help="accepted; output is never colored")
    byte_offset: bool = param(False, aliases=["-b"], help="prefix each line with its byte offset")
    null_data: bool = param(False, aliases=["-z"], help="lines end in NUL, not newline")
    null: bool = param(False, aliases=["-Z"], help="end a printed file name with NUL")
    label: str | None = param(None, help="the name to show for standard input")
    group_separator: str | None = param(None, help="print SEP between context groups")
    no_group_separator: bool = param(False, help="no separator between context groups")
    line_buffered: bool = param(False, help="accepted; output is flushed per block anyway")


class _Stop(Exception):
    """Raised inside a scan to stop reading the current file (-m, -q, -l)."""


# a NUL byte, as `in` on bytes takes it: an int is looked for by memchr, where a bytes
# needle is first tried as an int at the cost of a TypeError raised and cleared
_NUL = 0

# -z: NUL and newline trade places on the way in and out, so the line machinery is shared
_SWAP = bytes.maketrans(b"\n\0", b"\0\n")


def _blocks(f: IO[bytes] | bytes, ctx: Context, swap: bool = False) -> Iterator[bytes]:
    """Blocks of whole lines, each ending in a newline (one is added to an unterminated
    last line, as GNU grep prints it). Reads incrementally: stdin is never slurped. A line
    longer than a block (a big file with no newline) is gathered in pieces, charged to the
    memory budget and checked against the time limit as it grows. A file already read
    whole (bytes, at most a block) is cut as a single read of it would be."""
    if isinstance(f, bytes):
        if swap:
            f = f.translate(_SWAP)
        cut = f.rfind(b"\n") + 1
        if cut:
            yield f if cut == len(f) else f[:cut]
        if cut < len(f):
            yield f[cut:] + b"\n"
        return
    read = getattr(f, "read1", f.read)
    rest: list[bytes] = []
    held = 0
    while True:
        chunk = read(READ_SIZE)
        if not chunk:
            break
        if swap:
            chunk = chunk.translate(_SWAP)
        cut = chunk.rfind(b"\n")
        if cut < 0:
            rest.append(chunk)
            held += len(chunk)
            ctx.shell.check_boundary()
            ctx.need(held)
            continue
        if rest:
            rest.append(chunk[: cut + 1])
            yield b"".join(rest)
            rest.clear()
            held = 0
        else:
            yield chunk[: cut + 1]
        tail = chunk[cut + 1 :]
        if tail:
            rest.append(tail)
            held = len(tail)
    if rest:
        rest.append(b"\n")
        yield b"".join(rest)


class _Grep:
    """One grep run: options resolved once, then each input scanned."""

    def __init__(self, args: GrepArgs, ctx: Context, comp: Compiled, show_names: bool) -> None:
        self.ctx = ctx
        self.comp = comp
        self.regex: Any = comp.regex
        # -o prints the part after a -P pattern's \K (regex.KEEP_OUT), else all of it
        groups = self.regex.groupindex
        self.kg: int | str = rx.KEEP_OUT if groups and rx.KEEP_OUT in groups else 0
        self.text = comp.text
        self.invert = args.invert_match
        self.count = args.count
        self.numbers = args.line_number
        self.only = args.only_matching
        self.quiet = args.quiet
        self.list_yes = args.files_with_matches
        self.list_no = args.files_without_match and not args.files_with_matches
        self.max = args.max_count
        self.show_names = show_names and not args.no_filename or args.with_filename
        self.no_messages = args.no_messages
        self.binary_ok = args.text or args.binary_files == "text"
        # -I: a binary file matches nothing (GNU decides on the data before any output)
        self.skip_binary = args.binary_without_match or args.binary_files == "without-match"
        self.offsets = args.byte_offset
        self.zero = args.null_data
        self.name_end = "\0" if args.null else ""
        self.group_sep: str | None = (
            None if args.no_group_separator
            else "--" if args.group_separator is None else args.group_separator
        )
        ctxn = args.context or 0
        # an explicit context option, even 0, puts `--` between non-adjacent groups
        self.ctx_given = any(
            v is not None for v in (args.after_context, args.before_context, args.context)
        )
        self.after = args.after_context if args.after_context is not None else ctxn
        self.before = args.before_context if args.before_context is not None else ctxn
        self.json = ctx.json
        self.records: list[Any] = []
        # text mode, matching lines: the inputs that had any, kept (at most VALUE_BYTES
        # of them) to number their lines when the value is read; None once they would
        # not fit (the value is then absent)
        self.kept: list[tuple[str, bytes]] | None = (
            [] if not self.json and not _summary(args) and ctx.keeps_value else None)
        self.kept_bytes = 0
        self.any_selected = False
        self.error = False
        self.last_group_end: int | None = None  # for "--" separators between context groups
        self.out = ctx.stdout
        self._count_lines: Callable[[Any], int] | None = None
        # output-shaping modes where only a status or a count matters
        self.summary = self.quiet or self.list_yes or self.list_no or self.count
        self.walking = False  # in a tree walk: see emit
        # a file in which no line matches selects nothing, and may be passed over after
        # one search (not so under -v, for text searched decoded, or a pattern that
        # matches the empty string, hence every line)
        self.can_skip = (not self.invert and not self.text and not self.zero
                         and comp.min_width > 0 and (self.max is None or self.max > 0))
        # the search may_match makes: the prefilter's, else the pattern's own (either
        # runs a long subject window by window, as scan_blocks does)
        pre = comp.prefilter if comp.prefilter is not None else self.regex
        self.pre_search: Any = pre.search
        # the bytes that search looks for when it is a plain string's, for a walk to
        # call their `find` itself
        self.needle: bytes | None = pre.needle if type(pre) is LiteralPattern else None
        # and where a file with no match writes nothing either (no count, no -L name),
        # so that a walk is done with it after that one search
        self.pass_over = self.can_skip and not self.count and not self.list_no
        # a plain string without a newline (one line of the patterns), where it passes
        # over: a file (lowered when comp.lower) that does not hold it anywhere has no
        # line that does, so it selects nothing, whether or not it ends in a newline
        self.absent: bytes | None = (
            self.needle if self.pass_over and self.needle is not None
            and b"\n" not in self.needle else None)
        # -q, -l, -L: the first selected line settles a file
        self.stop_first = self.quiet or self.list_yes or self.list_no
        # the output modes scan_whole serves: selected lines, numbered or not, or the
        # first one alone
        self.plain_lines = (self.can_skip and not self.count and not self.only
                            and not self.ctx_given and not self.json and not self.offsets)
        # what scan_whole needs, worked out once: -w/-x's confirming search, the -m
        # bound (-1: none), what follows a file name on a line
        self.verify: Any = self.regex.search if comp.wrapped else None
        self.maxc = -1 if self.max is None else self.max
        self.name_sep = self.name_end or ":"
        # a file's count or name is written after its scan (-c, -l, -L)
        self.per_file = self.count or self.list_yes or self.list_no

    def may_match(self, data: bytes) -> bool:
        """Whether any line of a file read whole (ending in a newline) may hold a match:
        the search scan_blocks starts with, so a file with none is done without the rest
        of its work."""
        hay = data.lower() if self.comp.lower else data
        return self.pre_search(hay, 0, len(hay) - 1) is not None

    # -- reporting ------------------------------------------------------------
    def fail(self, message: str) -> None:
        self.error = True
        if not self.no_messages:
            self.say(message)

    def say(self, message: str) -> None:
        """Report on stderr, after the lines already selected."""
        if self.walking:
            self.out.flush()
        self.ctx.error(message)

    def enc(self, s: Any) -> bytes:
        return s.encode("utf-8", "surrogateescape") if self.text else s  # type: ignore[no-any-return]

    # -- one input --------------------------------------------------------------
    def search(self, f: IO[bytes] | bytes, name: str) -> None:
        """Scan one input and write what GNU grep writes for it."""
        selected = 0
        copy: _CopyReader | None = None
        if self.kept is not None and type(f) is not bytes:
            copy = _CopyReader(f, VALUE_BYTES - self.kept_bytes)  # type: ignore[arg-type]
            f = copy  # type: ignore[assignment]
        try:
            # (plain_lines is none of the modes scan_lines serves)
            if type(f) is bytes and self.plain_lines and f.endswith(b"\n") and (
                    self.binary_ok or _NUL not in f):
                selected = self.scan_whole(f, name)
            elif self.ctx_given or self.json or self.offsets:
                selected = self.scan_lines(f, name)
            elif not self.can_skip or type(f) is not bytes or not f.endswith(b"\n") \
                    or self.may_match(f):
                selected = self.scan_blocks(f, name)
        except _Stop as stop:
            selected = stop.args[0] if stop.args else 1
        if selected:
            self.any_selected = True
            if self.kept is not None:
                self.keep(name, f if copy is None else copy.copied())  # type: ignore[arg-type]
        if self.quiet or not self.per_file:
            return
        if self.count and not (self.list_yes or self.list_no):
            self.records.append({"path": name, "count": selected})
            if not self.json:
                pre = f"{name}{self.name_end or ':'}" if self.show_names else ""
                self.ctx.write(f"{pre}{selected}\n")
        if (self.list_yes and selected) or (self.list_no and not selected):
            self.records.append({"path": name})
            if not self.json:
                self.ctx.write(name + (self.name_end or "\n"))

    def keep(self, name: str, data: bytes | None) -> None:
        """Keep an input that had selected lines for the value (None: its copy did not
        fit), or give the value up once the inputs would pass VALUE_BYTES."""
        if data is None or self.kept_bytes + len(data) > VALUE_BYTES:
            self.kept = None
            return
        self.kept_bytes += len(data)
        self.kept.append((name, data))  # type: ignore[union-attr]

    def value(self, inputs: list[tuple[str, bytes]]) -> list[Any] | None:
        """The records `--json` gives, made by its own scan over the inputs kept (so
        they are the same); None past VALUE_ITEMS records."""
        self.json = True
        self.records = []
        for name, data in inputs:
            try:
                self.scan_lines(data, name)
            except _Stop:
                pass
            if len(self.records) > VALUE_ITEMS:
                return None
        return self.records

    def prefix(self, name: str, sep: str) -> str:
        return name + (self.name_end or sep) if self.show_names else ""

    def emit(self, data: bytes) -> None:
        """Write selected lines (NUL-terminated again under -z): flushed at once, except
        in a tree walk, whose small files would each cost a write to the pipe; the walk
        flushes before each error message it reports (so the two streams interleave as
        they would unbuffered) and when it ends."""
        self.out.write(data.translate(_SWAP) if self.zero else data)
        if not self.walking:
            self.out.flush()

    def scan_whole(self, data: bytes, name: str) -> int:
        """scan_blocks' sparse scan of one block, for a text file read whole (ending in
        a newline) whose selected lines are written as they are, numbered or not, or
        only looked for (-q, -l, -L): the search runs from the end of each matching line
        to the next match, and the file costs no more set-up than that."""
        hay = data.lower() if self.comp.lower else data
        search = self.pre_search
        needle = self.needle
        last = len(data) - 1  # the final newline: a match there would be a phantom line
        if needle is not None:
            s = hay.find(needle, 0, last)
        else:
            m = search(hay, 0, last)
            s = -1 if m is None else m.start()
        if s < 0:
            return 0
        verify = self.verify
        stop_first = self.stop_first
        pre = (name + self.name_sep).encode("utf-8", "surrogateescape") if self.show_names \
            else b""
        numbers = self.numbers
        maxc = self.maxc
        out: list[bytes] = []
        selected = 0
        lineno = 0  # newlines in data[:counted]
        counted = 0
        while s >= 0:
            ls = data.rfind(b"\n", 0, s) + 1
            le = data.find(b"\n", s)  # found: the match ends before the final newline
            if verify is None or verify(data, ls, le) is not None:
                selected += 1
                if stop_first:
                    break
                if numbers:
                    lineno += data.count(b"\n", counted, ls)
                    counted = ls
                    out.append(b"%s%d:%s" % (pre, lineno + 1, data[ls : le + 1]))
                else:
                    out.append(pre + data[ls : le + 1])
                if selected == maxc:
                    break
            if le >= last:
                break
            if needle is not None:
                s = hay.find(needle, le + 1, last)
            else:
                m = search(hay, le + 1, last)
                s = -1 if m is None else m.start()
        if out:
            self.emit(b"".join(out))
        return selected

    def scan_blocks(self, f: IO[bytes] | bytes, name: str) -> int:
        """The block-at-a-time scan for everything but context and JSON.

        Sparse blocks: the regex engine finds the next match in the whole block and only
        matching lines cost Python work. Dense blocks (many selected lines): split into
        lines and filter them in one comprehension. The choice adapts per block."""
        text, regex, invert, only, kg = self.text, self.regex, self.invert, self.only, self.kg
        comp = self.comp
        verify = regex.search if comp.wrapped else None
        pre_re = comp.prefilter if comp.prefilter is not None else regex
        search: Any = None
        lower = comp.lower
        nl: Any = "\n" if text else b"\n"
        empty: Any = "" if text else b""
        pre: Any = self.prefix(name, ":")
        if not text:
            pre = pre.encode("utf-8", "surrogateescape")
        numbers = self.numbers
        maxc = self.max if self.max is not None else -1
        if maxc == 0:
            return 0
        summary = self.summary
        stop_first = self.stop_first
        # a plain string's own pattern, whose holds() tests a dense block's lines in C
        plain = regex if isinstance(regex, PLAIN) else None
        needle = self.needle
        fast_count = (
            self.count and not invert and maxc < 0 and comp.min_width > 0 and not stop_first
            and verify is None and not lower
        )
        selected = 0
        lineno = 0  # newlines before the current block
        binary = None if not self.binary_ok and not self.zero else False
        dense = False
        for raw in _blocks(f, self.ctx, self.zero):
            if binary is None:
                binary = _NUL in raw
                if binary and self.skip_binary:
                    return 0
            block: Any = raw.decode("utf-8", "surrogateescape") if text else raw
            if fast_count:
                if self._count_lines is None:
                    self._count_lines = _line_counter(regex, text)
                selected += self._count_lines(block)
                continue
            out: list[Any] = []
            if dense and not binary and not only:
                # -- dense: filter the block's lines ---------------------------------
                # in pieces whose lines together stay within the engine's budget
                hits: list[Any] = []
                nlines = 0
                for piece, pat in _line_chunks(regex, block):
                    lines = piece.split(nl)
                    lines.pop()
                    fs = pat.search
                    if plain is not None:  # no call per line
                        hits += compress(enumerate(lines, lineno + nlines + 1) if numbers
                                         else lines, plain.holds(lines, piece, invert))
                    elif numbers:
                        first = lineno + nlines + 1
                        hits += (
                            [(i, ln) for i, ln in enumerate(lines, first) if not fs(ln)]
                            if invert else
                            [(i, ln) for i, ln in enumerate(lines, first) if fs(ln)]
                        )
                    else:
                        hits += (
                            [ln for ln in lines if not fs(ln)] if invert
                            else [ln for ln in lines if fs(ln)]
                        )
                    nlines += len(lines)
                if maxc >= 0 and selected + len(hits) > maxc:
                    del hits[maxc - selected :]
                selected += len(hits)
                lineno += nlines
                if summary:
                    if stop_first and hits:
                        raise _Stop(selected)
                elif numbers:
                    if text:
                        out = [f"{pre}{i}:{ln}\n" for i, ln in hits]
                    else:
                        out = [b"%s%d:%s\n" % (pre, i, ln) for i, ln in hits]
                elif hits:
                    if pre:
                        out = [pre, (nl + pre).join(hits), nl]
                    else:
                        out = [nl.join(hits), nl]
                nm = nlines - len(hits) if invert else len(hits)
                if not (nm * 5 > nlines or (invert and (numbers or pre))):
                    dense = False
            else:
                # -- sparse: let the regex engine find the next matching line ------
                hay = block.lower() if lower else block
                pos = 0
                gstart = 0  # for -v: where the current run of unselected lines starts
                counted = 0  # newlines in block[:counted] are already in lineno
                end = len(block)
                last = end - 1  # the final newline: a match there would be a phantom line
                nmatched = 0
                # the block in ranges of whole lines, each searched on the engine that
                # keeps one call short (kernel.text.engine.windows)
                ranges = _windows(pre_re, hay, last)
                wend = -1
                wpat: Any = pre_re
                while True:
                    if needle is not None:  # a plain string's search, without a call
                        s = hay.find(needle, pos, last)
                    else:
                        m = None
                        while pos < end:
                            if pos >= wend and wend < last:
                                _, wend, wpat = next(ranges)
                                search = wpat.search
                                continue
                            m = search(hay, pos, wend)
                            if m is not None or wend >= last:
                                break
                            pos = wend
                        s = -1 if m is None else m.start()
                    if s < 0:
                        if not invert:
                            break
                        ls = le = end
                    else:
                        ls = block.rfind(nl, 0, s) + 1
                        le = block.find(nl, s)
                        if le < 0:
                            le = end - 1
                        pos = le + 1
                        if verify is not None and verify(block, ls, le) is None:
                            continue
                    nmatched += 1
                    if invert:
                        if ls > gstart:
                            gap = block[gstart:ls]
                            n = gap.count(nl)
                            if maxc >= 0 and selected + n >= maxc:
                                n = maxc - selected
                                gap = nl.join(gap.split(nl)[:n]) + nl
                            selected += n
                            # a NUL-binary file shows "binary file matches", not lines
                            stop_bin = bool(binary) and not summary
                            if stop_bin:
                                gap = empty
                            if summary:
                                if stop_first:
                                    raise _Stop(selected)
                            elif only:
                                pass
                            elif numbers or pre:
                                lineno += block.count(nl, counted, gstart)
                                counted = gstart
                                for k, line in enumerate(gap.split(nl)[:-1], lineno + 1):
                                    if text:
                                        out.append(f"{pre}{k}:{line}\n" if numbers else pre + line + nl)
                                    else:
                                        out.append(b"%s%d:%s\n" % (pre, k, line) if numbers
                                                   else pre + line + nl)
                            else:
                                out.append(gap)
                            if stop_bin:
                                self.binary_match(name)
                            if maxc >= 0 and selected >= maxc:
                                break
                        gstart = le + 1
                        if s < 0:
                            break
                        continue
                    selected += 1
                    if summary:
                        if stop_first:
                            raise _Stop(selected)
                    elif binary:
                        self.binary_match(name)
                    else:
                        num: Any = empty
                        if numbers:
                            lineno += block.count(nl, counted, ls)
                            counted = ls
                            num = (f"{lineno + 1}:" if text else b"%d:" % (lineno + 1))
                        if only and type(regex) is LiteralPattern:
                            # each match of a plain string is that string
                            out += [pre + num + regex.needle + nl] * block.count(
                                regex.needle, ls, le)
                        elif only:
                            # the line lies in the current range: its engine will do
                            fi = wpat.finditer if pre_re is regex else regex.finditer
                            for mm in fi(block, ls, le):
                                if mm.end() > mm.start(kg):
                                    out.append(pre + num + mm.group(kg) + nl)
                        else:
                            out.append(pre + num + block[ls : le + 1])
                    if selected == maxc:
                        break
                if numbers:
                    lineno += block.count(nl, counted)
                # the density choice only steers speed: a sample's line count will do
                # (counting a whole block's newlines costs a third of a sparse scan)
                nlines = block.count(nl) if end <= _SAMPLE else \
                    block.count(nl, 0, _SAMPLE) * end // _SAMPLE
                if nmatched * 5 > nlines or (invert and (numbers or pre) and not summary):
                    dense = True
            if out:
                self.emit(self.enc(empty.join(out)))
            if maxc >= 0 and selected >= maxc:
                break
        return selected

    def binary_match(self, name: str) -> None:
        self.say(f"{name}: binary file matches")
        raise _Stop(1)

    def scan_lines(self, f: IO[bytes] | bytes, name: str) -> int:
        """Line at a time: context lines, `--` separators, byte offsets and JSON records."""
        text, search, invert = self.text, self.regex.search, self.invert
        # a plain string tests each block's lines in C (holds) rather than by a call each
        plain = self.regex if isinstance(self.regex, PLAIN) else None
        before: collections.deque[tuple[int, Any, int]] = collections.deque(
            maxlen=self.before or None
        )
        use_before = self.before > 0
        after_left = 0
        maxc = self.max if self.max is not None else -1
        selected = 0
        lineno = 0
        offset = 0  # -b: the byte offset of the current line
        offsets = self.offsets
        summary = self.summary
        stop_first = self.stop_first
        sep_ctx = self.ctx_given and self.group_sep is not None
        last_printed = 0  # the last line number written for this file
        out: list[str] = []
        binary = None if not self.binary_ok and not self.zero else False
        done = maxc == 0
        fmt = self.fmt
        for raw in _blocks(f, self.ctx, self.zero):
            if binary is None:
                binary = _NUL in raw
                if binary and self.skip_binary:
                    return 0
            block: Any = raw.decode("utf-8", "surrogateescape") if text else raw
            lines = block.split("\n" if text else b"\n")
            lines.pop()
            holds = None if plain is None else iter(plain.holds(lines, block))
            for line in lines:
                lineno += 1
                here = offset
                if offsets:
                    offset += (len(line.encode("utf-8", "surrogateescape")) if text
                               else len(line)) + 1
                if holds is not None:
                    hit = (not next(holds)) == invert
                else:
                    hit = (search(line) is not None) != invert
                if hit and not done:
                    selected += 1
                    if summary:
                        if stop_first:
                            raise _Stop(selected)
                        if selected == maxc:
                            done = True
                        continue
                    if binary:
                        self.binary_match(name)
                    if self.json:
                        self.add_record(name, lineno, line)
                    else:
                        if sep_ctx and self.last_group_end is not None and (
                            last_printed == 0 or lineno - len(before) > last_printed + 1
                        ):
                            out.append(f"{self.group_sep}\n")
                        if not self.only:  # -o shows no context lines, only the `--`
                            for bn, bl, bo in before:
                                out.append(fmt(name, bn, bl, "-", bo))
                        before.clear()
                        if self.only and not invert:
                            for mm in self.regex.finditer(line):
                                if mm.end() > mm.start(self.kg):
                                    at = here
                                    if offsets:
                                        head = line[: mm.start(self.kg)]
                                        at += len(head.encode("utf-8", "surrogateescape")
                                                  if text else head)
                                    out.append(fmt(name, lineno, mm.group(self.kg), ":", at))
                        elif not self.only:
                            out.append(fmt(name, lineno, line, ":", here))
                        last_printed = lineno
                        self.last_group_end = lineno
                    after_left = self.after
                    if selected == maxc:
                        done = True
                elif after_left > 0 and not summary and not self.json:
                    if not self.only:
                        out.append(fmt(name, lineno, line, "-", here))
                    last_printed = lineno
                    after_left -= 1
                elif done:
                    break
                elif use_before:
                    before.append((lineno, line, here))
            self.flush_lines(out)
            out = []
            if done and after_left == 0:
                break
        return selected

    def flush_lines(self, out: list[str]) -> None:
        if out:
            self.emit("".join(out).encode("utf-8", "surrogateescape"))
            out.clear()

    def fmt(self, name: str, lineno: int, line: Any, sep: str, offset: int = 0) -> str:
        if not self.text:
            line = line.decode("utf-8", "surrogateescape")
        pre = name + (self.name_end or sep) if self.show_names else ""
        num = f"{lineno}{sep}" if self.numbers else ""
        if self.offsets:
            num += f"{offset}{sep}"
        return f"{pre}{num}{line}\n"

    def add_record(self, name: str, lineno: int, line: Any) -> None:
        if not self.text:
            line = line.decode("utf-8", "surrogateescape")
        if self.only and not self.invert:
            for mm in self.regex.finditer(line if self.text else line.encode("utf-8", "surrogateescape")):
                if mm.end() > mm.start(self.kg):
                    g = mm.group(self.kg)
                    g = g if self.text else g.decode("utf-8", "surrogateescape")
                    self.records.append({"path": name, "line": lineno, "text": g})
        else:
            self.records.append({"path": name, "line": lineno, "text": line})


def _patterns(args: GrepArgs, ctx: Context) -> tuple[list[str], list[str]] | str:
    """(patterns, file operands), or an error message."""
    operands = list(args.operands)
    pats: list[str] = []
    for p in args.regexp:
        pats.extend(p.split("\n"))
    for name in args.file:
        try:
            data = ctx.stdin.read() if is_stdin(name) else ctx.fs.read_bytes(ctx.path(name))
        except FsError as e:
            return f"{name}: {e.reason}"
        text = data.decode("utf-8", "surrogateescape")
        if text.endswith("\n"):
            text = text[:-1]
        if text or data:
            pats.extend(text.split("\n"))
    if not args.regexp and not args.file:
        if not operands:
            return "usage"
        pats.extend(operands.pop(0).split("\n"))
    return pats, operands


def _summary(args: GrepArgs) -> bool:
    """Whether only a status, counts or names are written (their records are the value,
    made as they are written)."""
    return bool(args.quiet or args.files_with_matches or args.files_without_match
                or args.count)


def _kind(args: GrepArgs) -> Kind:
    if args.fixed_strings:
        return "fixed"
    if args.perl_regexp:
        return "perl"
    if args.extended_regexp:
        return "ere"
    return "bre"


def _line_counter(regex: Any, text: bool) -> Callable[[Any], int]:
    """How many lines of a block hold a match (grep -c's count of a block)."""
    if type(regex) is LiteralPattern:
        return regex.count_lines
    count_re = engine.compile(
        (("(?:" if text else b"(?:") + regex.pattern + (")" if text else b")"))
        + ("[^\n]*" if text else b"[^\n]*"),
        regex.flags,
    )
    return lambda block: len(count_re.findall(block))


def _windows(p: Any, hay: Any, last: int) -> Iterator[tuple[int, int, Any]]:
    """engine.windows over hay[:last]; a plain pattern searches it in one range, as
    `re` itself would."""
    if isinstance(p, PLAIN):
        return iter(((0, last, p),))
    return engine.windows(p, hay, 0, last)


def _line_chunks(p: Any, block: Any) -> Iterator[tuple[Any, Any]]:
    """engine.line_chunks; a plain pattern takes the block in one piece, as `re` would."""
    if isinstance(p, PLAIN):
        return iter(((block, p),))
    return engine.line_chunks(p, block)


def _enter(g: _Grep, args: GrepArgs, ctx: Context, root: str, shown: str,
           above: tuple[tuple[int, int], ...]) -> _Frame | None:
    """A directory opened for the walk, its entries sorted; None when it is not to be
    walked (an error, reported, or under -R a directory already on the path being
    walked: a symlink cycle, reported as GNU does)."""
    fs = ctx.fs
    if args.dereference_recursive:
        try:
            st = fs.stat(root)
            key = (st.dev, st.ino)
        except FsError:
            key = (0, 0)
        if key != (0, 0):
            if key in above:
                if not g.no_messages:
                    g.say(f"{shown}: warning: recursive directory loop")
                return None
            above = (*above, key)
    try:
        d = fs.open_dir(root)
    except FsError as e:
        g.fail(f"{shown or '.'}: {e.reason}")
        return None
    try:
        # by name alone: names are unique, and comparing strings costs less than
        # comparing the pairs
        entries = sorted(d.entries(), key=itemgetter(0))
        ctx.shell.check_boundary()
    except BaseException as e:
        d.close()
        if not isinstance(e, FsError):
            raise
        g.fail(f"{shown or '.'}: {e.reason}")
        return None
    base = shown.rstrip("/") + "/" if shown else ""
    return d, iter(entries), root.rstrip("/") + "/", base, above


def _walk(g: _Grep, args: GrepArgs, ctx: Context, root: str, shown: str) -> bool:
    """Search every file under a directory, honouring the filters, in sorted order; False
    when -q has its answer. Each directory is opened once (fs.open_dir) and its files
    are read from it, a small one whole in one read, a run of them in one batch. The
    walk keeps its own stack (one open directory a level), not Python's. Devices, FIFOs
    and sockets met on the way are skipped, as GNU's `-D read` reads only those named on
    the command line."""
    fs = ctx.fs
    follow = args.dereference_recursive
    excluded = args.exclude_dir
    named = bool(args.include or args.exclude)
    stack: list[_Frame] = []
    todo: tuple[str, str, tuple[tuple[int, int], ...]] | None = (root, shown, ())
    g.walking = True
    run: list[str] = []  # files of the current directory met since its last subdirectory
    try:
        while True:
            if todo is not None:
                frame = _enter(g, args, ctx, *todo)
                todo = None
                if frame is not None:
                    stack.append(frame)
            if not stack:
                return True
            d, entries, base_path, base, above = stack[-1]
            for name, kind in entries:
                if kind == "file":
                    if not named or _name_ok(args, name):
                        run.append(name)
                    continue
                if kind == "symlink":
                    if not follow:
                        continue
                    try:
                        kind = fs.stat(base_path + name).kind
                    except FsError:
                        kind = "file"  # a broken or refused link: opening it tells why
                    if kind == "file":
                        if not named or _name_ok(args, name):
                            run.append(name)
                        continue
                if kind == "directory" and (
                        not excluded or not any(fnmatch.fnmatchcase(name, p) for p in excluded)):
                    # the files before it first, as sorted order has them
                    if run and not _search_run(g, ctx, d, base, run):
                        return False
                    todo = (base_path + name, base + name, above)
                    break
            else:
                if run and not _search_run(g, ctx, d, base, run):
                    return False
                stack.pop()[0].close()
    finally:
        g.walking = False
        for frame in stack:
            frame[0].close()


def _search_run(g: _Grep, ctx: Context, d: DirHandle, base: str, run: list[str]) -> bool:
    """Search the files `run` names in the directory `d`, in order, and empty the list;
    False when -q has its answer. A file read whole in which the search finds nothing
    is done after that one search when it would write nothing (g.pass_over); a plain
    string's search is then the filesystem's own (read_files leaves out a file that does
    not hold g.absent), or, for a string matched lowered, a test of the file lowered."""
    pass_over = g.pass_over
    # may_match, inline: most files of a tree are passed over after this one search
    lower = g.comp.lower
    pre_search = g.pre_search
    absent = g.absent if lower else None
    without = None if lower else g.absent
    # a cancel or a deadline stops a big directory: checked between slices of its files
    slices = [run] if len(run) <= _SLICE else [
        run[at:at + _SLICE] for at in range(0, len(run), _SLICE)]
    try:
        for k, names in enumerate(slices):
            if k:
                ctx.shell.check_boundary()
            for name, got in d.read_files(names, READ_SIZE, without):
                if isinstance(got, bytes):
                    if absent is not None:
                        # `absent in got` would first try the needle as an int (a
                        # TypeError raised and cleared); partition takes its one argument
                        # as it is, and returns the data itself when the needle is not in it
                        if not got.lower().partition(absent)[1]:
                            continue
                    elif without is None and pass_over and got[-1:] == b"\n":
                        hay = got.lower() if lower else got
                        if pre_search(hay, 0, len(hay) - 1) is None:
                            continue
                    _search_bytes(g, got, base + name)
                elif isinstance(got, FsError):
                    g.fail(f"{base + name}: {got.reason}")
                    continue
                else:
                    _search_file(g, got, base + name)
                if g.quiet and g.any_selected:
                    return False
    finally:
        run.clear()
    return True


def _name_ok(args: GrepArgs, fname: str) -> bool:
    if args.include and not any(fnmatch.fnmatchcase(fname, p) for p in args.include):
        return False
    return not (args.exclude and any(fnmatch.fnmatchcase(fname, p) for p in args.exclude))


def _operand_matches(name: str, globs: tuple[str, ...]) -> bool:
    """GNU matches a command-line name's globs against any trailing part (`sub` ~ `d/sub`)."""
    parts = name.split("/")
    tails = [t for k in range(len(parts)) if (t := "/".join(parts[k:]))]
    return any(fnmatch.fnmatchcase(t, g) for g in globs for t in tails)


def _search_bytes(g: _Grep, got: bytes, shown: str) -> None:
    """Search a file of a directory being walked, read whole."""
    try:
        g.search(got, shown)
    except OSError as e:
        if isinstance(e, BrokenPipeError):
            raise
        g.fail(f"{shown}: {e.strerror or e}")


def _run_file(g: _Grep, ctx: Context, shown: str, path: str) -> None:
    try:
        f = ctx.fs.open(path, "rb")
    except FsError as e:
        g.fail(f"{shown}: {e.reason}")
        return
    _search_file(g, f, shown)


def _search_file(g: _Grep, f: IO[bytes], shown: str) -> None:
    try:
        g.search(f, shown)
    except OSError as e:
        if isinstance(e, BrokenPipeError):
            raise
        g.fail(f"{shown}: {e.strerror or e}")
    finally:
        f.close()


def check_grep(args: GrepArgs) -> list[str]:
    """The compile error of each literal grep pattern (-e or the first operand)."""
    if args.fixed_strings:
        return []
    kind: Kind = "perl" if args.perl_regexp else "ere" if args.extended_regexp else "bre"
    if args.regexp:
        pats: list[str] = [p for e in args.regexp for p in e.split("\n")]
    elif args.file or not args.operands:
        return []
    else:
        pats = args.operands[0].split("\n")
    out: list[str] = []
    for p in pats:
        if literal_of((p,), kind) is not None:
            continue  # a plain string is always a valid pattern
        msg = rx.validate(p, kind)
        if msg is not None:
            out.append(f"grep: {msg}")
    return out


@tool(
    "grep", kind="search", paths=["operands"], script_params=["regexp", "file"], check=check_grep,
    args=GrepArgs,
    description="print lines that match patterns",
    examples=[
        ("lines with ERROR, numbered", "grep -n ERROR app.log"),
        ("extended regex, case-insensitive", "grep -Ei 'warn|error' app.log"),
        ("count matches per file", "grep -c TODO *.py"),
        ("search a tree for a word", "grep -rw --include='*.py' main src"),
        ("matches as JSON records", "grep -n --json TODO notes.txt"),
    ],
)
def grep(args: GrepArgs, ctx: Context) -> int | Outcome:
    got = _patterns(args, ctx)
    if isinstance(got, str):
        if got == "usage":
            ctx.error("no pattern given\nUsage: grep [OPTION]... PATTERNS [FILE]...")
        else:
            ctx.error(got)
        return 2
    pats, files = got
    matchers = (args.extended_regexp, args.fixed_strings, args.basic_regexp, args.perl_regexp)
    if sum(matchers) > 1:
        ctx.error("conflicting matchers specified")
        return 2
    for v in (args.after_context, args.before_context, args.context):
        if v is not None and v < 0:
            ctx.error(f"{v}: invalid context length argument")
            return 2
    icase = args.ignore_case and not args.no_ignore_case
    kind, word = _kind(args), args.word_regexp and not args.line_regexp
    comp = compile_literal(tuple(pats), kind, ignore_case=icase, word=word,
                           line=args.line_regexp)
    if comp is None:
        try:
            comp = rx.compile_patterns(tuple(pats), kind, ignore_case=icase, word=word,
                                       line=args.line_regexp)
        except rx.RegexError as e:
            ctx.error(e.message)
            return 2
    for w in comp.warnings:
        ctx.error(f"warning: {w}")
    # GNU gives up before reading anything when nothing can be selected: `-m 0`, `-v ''`,
    # and no pattern at all (`-f /dev/null`); only -L still lists the files
    nothing = not pats and not args.invert_match or (
        pats and not any(pats) and args.invert_match
        and not args.line_regexp and not args.word_regexp
    )
    if (args.max_count == 0 or nothing) and not args.files_without_match:
        return 1
    recursive = args.recursive or args.dereference_recursive or args.directories == "recurse"
    implicit = recursive and not files
    if implicit:
        files = ["."]
    show = len(files) > 1 or (
        recursive and any(f != "-" and ctx.fs.is_dir(ctx.path(f)) for f in files)
    )
    g = _Grep(args, ctx, comp, show)
    for name in files or ["-"]:
        if is_stdin(name):
            g.search(ctx.stdin, (STDIN_LABEL if name == "-" else name) if args.label is None
                     else args.label)
        else:
            path = ctx.path(name)
            if ctx.fs.is_dir(path):
                if args.directories == "skip" and not recursive:
                    continue
                if (recursive and not implicit and args.exclude_dir
                        and _operand_matches(name, args.exclude_dir)):
                    continue
                if not recursive:
                    g.fail(f"{name}: Is a directory")
                    continue
                more = _walk(g, args, ctx, path, "" if implicit else name)
                g.out.flush()
                if not more:
                    return 0
                continue
            # --include/--exclude apply to command-line files too, -r or not
            if args.include and not _operand_matches(name, args.include):
                continue
            if args.exclude and _operand_matches(name, args.exclude):
                continue
            _run_file(g, ctx, name, path)
        if g.quiet and g.any_selected:
            return 0
    code = 0 if g.any_selected else 1
    if g.error and not (g.quiet and g.any_selected):
        code = 2
    records = g.records
    if ctx.json:
        return Outcome(code=code, output=OutputData(rich_json=records))
    if g.count or g.list_yes or g.list_no:
        # per-file results cost one record a file: the typed value is kept
        return Outcome(code=code, output=OutputData.value(lambda: records))
    inputs = g.kept
    if inputs is None or g.quiet:
        return code
    # matching lines: the fast scan counts no line numbers, so the value numbers them
    # when first read, by the `--json` scan over the inputs kept; the run keeps no
    # stream of the command's (a binary file's notice goes nowhere then)
    quiet = io.BytesIO()
    g.ctx = ctx.evolve(stdin=quiet, stdout=quiet, stderr=quiet)
    g.out = quiet
    g.walking = False
    return Outcome(code=code, output=OutputData.value(lambda: g.value(inputs)))


class _CopyReader:
    """An input stream that keeps a copy of what grep reads from it, up to `room`
    bytes; past that it keeps nothing (`copied()` is None)."""

    __slots__ = ("f", "room", "parts")

    def __init__(self, f: IO[bytes], room: int) -> None:
        self.f = f
        self.room = room
        self.parts: list[bytes] | None = []

    def read1(self, n: int = -1) -> bytes:
        read = getattr(self.f, "read1", self.f.read)
        return self._keep(read(n))

    def read(self, n: int = -1) -> bytes:
        return self._keep(self.f.read(n))

    def _keep(self, chunk: bytes) -> bytes:
        parts = self.parts
        if parts is not None and chunk:
            self.room -= len(chunk)
            if self.room < 0:
                self.parts = None
            else:
                parts.append(chunk)
        return chunk

    def copied(self) -> bytes | None:
        return None if self.parts is None else b"".join(self.parts)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.f, name)


TOOLS = [grep]
