"""Reading a patch: where each file's diff starts, what it names, and its hunks.

The reader follows GNU patch's rules, because a patch that GNU patch applies must apply
here the same way: the diff type is guessed from the first lines that look like one
(unified `@@ -`, context `***`/`---`, normal `1c1`), leading text is skipped, headers
give the old, new and `Index:` names with their timestamps (an epoch timestamp or
`/dev/null` says the file does not exist), git's extended headers give modes, renames
and creations, lines starting with `#` are comments, and `\\ No newline at end of
file` marks the line before it as incomplete. Every hunk is held in one shape whatever
its format: the old side and the new side, each a list of (mark, line) with marks
` `, `-`, `+` and `!` (a context diff's changed lines). Text is bytes throughout."""

from __future__ import annotations

import enum
import re
from collections.abc import Callable

from tysh.kernel.base.record import MutableRecord, field, mutable

OLD, NEW, INDEX = 0, 1, 2

S_IFMT = 0o170000
S_IFREG = 0o100000


class DiffType(enum.Enum):
    NONE = "none"
    ED = "ed"
    NORMAL = "normal"
    CONTEXT = "context"
    NEW_CONTEXT = "new-context"
    UNIFIED = "unified"
    GIT_BINARY = "git-binary"


class PatchFatal(Exception):  # noqa: N818 — GNU's word for an error that stops patch
    """A patch that cannot be read on: patch stops with status 2 (`patch: **** …`)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@mutable
class Hunk(MutableRecord):
    """One hunk: `old` and `new` are (mark, line) lists; a line keeps its newline
    unless the diff marked it incomplete. `first`/`newfirst` are GNU's (an insertion
    counts from the line after the one it follows)."""

    first: int
    newfirst: int
    old: list[tuple[str, bytes]]
    new: list[tuple[str, bytes]]
    prefix_context: int
    suffix_context: int
    c_function: bytes | None
    beg: int  # patch line of the hunk's first line, for messages
    # a context diff's blank separator line between the sides (GNU keeps it)
    blank_between: bytes | None = None

    def swap(self) -> None:
        """Reverse the hunk (`-R`): the new side becomes the old one."""
        self.first, self.newfirst = self.newfirst, self.first
        self.old, self.new = (
            [("-" if m == "+" else m, t) for m, t in self.new],
            [("+" if m == "-" else m, t) for m, t in self.old],
        )


@mutable
class Header(MutableRecord):
    """What the lines before one file's hunks say."""

    diff_type: DiffType
    names: list[str | None]  # OLD, NEW, INDEX, already stripped by -p
    timestr: list[bytes | None]  # the text after each name, as rejects repeat it
    stamp: list[int]  # -1: none or unreadable, 0: the epoch (no such file), 1: a date
    says_nonexistent: list[int]  # per side: 0 exists, 1 exists and maybe empty, 2 absent
    git: bool = False
    modes: list[int] = field(factory=lambda: [0, 0])
    rename: list[bool] = field(factory=lambda: [False, False])
    copy: list[bool] = field(factory=lambda: [False, False])
    file_type: int = S_IFREG
    start: int = 0  # index of the first line of the diff proper
    start_line: int = 0  # its line number, for messages
    base: int = 0  # where the search for this diff began
    indent: int = 0
    strip_cr: bool = False
    nesting: int = 0
    revision: str | None = None


# -------------------------------------------------------------------------- names


def _is_space(c: int) -> bool:
    return c in b" \t\n\r\v\f"


_C_ESCAPES = {ord("a"): 7, ord("b"): 8, ord("f"): 12, ord("n"): 10, ord("r"): 13,
              ord("t"): 9, ord("v"): 11, ord("\\"): 92, ord('"'): 34}


def parse_c_string(s: bytes, i: int) -> tuple[bytes | None, int]:
    """A "quoted" name as diff and git write it (C escapes); (None, …) when malformed.
    Returns the name and the index after the closing quote."""
    assert s[i] == ord('"')
    i += 1
    out = bytearray()
    while i < len(s):
        c = s[i]
        i += 1
        if c == ord('"'):
            return bytes(out), i
        if c == ord("\\"):
            if i >= len(s):
                return None, i
            c = s[i]
            i += 1
            if c in _C_ESCAPES:
                out.append(_C_ESCAPES[c])
            elif ord("0") <= c <= ord("3"):
                digits = s[i - 1:i + 2]
                if len(digits) < 3 or not all(ord("0") <= d <= ord("7") for d in digits):
                    return None, i
                out.append(int(digits, 8))
                i += 2
            else:
                return None, i
        elif c == ord("\n"):
            return None, i
        else:
            out.append(c)
    return None, i


def strip_leading(name: bytes, strip: int) -> bytes | None:
    """`-p N`: drop N leading components (all of them when N is -1, as with no -p);
    None when the name has too few."""
    s = strip
    n = 0
    p = 0
    while p < len(name):
        if name[p] == ord("/"):
            while p + 1 < len(name) and name[p + 1] == ord("/"):
                p += 1
            if strip < 0:
                n = p + 1
            else:
                s -= 1
                if s >= 0:
                    n = p + 1
        p += 1
    if (strip < 0 or s <= 0) and n < len(name):
        return name[n:]
    return None


_ISO = re.compile(rb"\s*(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?"
                  rb"\s*(?:([+-])(\d\d):?(\d\d)|(Z|UTC|GMT))?\s*$")
_CTIME = re.compile(rb"\s*(?:[A-Za-z]{3},?\s+)?([A-Za-z]{3})\s+(\d{1,2})\s+(\d\d):(\d\d)"
                    rb"(?::(\d\d))?\s+(?:([A-Z]{3,4}|[+-]\d{4})\s+)?(\d{4})\s*$")
_MONTHS = [b"jan", b"feb", b"mar", b"apr", b"may", b"jun", b"jul", b"aug", b"sep", b"oct",
           b"nov", b"dec"]


def date_stamp(text: bytes) -> int:
    """A header date as the reader needs it: 0 when it is within a day of the epoch
    (diff's mark of a file that does not exist), 1 for another date, -1 when it is
    not a date."""
    import calendar

    m = _ISO.match(text)
    secs: int | None = None
    if m is not None:
        y, mo, d, hh, mm = (int(m.group(k)) for k in range(1, 6))
        ss = int(m.group(6) or 0)
        try:
            secs = calendar.timegm((y, mo, d, hh, mm, ss, 0, 0, 0))
        except (ValueError, OverflowError):
            return -1
        if m.group(7):
            off = int(m.group(8)) * 3600 + int(m.group(9)) * 60
            secs -= off if m.group(7) == b"+" else -off
    else:
        c = _CTIME.match(text)
        if c is None:
            return -1
        mon = c.group(1).lower()
        if mon not in _MONTHS:
            return -1
        try:
            secs = calendar.timegm((int(c.group(7)), _MONTHS.index(mon) + 1, int(c.group(2)),
                                    int(c.group(3)), int(c.group(4)), int(c.group(5) or 0),
                                    0, 0, 0))
        except (ValueError, OverflowError):
            return -1
    return 0 if -25 * 3600 < secs < 26 * 3600 else 1


@mutable
class Name(MutableRecord):
    """A name read from a header line: None when absent, `/dev/null` or unusable."""

    name: bytes | None
    timestr: bytes | None = None
    stamp: int = -1


def fetchname(line: bytes, strip: int, want_stamp: bool) -> Name | None:
    """The file name (and what follows it) at the start of `line`; None when the line
    names nothing usable (then the previous name, if any, stays)."""
    i = 0
    while i < len(line) and _is_space(line[i]):
        i += 1
    at = line[i:]
    if at.startswith(b'"'):
        name, t = parse_c_string(at, 0)
        if name is None:
            return None
    else:
        t = 0
        while t < len(at):
            if _is_space(at[t]):
                # a space inside a name is allowed only when a tab separates the name
                # from the date
                u = t
                while at[u] != ord("\t") and u + 1 < len(at) and _is_space(at[u + 1]):
                    u += 1
                if at[u] != ord("\t") and (b"\t" if want_stamp else b"\n") in at[u + 1:]:
                    t += 1
                    continue
                break
            t += 1
        name = at[:t]
    if name == b"/dev/null":
        return Name(None, None, 0 if want_stamp else -1)
    stripped = strip_leading(name, strip)
    if stripped is None:
        return None
    rest = at[t:]
    timestr = rest
    if timestr.endswith(b"\n"):
        timestr = timestr[:-1]
    if timestr.endswith(b"\r"):
        timestr = timestr[:-1]
    stamp = -1
    if rest[:1] != b"\n" and rest:
        if not want_stamp:
            return None
        stamp = date_stamp(timestr)
    return Name(stripped, timestr, stamp)


def parse_git_name(s: bytes, i: int, strip: int) -> tuple[bytes | None, int]:
    """One name of a `diff --git a/x b/x` line (quoted or up to a space)."""
    while i < len(s) and _is_space(s[i]):
        i += 1
    if s[i:i + 1] == b'"':
        got, j = parse_c_string(s, i)
        if got is None:
            return None, j
    else:
        j = i
        while j < len(s) and not _is_space(s[j]):
            j += 1
        got = s[i:j]
    return strip_leading(got, strip), j


def _fetchmode(s: bytes) -> int:
    s = s.lstrip()
    digits = s[:6]
    if len(digits) < 6 or not all(ord("0") <= c <= ord("7") for c in digits):
        return 0
    rest = s[6:]
    if rest.startswith(b"\r"):
        rest = rest[1:]
    if not rest.startswith(b"\n"):
        return 0
    return int(digits, 8)


_EMPTY_SHA1 = b"e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"


def _sha1_says_nonexistent(sha: bytes) -> int:
    if sha and all(c == ord("0") for c in sha):
        return 2
    return 1 if _EMPTY_SHA1.startswith(sha) else 0


# -------------------------------------------------------------------------- the reader


class Reader:
    """GNU patch's patch-file reader over the patch's lines: `next_header()` finds the
    next file's diff, `next_hunk()` reads its hunks one at a time. Messages GNU prints
    while reading go to `say`."""

    def __init__(self, data: bytes, strip: int, say: Callable[[str], None],
                 forced: DiffType | None = None, binary: bool = False) -> None:
        self.lines = data.splitlines(keepends=True)
        self.size = len(data)
        self.strip = strip
        self.say = say
        self.forced = forced  # -u, -c, -n, -e
        self.binary = binary  # --binary: keep CRs
        self.pos = 0  # index of the next line to read
        self.input_line = 0  # number of the last line read
        self.base = 0  # where the next search begins
        self.base_line = 1
        self.header: Header | None = None
        self.prev_prefix = 0  # the last hunk's prefix context (see _context_hunk)
        # the last hunk's numbers: GNU keeps them, and a mangled context hunk that
        # lacks its `***` line is judged by them
        self.last_numbers = (0, 0, 0, 0)

    # ---------------------------------------------------------------- lines
    def _get(self, indent: int = 0, nesting: int = 0, strip_cr: bool = False) -> bytes | None:
        """The next line with `indent` columns of indentation and `nesting` RFC 934
        `- ` prefixes removed; comment lines are skipped; None at the end (a last line
        without a newline ends the patch, with GNU's warning)."""
        while True:
            if self.pos >= len(self.lines):
                return None
            raw = self.lines[self.pos]
            self.pos += 1
            k = 0
            col = 0
            while k < len(raw) and col < indent:
                c = raw[k]
                if c in b" X":
                    col += 1
                elif c == ord("\t"):
                    col = (col + 8) & ~7
                else:
                    break
                k += 1
            if k >= len(raw):
                return None
            body = raw[k:]
            n = nesting
            while body.startswith(b"-") and n > 0:
                n -= 1
                if body[1:2] == b" ":
                    body = body[2:]
                else:
                    break
            if not body.endswith(b"\n"):
                self.say("patch unexpectedly ends in middle of line\n")
                return None
            self.input_line += 1
            if body.startswith(b"#"):
                continue
            if strip_cr and body.endswith(b"\r\n"):
                body = body[:-2] + b"\n"
            return body

    def get_line(self) -> bytes | None:
        h = self.header
        if h is None:
            return self._get()
        return self._get(h.indent, h.nesting, h.strip_cr)

    def _incomplete(self) -> bool:
        """Whether a `\\ No newline at end of file` line follows (it is consumed)."""
        if self.pos < len(self.lines) and self.lines[self.pos].startswith(b"\\"):
            self.pos += 1
            return True
        return False

    def seek(self, pos: int, line: int) -> None:
        self.pos = pos
        self.input_line = line - 1

    # ---------------------------------------------------------------- headers
    def at_end(self) -> bool:
        """Whether the input is used up (after at least one diff)."""
        return self.base != 0 and self.base >= len(self.lines)

    def next_header(self, need_header: bool) -> Header:
        """Find the next file's diff from where the last one ended; a Header of type
        NONE when the rest is not a diff."""
        self.last_numbers = (0, 0, 0, 0)
        h = self._intuit(need_header)
        if h.diff_type is not DiffType.NONE:
            self.header = h
        return h

    def _intuit(self, need_header: bool) -> Header:
        forced = self.forced
        if forced in (DiffType.ED, DiffType.NORMAL):
            need_header = False
        # GNU's slots: a unified diff's `---` fills NEW and `+++` fills OLD until the
        # `@@` line swaps them back
        names: list[bytes | None] = [None, None, None]
        timestr: list[bytes | None] = [None, None]
        stamp = [-1, -1]
        says = [0, 0]
        modes = [0, 0]
        rename = [False, False]
        copy = [False, False]
        git = False
        extended = False
        revision: str | None = None
        nesting = 0
        strip_cr_hdr = False
        first_command = -1
        first_command_line = 0
        first_ed_letter = ""
        p_indent = 0
        this_is_command = False
        stars_this = False
        indent = 0
        this_line = 0
        self.seek(self.base, self.base_line)
        result = DiffType.NONE
        start = 0
        start_line = 0

        def take(side: int, got: Name | None, with_time: bool = True) -> None:
            if got is None:
                return
            if got.name is not None:
                names[side] = got.name
                if side < 2 and with_time:
                    timestr[side] = got.timestr
            if side < 2 and with_time:
                stamp[side] = got.stamp

        while True:
            previous_line = this_line
            last_was_command = this_is_command
            stars_last = stars_this
            indent_last = indent
            indent = 0
            this_line = self.pos
            s = self._get()
            if s is None:
                if first_ed_letter:
                    start, start_line = first_command, first_command_line
                    result = DiffType.ED
                    break
                start, start_line = this_line, self.input_line
                if extended:
                    result = DiffType.UNIFIED
                    break
                return Header(DiffType.NONE, [None, None, None], [None, None], [-1, -1],
                              [0, 0], start=start, start_line=start_line, base=self.base)
            strip_cr = s.endswith(b"\r\n")
            k = 0
            while k < len(s) and s[k] in b" \tX":
                indent = (indent + 8) & ~7 if s[k] == ord("\t") else indent + 1
                k += 1
            s = s[k:]
            if s[:1].isdigit():
                m = _COMMAND_HEAD.match(s)
                if m is not None:
                    this_is_command = bool(_COMMAND_TAIL.match(s, m.end()))
            ed_letter = _ed_command_letter(s)
            if not need_header and first_command < 0 and (ed_letter or this_is_command):
                first_command = this_line
                first_ed_letter = ed_letter
                first_command_line = self.input_line
                p_indent = indent
                strip_cr_hdr = strip_cr
            if not stars_last and s.startswith(b"*** "):
                take(OLD, fetchname(s[4:], self.strip, True))
                need_header = False
            elif s.startswith(b"+++ "):
                take(OLD, fetchname(s[4:], self.strip, True))  # swapped at the @@ line
                need_header = False
                strip_cr_hdr = strip_cr
            elif s.startswith(b"Index:"):
                take(INDEX, fetchname(s[6:], self.strip, False), with_time=False)
                need_header = False
                strip_cr_hdr = strip_cr
            elif s.startswith(b"Prereq:"):
                words = s[7:].split()
                revision = words[0].decode("utf-8", "surrogateescape") if words else None
                if len(words) > 1:
                    self.say(f"Prereq: with multiple words at line {this_line} of patch\n")
            elif s.startswith(b"diff --git "):
                if extended:
                    start, start_line = this_line, self.input_line
                    result = DiffType.UNIFIED
                    break
                names[OLD] = names[NEW] = None
                a, j = parse_git_name(s, 11, self.strip)
                b: bytes | None = None
                if a is not None and j < len(s) and _is_space(s[j]):
                    b, j = parse_git_name(s, j, self.strip)
                    if b is not None and s[j:].strip():
                        b = None
                if a is not None and b is not None:
                    names[OLD], names[NEW] = a, b
                git = True
                need_header = False
            elif git and s.startswith(b"index "):
                m = _GIT_INDEX.match(s)
                if m is not None:
                    says[OLD] = _sha1_says_nonexistent(m.group(1))
                    says[NEW] = _sha1_says_nonexistent(m.group(2))
                    if m.group(3).strip():
                        modes[OLD] = modes[NEW] = _fetchmode(m.group(3))
                    extended = True
            elif git and s.startswith(b"old mode "):
                modes[OLD] = _fetchmode(s[9:])
                extended = True
            elif git and s.startswith(b"new mode "):
                modes[NEW] = _fetchmode(s[9:])
                extended = True
            elif git and s.startswith(b"deleted file mode "):
                modes[OLD] = _fetchmode(s[18:])
                says[NEW] = 2
                extended = True
            elif git and s.startswith(b"new file mode "):
                modes[NEW] = _fetchmode(s[14:])
                says[OLD] = 2
                extended = True
            elif git and s.startswith(b"rename from "):
                rename[OLD] = extended = True
            elif git and s.startswith(b"rename to "):
                rename[NEW] = extended = True
            elif git and s.startswith(b"copy from "):
                copy[OLD] = extended = True
            elif git and s.startswith(b"copy to "):
                copy[NEW] = extended = True
            elif git and s.startswith(b"GIT binary patch"):
                start, start_line = this_line, self.input_line
                result = DiffType.GIT_BINARY
                break
            else:
                t = 0
                while s[t:t + 2] == b"- ":
                    t += 2
                if s[t:t + 4] == b"--- ":
                    got = fetchname(s[t + 4:], self.strip, True)
                    if got is not None:
                        if got.name is not None:
                            names[NEW] = got.name
                            timestr[NEW] = got.timestr
                        if got.stamp != -1:
                            stamp[NEW] = got.stamp
                            nesting = t >> 1
                    need_header = False
                    strip_cr_hdr = strip_cr
            if need_header:
                continue
            if forced in (None, DiffType.ED) and first_command >= 0 and s == b".\n":
                start, start_line = first_command, first_command_line
                result = DiffType.ED
                break
            if forced in (None, DiffType.UNIFIED) and s.startswith(b"@@ -"):
                names[OLD], names[NEW] = names[NEW], names[OLD]
                timestr[OLD], timestr[NEW] = timestr[NEW], timestr[OLD]
                stamp[OLD], stamp[NEW] = stamp[NEW], stamp[OLD]
                m = _UNI_RANGES.match(s)
                if m is not None:
                    if m.group(1) == b"0":
                        says[OLD] = 1 + (stamp[OLD] == 0)
                    if m.group(2) == b"0":
                        says[NEW] = 1 + (stamp[NEW] == 0)
                p_indent = indent
                start, start_line = this_line, self.input_line
                result = DiffType.UNIFIED
                if not ((names[OLD] or stamp[OLD] == 0) and (names[NEW] or stamp[NEW] == 0)) \
                        and not names[INDEX] and need_header:
                    self.say(f"missing header for unified diff at line {start_line} of patch\n")
                break
            stars_this = s.startswith(b"********")
            if forced in (None, DiffType.CONTEXT, DiffType.NEW_CONTEXT) and stars_last \
                    and indent_last == indent and s.startswith(b"*** "):
                if s[4:5] == b"0" and not s[5:6].isdigit():
                    says[OLD] = 1 + (stamp[OLD] == 0)
                body = s.rstrip(b"\n")
                p_indent = indent
                strip_cr_hdr = strip_cr
                start, start_line = previous_line, self.input_line - 1
                result = DiffType.NEW_CONTEXT if body.endswith(b"*") else DiffType.CONTEXT
                # does the first hunk empty the file out?
                probe = Header(result, [None, None, None], [None, None], [-1, -1], [0, 0],
                               indent=p_indent, strip_cr=strip_cr_hdr, nesting=nesting)
                saved = (self.pos, self.input_line, self.header, self.base, self.base_line)
                self.header = probe
                self.seek(previous_line, self.input_line - 1)
                try:
                    first_hunk = self.next_hunk(result, False)
                finally:
                    self.pos, self.input_line, self.header, self.base, self.base_line = saved
                if first_hunk is not None and not first_hunk.new and first_hunk.newfirst == 1:
                    says[NEW] = 1 + (stamp[NEW] == 0)
                if not ((names[OLD] or stamp[OLD] == 0) and (names[NEW] or stamp[NEW] == 0)) \
                        and not names[INDEX] and need_header:
                    self.say(f"missing header for context diff at line {start_line} of patch\n")
                break
            if forced in (None, DiffType.NORMAL) and last_was_command and \
                    (s.startswith(b"< ") or s.startswith(b"> ")):
                start, start_line = previous_line, self.input_line - 1
                p_indent = indent
                result = DiffType.NORMAL
                break
        file_type = modes[OLD] & S_IFMT
        if file_type:
            nt = modes[NEW] & S_IFMT
            if nt and nt != file_type:
                file_type = 0
        else:
            file_type = modes[NEW] & S_IFMT or S_IFREG
        return Header(
            result,
            [n.decode("utf-8", "surrogateescape") if n else None for n in names],
            timestr, stamp, says, git=git, modes=modes, rename=rename, copy=copy,
            file_type=file_type, start=start, start_line=start_line, base=self.base,
            indent=p_indent, strip_cr=strip_cr_hdr and not self.binary, nesting=nesting,
            revision=revision)

    def leading_text(self, h: Header) -> list[bytes]:
        """The lines between where the search began and the diff (GNU shows them when
        it cannot tell which file to patch)."""
        return self.lines[h.base:h.start]

    def skip_to_start(self, h: Header) -> None:
        self.seek(h.start, h.start_line)

    # ---------------------------------------------------------------- hunks
    def next_hunk(self, diff_type: DiffType, reverse: bool) -> Hunk | None:
        """The next hunk of the current file, or None when its hunks end (the next
        search starts there). Raises PatchFatal on a malformed hunk."""
        if diff_type in (DiffType.CONTEXT, DiffType.NEW_CONTEXT):
            hunk = self._context_hunk(diff_type)
        elif diff_type is DiffType.UNIFIED:
            hunk = self._unified_hunk()
        else:
            # a normal diff; for anything else (a git binary diff) this only finds
            # where the next diff may start
            hunk = self._normal_hunk()
        if hunk is not None:
            self.prev_prefix = hunk.prefix_context
            if reverse:
                hunk.swap()
        return hunk

    def _next_intuit_at(self, pos: int, line: int) -> None:
        self.base = pos
        self.base_line = line

    def _malformed(self, line: bytes) -> PatchFatal:
        # GNU prints the line with its newline, so the message ends in a blank line
        return PatchFatal(f"malformed patch at line {self.input_line}: "
                          f"{line.decode('utf-8', 'surrogateescape')}")

    def _number(self, line: bytes, i: int) -> tuple[int, int]:
        """The line number at line[i:] and the index after it (GNU's scan_linenum)."""
        j = i
        while j < len(line) and line[j:j + 1].isdigit():
            j += 1
        if j == i:
            raise PatchFatal(f"missing line number at line {self.input_line}: "
                             f"{line.decode('utf-8', 'surrogateescape')}")
        n = int(line[i:j])
        if n >= 1 << 62:
            raise PatchFatal(f"line number {line[i:j].decode()} is too large at line "
                             f"{self.input_line}: {line.decode('utf-8', 'surrogateescape')}")
        return n, j

    def _unified_hunk(self) -> Hunk | None:
        begin = self.pos
        begin_line = self.input_line
        s = self.get_line()
        if s is None or len(s) <= 4 or not s.startswith(b"@@ -"):
            self._next_intuit_at(begin, begin_line + 1)
            return None
        first, k = self._number(s, 4)
        ptrn = 1
        if s[k:k + 1] == b",":
            ptrn, k = self._number(s, k + 1)
        if s[k:k + 1] == b" ":
            k += 1
        if s[k:k + 1] != b"+":
            raise self._malformed(s)
        newfirst, k = self._number(s, k + 1)
        repl = 1
        if s[k:k + 1] == b",":
            repl, k = self._number(s, k + 1)
        if s[k:k + 1] == b" ":
            k += 1
        if s[k:k + 1] != b"@":
            raise self._malformed(s)
        k += 1
        c_function: bytes | None = None
        if s[k:k + 1] == b"@" and s[k + 1:k + 2] == b" ":
            c_function = s[k + 1:].rstrip(b"\n")
        if not ptrn:
            first += 1
        if not repl:
            newfirst += 1
        old: list[tuple[str, bytes]] = []
        new: list[tuple[str, bytes]] = []
        beg = self.input_line + 1
        prefix = -1
        context = 0
        last = s
        while len(old) < ptrn or len(new) < repl:
            line = self.get_line()
            if line is None:
                # near the end, assume blank context lines lost their space
                if repl - 1 - len(new) < 3:
                    line = b" \n"
                else:
                    raise PatchFatal("unexpected end of file in patch")
            last = line
            if line[:1] in (b"\t", b"\n"):
                ch, text = " ", line  # the space got eaten
            else:
                ch, text = chr(line[0]), line[1:]
            if ch == "-":
                if len(old) >= ptrn:
                    raise self._malformed(line)
                if len(old) == ptrn - 1 and self._incomplete():
                    text = text[:-1]
                old.append(("-", text))
            elif ch in (" ", "="):
                if len(old) >= ptrn:
                    raise self._malformed(line)
                context += 1
                t_old = text
                if len(old) == ptrn - 1 and self._incomplete():
                    t_old = text[:-1]
                old.append((" ", t_old))
                if len(new) >= repl:
                    raise self._malformed(line)
                t_new = t_old
                if len(new) == repl - 1 and t_new is text and self._incomplete():
                    t_new = text[:-1]
                new.append((" ", t_new))
            elif ch == "+":
                if len(new) >= repl:
                    raise self._malformed(line)
                if len(new) == repl - 1 and self._incomplete():
                    text = text[:-1]
                new.append(("+", text))
            else:
                raise self._malformed(line)
            if ch not in (" ", "="):
                if prefix == -1:
                    prefix = context
                context = 0
        if prefix == -1:
            raise self._malformed(last)
        return Hunk(first, newfirst, old, new, prefix, context, c_function, beg)

    def _context_hunk(self, diff_type: DiffType) -> Hunk | None:
        begin = self.pos
        begin_line = self.input_line
        s = self.get_line()
        if s is None or len(s) <= 8 or not s.startswith(b"********"):
            self._next_intuit_at(begin, begin_line + 1)
            return None
        c_function: bytes | None = None
        k = 0
        while k < len(s) and s[k] == ord("*"):
            k += 1
        if s[k:k + 1] == b" ":
            c_function = s[k:].rstrip(b"\n")
        beg = self.input_line + 1
        # (mark, text) in GNU's order: index 0 the `***` line, then the old lines, the
        # `---` line, the new lines
        marks: list[str] = []
        texts: list[bytes] = []
        first, ptrn_lines, newfirst, repl_lines = self.last_numbers
        repl_beginning = 0
        p_max = 1 << 62
        context = 0
        some_context = False
        ptrn_spaces_eaten = False
        repl_could_be_missing = True
        ptrn_missing = False
        repl_missing = False
        repl_back = (0, 0, 0)
        ptrn_prefix = ptrn_suffix = repl_prefix = -1
        ptrn_copiable = repl_copiable = 0
        fillsrc = filldst = fillcnt = 0
        while len(marks) - 1 < p_max:
            line = self.get_line()
            if line is None:
                if repl_beginning and repl_could_be_missing:
                    repl_missing = True
                    break
                if p_max - (len(marks) - 1) < 4:
                    line = b"  \n"  # assume blank lines got chopped
                else:
                    raise PatchFatal("unexpected end of file in patch")
            end = len(marks)  # index this line takes
            c = chr(line[0])
            if c == "*":
                if line.startswith(b"********"):
                    if repl_beginning and repl_could_be_missing:
                        repl_missing = True
                        break
                    raise PatchFatal(f"unexpected end of hunk at line {self.input_line}")
                if end != 0:
                    if repl_beginning and repl_could_be_missing:
                        repl_missing = True
                        break
                    raise PatchFatal(f"unexpected '***' at line {self.input_line}: "
                                     + line.decode("utf-8", "surrogateescape"))
                context = 0
                first, ptrn_lines = self._context_range(line, old_side=True)
                p_max = ptrn_lines + 6
                marks.append("*")
                texts.append(line)
                p_max = 1 << 62
                continue
            if c == "-" and line[1:2] == b"-":
                if ptrn_prefix == -1:
                    ptrn_prefix = context
                ptrn_suffix = context
                expected = ptrn_lines + 1 + (marks[end - 1] == "\n" if end else 0)
                if repl_beginning or end != expected:
                    if end == 1:
                        # the old lines were left out: fill them from the new context
                        ptrn_missing = True
                        while len(marks) < ptrn_lines + 1:
                            marks.append("?")
                            texts.append(b"")
                        end = ptrn_lines + 1
                        ptrn_prefix = ptrn_suffix = -1
                        fillsrc = end + 1
                        filldst = 1
                        fillcnt = ptrn_lines
                    elif not repl_beginning:
                        which = "Premature" if end <= ptrn_lines else "Overdue"
                        raise PatchFatal(f"{which} '---' at line {self.input_line}; "
                                         f"check line numbers at line {beg}")
                    elif not repl_could_be_missing:
                        raise PatchFatal(f"duplicate '---' at line {self.input_line}; check "
                                         f"line numbers at line {beg + repl_beginning}")
                    else:
                        repl_missing = True
                        break
                repl_beginning = end
                repl_back = (self.pos, self.input_line, context)
                newfirst, repl_lines = self._context_range(line, old_side=False)
                marks.append("=")
                texts.append(line)
                p_max = repl_lines + end
                # GNU tests the previous hunk's prefix context here
                if repl_lines != ptrn_copiable and (self.prev_prefix != 0
                                                    or context != 0 or repl_lines != 1):
                    repl_could_be_missing = False
                context = 0
                continue
            if c in "+!" or c == "-":
                if c != "-":
                    repl_could_be_missing = False
                body = line[1:]
                if body[:1] in (b" ", b"\t"):
                    body = body[1:]
                elif repl_beginning and repl_could_be_missing:
                    repl_missing = True
                    break
                if not repl_beginning:
                    if ptrn_prefix == -1:
                        ptrn_prefix = context
                elif repl_prefix == -1:
                    repl_prefix = context
                if len(body) > 1 and end == (p_max if repl_beginning else ptrn_lines) \
                        and self._incomplete():
                    body = body[:-1]
                marks.append(c)
                texts.append(body)
                context = 0
                continue
            if c in "\t\n":
                body = line[1:] if c == "\t" else line
                if repl_beginning and repl_could_be_missing and (
                        not ptrn_spaces_eaten or diff_type is DiffType.NEW_CONTEXT):
                    repl_missing = True
                    break
                if len(body) > 1 and end == (p_max if repl_beginning else ptrn_lines) \
                        and self._incomplete():
                    body = body[:-1]
                mark = "\n"
                if end != ptrn_lines + 1:
                    ptrn_spaces_eaten |= repl_beginning != 0
                    some_context = True
                    context += 1
                    if repl_beginning:
                        repl_copiable += 1
                    else:
                        ptrn_copiable += 1
                    mark = " "
                marks.append(mark)
                texts.append(body)
                continue
            if c == " ":
                body = line[1:]
                if body[:1] in (b" ", b"\t"):
                    body = body[1:]
                elif repl_beginning and repl_could_be_missing:
                    repl_missing = True
                    break
                some_context = True
                context += 1
                if repl_beginning:
                    repl_copiable += 1
                else:
                    ptrn_copiable += 1
                if len(body) > 1 and end == (p_max if repl_beginning else ptrn_lines) \
                        and self._incomplete():
                    body = body[:-1]
                marks.append(" ")
                texts.append(body)
                continue
            if repl_beginning and repl_could_be_missing:
                repl_missing = True
                break
            raise self._malformed(line)
        if marks and not repl_beginning:
            raise PatchFatal(f"no '---' found in patch at line {beg}")
        if repl_missing:
            self.pos, self.input_line, context = repl_back
            del marks[repl_beginning + 1:]
            del texts[repl_beginning + 1:]
            fillsrc = 1
            filldst = repl_beginning + 1
            fillcnt = repl_lines
            while len(marks) < repl_beginning + 1 + repl_lines:
                marks.append("?")
                texts.append(b"")
        elif not ptrn_missing and ptrn_copiable != repl_copiable:
            raise PatchFatal(f"context mangled in hunk at line {beg}")
        elif not some_context and fillcnt == 1:
            # a null hunk with no context expecting one line: append instead
            del marks[filldst]
            del texts[filldst]
            first += 1
            fillcnt = 0
            ptrn_lines = 0
            repl_beginning -= 1
        prefix = ptrn_prefix if (repl_prefix == -1 or (
            ptrn_prefix != -1 and ptrn_prefix < repl_prefix)) else repl_prefix
        suffix = ptrn_suffix if (ptrn_suffix != -1 and ptrn_suffix < context) else context
        if prefix == -1 or suffix == -1:
            raise PatchFatal(f"replacement text or line numbers mangled in hunk at line {beg}")
        if diff_type is DiffType.CONTEXT and self.header is not None and (
                fillcnt or (first > 1 and prefix + suffix < ptrn_copiable)):
            # really a new-style context diff without the telltale asterisks
            self.header.diff_type = DiffType.NEW_CONTEXT
        if fillcnt:
            src = fillsrc
            dst = filldst
            last = len(marks) - 1
            for _ in range(fillcnt):
                while src <= last and src != repl_beginning and marks[src] != " ":
                    src += 1
                if src > last or src == repl_beginning:
                    raise PatchFatal("replacement text or line numbers mangled in hunk "
                                     f"at line {beg}")
                marks[dst], texts[dst] = marks[src], texts[src]
                src += 1
                dst += 1
            while src <= last and src != repl_beginning:
                if marks[src] == " ":
                    raise PatchFatal("replacement text or line numbers mangled in hunk "
                                     f"at line {beg}")
                src += 1
        self.last_numbers = (first, ptrn_lines, newfirst, repl_lines)
        blank: bytes | None = None
        new_start = repl_beginning + 1
        old = [(marks[i], texts[i]) for i in range(1, repl_beginning)]
        if old and old[-1][0] == "\n" and len(old) > ptrn_lines:
            blank = old.pop()[1]
        new = [(marks[i], texts[i]) for i in range(new_start, len(marks))]
        return Hunk(first, newfirst, old, new, prefix, suffix, c_function, beg, blank)

    def _context_range(self, line: bytes, old_side: bool) -> tuple[int, int]:
        """`*** 3,5 ****` or `--- 3,5 ----`: (first line, number of lines)."""
        k = 0
        while k < len(line) and not line[k:k + 1].isdigit():
            k += 1
        text = line
        if old_side and line[k:k + 3] == b"0,0":
            text = line[:k] + line[k + 2:]
        first, k = self._number(text, k)
        if text[k:k + 1] == b",":
            if old_side:
                while k < len(text) and not text[k:k + 1].isdigit():
                    k += 1
            else:
                k += 1
                while k < len(text) and not text[k:k + 1].isdigit():
                    k += 1
                if k >= len(text):
                    raise self._malformed(line)
            last, _ = self._number(text, k)
            count = last + 1 - first
            if count < 0:
                raise self._malformed(line)
        elif first:
            count = 1
        else:
            count = 0
            first = 1
        return first, count

    def _normal_hunk(self) -> Hunk | None:
        begin = self.pos
        begin_line = self.input_line
        s = self.get_line()
        if s is None or not s[:1].isdigit():
            self._next_intuit_at(begin, begin_line + 1)
            return None
        m = _NORMAL_HEADER.match(s)
        if m is None:
            raise self._malformed(s)
        first = int(m.group(1))
        kind = m.group(3).decode()
        if m.group(2) is not None:
            ptrn_lines = int(m.group(2)) + 1 - first
        else:
            ptrn_lines = 0 if kind == "a" else 1
        if kind == "a":
            first += 1
        lo = int(m.group(4))
        hi = int(m.group(5)) if m.group(5) is not None else lo
        if lo > hi:
            raise self._malformed(s)
        if kind == "d":
            lo += 1
        repl_lines = hi - lo + 1
        beg = self.input_line + 1
        old = self._normal_side(ptrn_lines, b"<", "-")
        if kind == "c":
            line = self.get_line()
            if line is None:
                raise PatchFatal(f"unexpected end of file in patch at line {self.input_line}")
            if not line.startswith(b"-"):
                raise PatchFatal(f"'---' expected at line {self.input_line} of patch")
        new = self._normal_side(repl_lines, b">", "+")
        return Hunk(first, lo, old, new, 0, 0, None, beg)

    def _normal_side(self, count: int, mark: bytes, tag: str) -> list[tuple[str, bytes]]:
        """`count` lines of a normal diff's `<` or `>` side, each tagged `tag`."""
        out: list[tuple[str, bytes]] = []
        for i in range(count):
            line = self.get_line()
            if line is None:
                raise PatchFatal(f"unexpected end of file in patch at line {self.input_line}")
            if not (line.startswith(mark) and line[1:2] in (b" ", b"\t")):
                raise PatchFatal(f"'{mark.decode()}' followed by space or tab expected at line "
                                 f"{self.input_line} of patch")
            text = line[2:]
            if i == count - 1 and self._incomplete():
                text = text[:-1]
            out.append((tag, text))
        return out


def _named(n: Name | None) -> bool:
    return n is not None and n.name is not None


_COMMAND_HEAD = re.compile(rb"\d[\d,]*[acd]")
_COMMAND_TAIL = re.compile(rb"[\d,]*[ \t]*\r?\n")
_NORMAL_HEADER = re.compile(rb"(\d+)(?:,(\d+))?([acd])(\d+)(?:,(\d+))?")
_UNI_RANGES = re.compile(rb"@@ -(\d+)\S* +\+(\d+)")
_GIT_INDEX = re.compile(rb"index ([0-9a-f]+)\.\.([0-9a-f]+)((?:\s.*)?\n?)$", re.S)


def _ed_command_letter(line: bytes) -> str:
    """The command letter of an ed-script line (`5a`, `3,7d`, `s/.//`), or ""."""
    m = _ED_COMMAND.match(line)
    if m is None:
        return ""
    letter = m.group(2)[:1].decode()
    if letter in "ai" and m.group(1):
        return ""
    return letter


_ED_COMMAND = re.compile(rb"(?:\d+(,\d+)?)?([acdi]|s/\.//)[ \t]*\n")
