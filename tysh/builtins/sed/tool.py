"""sed: the stream editor, as GNU sed 4.9 does it.

The script is parsed once into a flat list of commands (blocks and branches become jump
targets). A script of unaddressed `s` and `y` commands takes a fast path: each runs over a
whole block of lines at once in the regex engine. Other scripts are compiled to one Python
function over batches of lines (sed_compile); those using commands that reach across
cycles (N D G H x b t w r…) run in the interpreter here, per line over the decoded text.
Regular expressions come from _regex (POSIX BRE/ERE → Python re).

`--json` gives the output lines as a JSON array of strings.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterator
from typing import IO, Any

import attrs

from tysh.builtins._common.operands import is_stdin, open_output
from tysh.builtins.sed.compile import z_text
from tysh.kernel.base.errors import TyshError
from tysh.kernel.base.record import MutableRecord, Record
from tysh.kernel.fs.api import FsError
from tysh.kernel.text.regex import NUMERIC_ESCAPES, RegexError, compile_patterns, compile_text
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, tool

READ_SIZE = 1 << 18


@attrs.frozen(repr=False, eq=False)
class SedArgs(Record):
    operands: tuple[str, ...] = param(
        positional=True, default=(), help="SCRIPT (unless -e/-f) then FILEs"
    )
    expression: tuple[str, ...] = param(default=(), aliases=["-e"], help="add SCRIPT (repeatable)")
    file: tuple[str, ...] = param(default=(), aliases=["-f"], help="add the script in FILE")
    quiet: bool = param(False, aliases=["-n", "--silent"], help="no automatic printing")
    regexp_extended: bool = param(False, aliases=["-E", "-r"], help="use extended regexps")
    in_place: bool | str = param(
        False, aliases=["-i"], param_type="bool", optional_value=True,
        help="edit files in place; -iSUFFIX / --in-place=SUFFIX first keeps a backup "
        "(a * in SUFFIX stands for the file's name)",
    )
    separate: bool = param(False, aliases=["-s"], help="treat files as separate streams")
    null_data: bool = param(False, aliases=["-z"], help="lines are separated by NUL")
    posix: bool = param(False, help="accepted; GNU extensions stay on")
    unbuffered: bool = param(False, aliases=["-u"], help="accepted; output is flushed per block")
    line_length: int = param(70, aliases=["-l"], help="line-wrap length for `l`")
    debug: bool = param(False, help="accepted; no debug output")


class SedError(TyshError):
    """A script or runtime error; the message is GNU's wording."""


# -- the parsed script -------------------------------------------------------------------


@attrs.define(slots=True, repr=False, eq=False)
class Addr(MutableRecord):
    kind: str  # line last re zero step plus tilde
    num: int = 0
    step: int = 0
    regex: str | None = None  # None for `//` (the last regex used)
    icase: bool = False
    multiline: bool = False
    rx: re.Pattern[str] | None = None  # compiled at parse time; None for `//`


@attrs.define(slots=True, eq=False)
class Cmd:
    name: str
    a1: Addr | None = None
    a2: Addr | None = None
    negate: bool = False
    active: bool = False  # inside an address range
    end_line: int = 0
    done: bool = False  # a range from a line number has started (it starts only once)
    text: str = ""  # a/i/c text, label, file name
    target: int = -1  # jump target: the matching `}` for `{`, the label for b/t/T
    num: int = 0  # q/Q exit code, l wrap length
    sub: Sub | None = None
    ytab: dict[int, str] | None = None


@attrs.define(slots=True, repr=False, eq=False)
class Sub(MutableRecord):
    regex: str | None
    icase: bool
    multiline: bool
    parts: list[tuple[str, Any]]  # ("lit", text) ("grp", n) ("case", op)
    template: str | None  # a Python re template when there are no case conversions
    glob: bool
    nth: int
    print_: int
    wfile: str | None
    rx: re.Pattern[str] | None = None
    literal: str | None = None  # the replacement when it has no group or case parts


# -- parsing -----------------------------------------------------------------------------


class _Parser:
    def __init__(self, script: str, bounds: list[tuple[int, str]], extended: bool) -> None:
        self.s = script
        self.n = len(script)
        self.i = 0
        self.bounds = bounds  # (start offset, label) of each -e / -f piece
        self.ere = extended
        self.cmds: list[Cmd] = []
        self.blocks: list[int] = []

    def fail(self, msg: str, at: int | None = None) -> SedError:
        at = self.i if at is None else at
        start, label = 0, "-e expression #1"
        for off, lab in self.bounds:
            if off <= max(at - 1, 0):
                start, label = off, lab
        return SedError(f"{label}, char {max(at - start, 0)}: {msg}")

    def peek(self) -> str:
        return self.s[self.i] if self.i < self.n else ""

    def skip_ws(self, newlines: bool = False) -> None:
        s, n = self.s, self.n
        while self.i < n and (s[self.i] in " \t" or (newlines and s[self.i] in "\n;")):
            self.i += 1

    def parse(self) -> list[Cmd]:
        while True:
            self.skip_ws(newlines=True)
            if self.i >= self.n:
                break
            c = self.peek()
            if c == "#":
                self.skip_line()
                continue
            self.command()
        if self.blocks:
            raise self.fail("unmatched `{'", at=0)
        self.resolve_labels()
        return self.cmds

    def skip_line(self) -> None:
        nl = self.s.find("\n", self.i)
        self.i = self.n if nl < 0 else nl + 1

    def resolve_labels(self) -> None:
        labels: dict[str, int] = {}
        for k, c in enumerate(self.cmds):
            if c.name == ":":
                labels[c.text] = k
        for c in self.cmds:
            if c.name in "btT":
                if not c.text:
                    c.target = len(self.cmds)
                elif c.text in labels:
                    c.target = labels[c.text]
                else:
                    raise SedError(f"can't find label for jump to `{c.text}'", 4)

    # -- addresses --------------------------------------------------------------------
    def address(self) -> Addr | None:
        s = self.s
        c = self.peek()
        if c.isdigit():
            j = self.i
            while self.i < self.n and s[self.i].isdigit():
                self.i += 1
            num = int(s[j : self.i])
            if self.peek() == "~":
                self.i += 1
                k = self.i
                while self.i < self.n and s[self.i].isdigit():
                    self.i += 1
                step = int(s[k : self.i] or "0")
                return Addr("step", num=num, step=step)
            return Addr("zero" if num == 0 else "line", num=num)
        if c == "$":
            self.i += 1
            return Addr("last")
        if c == "/" or c == "\\":
            if c == "\\":
                self.i += 1
                if self.i >= self.n:
                    raise self.fail("unexpected end of script")
            delim = s[self.i]
            self.i += 1
            pat = self.delimited(delim, "unterminated address regex")
            a = Addr("re", regex=pat or None)
            while self.peek() in ("I", "M") and self.peek():
                if self.peek() == "I":
                    a.icase = True
                else:
                    a.multiline = True
                self.i += 1
            a.rx = self.check_regex(a.regex, a.icase, a.multiline)
            return a
        return None

    def delimited(self, delim: str, unterminated: str, regex: bool = True) -> str:
        """Text up to an unescaped `delim`; `\\delim` becomes the delimiter itself, and
        `\\n` a newline in the regex sense (kept as `\\n` for the translator)."""
        s, n = self.s, self.n
        out: list[str] = []
        i = self.i
        while True:
            if i >= n:
                self.i = i
                raise self.fail(unterminated)
            c = s[i]
            if c == "\\":
                if i + 1 >= n:
                    self.i = i + 1
                    raise self.fail(unterminated)
                d = s[i + 1]
                if d == delim:
                    out.append(delim if delim not in "&\\" or regex else "\\" + delim)
                elif d == "\n":
                    out.append("\\n" if regex else "\n")
                else:
                    out.append(c + d)
                i += 2
                continue
            if c == delim:
                self.i = i + 1
                return "".join(out)
            if c == "\n" and regex:
                self.i = i
                raise self.fail(unterminated)
            if c == "[" and regex:
                # a bracket expression may hold the delimiter unescaped
                j = i + 1
                if j < n and s[j] == "^":
                    j += 1
                if j < n and s[j] == "]":
                    j += 1
                while j < n and s[j] != "]" and s[j] != "\n":
                    if s[j] == "[" and j + 1 < n and s[j + 1] in ":.=":
                        close = s.find(s[j + 1] + "]", j + 2)
                        if close < 0:
                            break
                        j = close + 2
                        continue
                    j += 1
                if j < n and s[j] == "]":
                    out.append(s[i : j + 1])
                    i = j + 1
                    continue
                self.i = len(s) if s.find("\n", j) < 0 else s.find("\n", j)
                raise self.fail(unterminated)  # GNU: the bracket swallowed the delimiter
            out.append(c)
            i += 1

    def check_regex(self, pat: str | None, icase: bool, multiline: bool) -> re.Pattern[str] | None:
        if pat is None:
            return None
        try:
            return compile_text(pat, self.ere, icase, "space_m" if multiline else "space")
        except RegexError as e:
            if e.message.startswith("character class syntax"):
                raise SedError(e.message, 4) from None  # GNU: no position, status 4
            raise self.fail(e.message) from None

    # -- commands ---------------------------------------------------------------------
    def command(self) -> None:
        start = self.i
        a1 = self.address()
        a2 = None
        if a1 is not None:
            self.skip_ws()
            if self.peek() == ",":
                self.i += 1
                self.skip_ws()
                c = self.peek()
                if c in ("+", "~"):
                    self.i += 1
                    j = self.i
                    while self.i < self.n and self.s[self.i].isdigit():
                        self.i += 1
                    if j == self.i:
                        raise self.fail("expected newer version of sed")
                    a2 = Addr("plus" if c == "+" else "tilde", num=int(self.s[j : self.i]))
                else:
                    a2 = self.address()
                    if a2 is None:
                        raise self.fail("unexpected `,'")
                    if a2.kind == "step":
                        a2 = Addr("line", num=a2.num)
                    elif a2.kind == "zero":
                        raise self.fail("invalid usage of line address 0")
            elif a1.kind == "zero":
                raise self.fail("invalid usage of line address 0")
        if a1 is not None and a1.kind == "zero" and (a2 is None or a2.kind != "re"):
            raise self.fail("invalid usage of line address 0")
        self.skip_ws()
        negate = False
        while self.peek() == "!":
            negate = True
            self.i += 1
            self.skip_ws()
        if self.i >= self.n:
            raise self.fail("missing command")
        name = self.s[self.i]
        self.i += 1
        cmd = Cmd(name, a1, a2, negate)
        if name in "=dDgGhHlnNpPxzF{" or name in "aicsybtTrRwWqQ:}e#":
            pass
        elif name == "v" and a1 is None:  # GNU's "requires version": a no-op here
            cmd.name = "#"
            self.read_label()
            self.cmds.append(cmd)
            return
        else:
            raise self.fail(f"unknown command: `{name}'")
        if name in ":}#" and a1 is not None:
            if name == "}":
                raise self.fail("unexpected `}'")
            raise self.fail(
                ": doesn't want any addresses" if name == ":" else "comments don't accept any addresses"
            )
        if name in "qQ" and a2 is not None:
            raise self.fail("command only uses one address")
        del start
        getattr(self, "c_" + {"{": "open", "}": "close", "=": "noarg", ":": "label",
                              "#": "comment"}.get(name, name if name in "aicsybtTrRwWqQle" else "noarg"))(cmd)
        self.cmds.append(cmd)

    def end_of_command(self) -> None:
        self.skip_ws()
        c = self.peek()
        if c in ("", "\n", ";"):
            if c:
                self.i += 1
            return
        if c in "}#":
            return
        self.i += 1
        raise self.fail("extra characters after command")

    def c_noarg(self, cmd: Cmd) -> None:
        self.end_of_command()

    def c_comment(self, cmd: Cmd) -> None:
        cmd.name = "#"
        self.skip_line()

    def c_open(self, cmd: Cmd) -> None:
        self.blocks.append(len(self.cmds))

    def c_close(self, cmd: Cmd) -> None:
        if not self.blocks:
            raise self.fail("unexpected `}'")
        opener = self.blocks.pop()
        self.cmds[opener].target = len(self.cmds) + 1
        self.end_of_command()

    def c_label(self, cmd: Cmd) -> None:
        self.skip_ws()
        label = self.read_label()
        if not label:
            raise self.fail('":" lacks a label')
        cmd.text = label

    def read_label(self) -> str:
        s, j = self.s, self.i
        while self.i < self.n and s[self.i] not in "\n;":
            self.i += 1
        label = s[j : self.i].rstrip(" \t")
        if self.i < self.n:
            self.i += 1
        return label

    def c_b(self, cmd: Cmd) -> None:
        self.skip_ws()
        s, j = self.s, self.i
        while self.i < self.n and s[self.i] not in "\n; \t}":
            self.i += 1
        cmd.text = s[j : self.i]
        self.end_of_command()

    c_t = c_b
    c_T = c_b

    def c_q(self, cmd: Cmd) -> None:
        self.skip_ws()
        j = self.i
        while self.i < self.n and self.s[self.i].isdigit():
            self.i += 1
        cmd.num = int(self.s[j : self.i] or "0")
        self.end_of_command()

    c_Q = c_q

    def c_l(self, cmd: Cmd) -> None:
        self.skip_ws()
        j = self.i
        while self.i < self.n and self.s[self.i].isdigit():
            self.i += 1
        cmd.num = int(self.s[j : self.i]) if self.i > j else -1  # `l 0`: never wrap
        self.end_of_command()

    def c_a(self, cmd: Cmd) -> None:
        s, n = self.s, self.n
        self.skip_ws()
        if self.i >= n:
            raise self.fail("expected \\ after `a', `c' or `i'")
        classic = False
        if s[self.i] == "\\":
            # `a\` then a newline (the classic form), or `a\  text`: its blanks are kept
            self.i += 1
            if self.i < n and s[self.i] == "\n":
                self.i += 1
                classic = True  # GNU: even with no text line after it, an empty line
        out: list[str] = []
        begin = self.i
        while self.i < n:
            c = s[self.i]
            if c == "\\":
                if self.i + 1 < n:
                    ch, self.i = _text_escape(s, self.i + 1)
                    out.append(ch)
                else:
                    self.i += 2
                continue
            if c == "\n":
                self.i += 1
                break
            out.append(c)
            self.i += 1
        cmd.text = "".join(out) + "\n" if out or self.i > begin or classic else ""

    c_i = c_a
    c_c = c_a

    def c_r(self, cmd: Cmd) -> None:
        self.skip_ws()
        nl = self.s.find("\n", self.i)
        end = self.n if nl < 0 else nl
        cmd.text = self.s[self.i : end]
        self.i = end + 1
        if cmd.name in "wW" and not cmd.text:
            raise self.fail("missing filename in r/R/w/W commands")

    c_R = c_r
    c_w = c_r
    c_W = c_r

    def c_e(self, cmd: Cmd) -> None:
        raise self.fail("the `e' command is not supported in tysh (no shell escapes)")

    def c_y(self, cmd: Cmd) -> None:
        if self.i >= self.n:
            raise self.fail("unterminated `y' command")
        delim = self.s[self.i]
        self.i += 1
        src = self.y_part(delim)
        dst = self.y_part(delim)
        if len(src) != len(dst):
            raise self.fail("strings for `y' command are different lengths")
        cmd.ytab = {ord(a): b for a, b in zip(src, dst, strict=True)}
        self.end_of_command()

    def y_part(self, delim: str) -> str:
        s, n = self.s, self.n
        out: list[str] = []
        while True:
            if self.i >= n:
                raise self.fail("unterminated `y' command")
            c = s[self.i]
            if c == "\\" and self.i + 1 < n:
                d = s[self.i + 1]
                if d in "xodc" and d != delim:
                    ch, nxt = _text_escape(s, self.i + 1)
                    if nxt > self.i + 2:  # a numeric escape (`\x62`) or `\cX`
                        out.append(ch)
                        self.i = nxt
                        continue
                out.append({"n": "\n", "t": "\t", "\\": "\\"}.get(d, d if d == delim else c + d))
                self.i += 2
                continue
            self.i += 1
            if c == delim:
                return "".join(out)
            out.append(c)

    def c_s(self, cmd: Cmd) -> None:
        if self.i >= self.n:
            raise self.fail("unterminated `s' command")
        delim = self.s[self.i]
        if delim in "\n\\":
            raise self.fail("unterminated `s' command")
        self.i += 1
        pat = self.delimited(delim, "unterminated `s' command")
        repl = self.delimited(delim, "unterminated `s' command", regex=False)
        glob = False
        nth = 0
        prt = 0
        icase = multiline = False
        wfile = None
        s = self.s
        while self.i < self.n:
            c = s[self.i]
            if c in "gp" and (glob if c == "g" else prt):
                self.i += 1
                raise self.fail(f"multiple `{c}' options to `s' command")
            if c == "g":
                glob = True
            elif c == "p":
                prt += 1
            elif c in "iI":
                icase = True
            elif c in "mM":
                multiline = True
            elif c.isdigit():
                if nth:
                    raise self.fail("multiple number options to `s' command")
                j = self.i
                while self.i < self.n and s[self.i].isdigit():
                    self.i += 1
                nth = int(s[j : self.i])
                if nth == 0:
                    raise self.fail("number option to `s' command may not be zero")
                continue
            elif c == "w":
                self.i += 1
                self.c_r(cmd)
                wfile = cmd.text
                cmd.text = ""
                if not wfile:
                    raise self.fail("missing filename in r/R/w/W commands", min(self.i, self.n))
                break
            elif c == "e":
                raise self.fail("the `e' flag is not supported in tysh (no shell escapes)")
            elif c in " \t":
                pass  # GNU skips blanks between the flags
            elif c in "\n;}#":
                break
            else:
                self.i += 1
                raise self.fail("unknown option to `s'")
            self.i += 1
        regex = pat or None
        rx = self.check_regex(regex, icase, multiline)
        groups = 9 if rx is None else rx.groups
        parts = _parse_replacement(repl)
        for kind, v in parts:
            if kind == "grp" and v > groups:
                raise self.fail(f"invalid reference \\{v} on `s' command's RHS")
        template = None
        if not any(k == "case" for k, _ in parts):
            template = "".join(
                v.replace("\\", "\\\\") if k == "lit" else f"\\g<{v}>" for k, v in parts
            )
        literal = "".join(v for _, v in parts) if all(k == "lit" for k, _ in parts) else None
        cmd.sub = Sub(regex, icase, multiline, parts, template, glob, nth or 1, prt, wfile, rx,
                      literal)
        if wfile is None:
            self.end_of_command()


_REPL_ESC = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}


def _parse_replacement(repl: str) -> list[tuple[str, Any]]:
    """`&`, `\\1`…`\\9`, `\\n`, `\\L \\U \\l \\u \\E` and escapes → parts."""
    parts: list[tuple[str, Any]] = []
    lit: list[str] = []
    i, n = 0, len(repl)

    def flush() -> None:
        if lit:
            parts.append(("lit", "".join(lit)))
            lit.clear()

    while i < n:
        c = repl[i]
        if c == "&":
            flush()
            parts.append(("grp", 0))
        elif c == "\\" and i + 1 < n:
            d = repl[i + 1]
            i += 1
            if d.isdigit():
                flush()
                parts.append(("grp", int(d)))
            elif d in "LUluE":
                flush()
                parts.append(("case", d))
            else:
                ch, nxt = _text_escape(repl, i)
                lit.append(ch)
                i = nxt - 1
        else:
            lit.append(c)
        i += 1
    flush()
    return parts


def _text_escape(s: str, i: int) -> tuple[str, int]:
    """The character meant by the escape whose letter is at `s[i]` (after a backslash) in
    a replacement or a/i/c text — `\\t`, `\\xHH`, `\\oNNN`, `\\dNNN`, `\\cX` —, and the
    index after it; any other `\\c` is `c` itself."""
    d = s[i]
    if d in _REPL_ESC:
        return _REPL_ESC[d], i + 1
    num = NUMERIC_ESCAPES.get(d)
    if num is not None:
        base, width, digits = num
        j = i + 1
        while j < len(s) and j - i - 1 < width and s[j] in digits:
            j += 1
        if j > i + 1:
            return chr(int(s[i + 1 : j], base)), j
    if d == "c" and i + 1 < len(s):
        return chr(ord(s[i + 1].upper()) ^ 0x40), i + 2
    return d, i + 1


def _case(text: str, conv: Callable[[str], str]) -> str:
    """Case-convert as GNU's towupper/towlower: one character for one (`ß` stays `ß`)."""
    done = conv(text)
    if len(done) == len(text) or text.isascii():
        return done
    return "".join(c2 if len(c2 := conv(c)) == 1 else c for c in text)


def _expand_case(parts: list[tuple[str, Any]], m: re.Match[str], whole: str | None = None) -> str:
    """Build a replacement with GNU's case conversions applied; `whole` overrides `&`."""
    out: list[str] = []
    mode = ""  # "L" or "U" for the rest, until \E
    once = ""  # "l" or "u" for the next character
    for kind, v in parts:
        if kind == "case":
            if v in "lu":
                once = v
            else:
                mode = "" if v == "E" else v
                once = ""
            continue
        if kind == "lit":
            text = v
        elif v == 0 and whole is not None:
            text = whole
        else:
            text = m.group(v) or ""
        if not text:
            continue
        if mode == "U":
            text = _case(text, str.upper)
        elif mode == "L":
            text = _case(text, str.lower)
        if once:
            text = _case(text[0], str.upper if once == "u" else str.lower) + text[1:]
            once = ""
        out.append(text)
    return "".join(out)


# -- running -----------------------------------------------------------------------------


class _Quit(Exception):
    """`q` (newline: the missing separator is written first) or `Q`: stop every file."""

    def __init__(self, code: int, newline: bool = True) -> None:
        self.code = code
        self.newline = newline


class _Output:
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


class _WFile:
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


class _Input:
    """The lines of one stream (several files, or one with -s/-i), with one line of
    lookahead so `$` is known; lines are decoded text without their separator."""

    def __init__(
        self, sources: Iterator[tuple[str, IO[bytes]]], sep: str, flush: Callable[[], None]
    ) -> None:
        self.sources = sources
        self.sep = sep
        self.bsep = sep.encode()
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

    def _fill(self) -> bool:
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
        if self.exhausted or not self._fill():
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
        return not self._fill()


class _Sed:
    def __init__(self, cmds: list[Cmd], args: SedArgs, ctx: Context, extended: bool) -> None:
        self.cmds = cmds
        self.ctx = ctx
        self.quiet = args.quiet
        self.ere = extended
        self.sep = "\0" if args.null_data else "\n"
        self.wrap = args.line_length
        self.output = _Output(ctx.stdout, self.sep)
        self.out = self.output.parts
        self.hold = ""
        self.hold_nl = True  # the hold space starts as a line with its separator
        self.last_rx: re.Pattern[str] | None = None
        self.wfiles: dict[str, _WFile] = {}
        self.rfiles: dict[str, list[str]] = {}  # `R`: each file's unread lines, last first
        self.lineno = 0
        for c in cmds:  # range state starts afresh for each stream
            c.active = False
            c.end_line = 0
            c.done = False

    def use(self, output: _Output, wfiles: dict[str, _WFile]) -> None:
        """Write to `output` and `wfiles`, which outlive this runner (-s: one per file)."""
        self.output = output
        self.out = output.parts
        self.wfiles = wfiles

    def flush(self) -> None:
        self.output.flush()

    def regex(self, o: Addr | Sub) -> re.Pattern[str]:
        """The compiled regex of an address or `s`; `//` means the last one used."""
        rx = o.rx
        if rx is None:
            if self.last_rx is None:
                raise SedError("no previous regular expression")
            return self.last_rx
        self.last_rx = rx
        return rx

    def write_file(self, name: str, text: str, nl: bool = True) -> None:
        f = self.wfiles.get(name)
        if f is None:
            f = self.wfile(name)
        f.write(text, nl)

    def wfile(self, name: str) -> _WFile:
        if name in ("/dev/stdout", "/dev/fd/1", "-"):
            f = _WFile(None, self.out, self.sep)
        else:  # /dev/stderr is lent by open_output, so closing the file leaves it open
            f = _WFile(open_output(self.ctx, name), None, self.sep)
        self.wfiles[name] = f
        return f

    def open_wfiles(self) -> None:
        """GNU creates (truncates) every `w` file before reading input."""
        for c in self.cmds:
            name = c.text if c.name in "wW" else (c.sub.wfile if c.sub else None)
            if name and name not in self.wfiles:
                self.wfile(name)

    # -- addresses --------------------------------------------------------------------
    def match1(self, a: Addr, ps: str, inp: _Input) -> bool:
        k = a.kind
        if k == "line":
            return self.lineno == a.num
        if k == "re":
            return self.regex(a).search(ps) is not None
        if k == "last":
            return inp.at_end()
        if k == "step":
            if a.step <= 0:
                return self.lineno == a.num
            return self.lineno >= a.num and (self.lineno - a.num) % a.step == 0
        return False

    def selected(self, c: Cmd, ps: str, inp: _Input) -> bool:
        a1 = c.a1
        if a1 is None:
            return not c.negate
        a2 = c.a2
        if a2 is None:
            return self.match1(a1, ps, inp) != c.negate
        ln = self.lineno
        if c.active:
            k = a2.kind
            if k == "re":
                if self.regex(a2).search(ps) is not None:
                    c.active = False
                return not c.negate
            if k == "last":
                if inp.at_end():
                    c.active = False
                return not c.negate
            if ln >= c.end_line:
                c.active = False
                # past an absolute end (`N` read over it) the line is outside; past a
                # relative one (`addr,+N`) GNU still takes the line that closes the range
                return (ln <= c.end_line or k == "plus") != c.negate
            return not c.negate
        if a1.kind == "zero":
            if not c.end_line:
                c.end_line = 1  # the range starts before line 1, once
                if self.regex(a2).search(ps) is None:
                    c.active = True
                return not c.negate
            return c.negate
        if a1.kind == "line":
            # GNU starts a range whose first address is a line number even when that line
            # went by unseen (`N` read it, or `d` ended its cycle first): once, later
            if c.done or ln < a1.num or (ln > a1.num and a2.kind == "line" and a2.num < ln):
                return c.negate  # not yet, spent, or started late with its end gone by
            c.done = True
        elif not self.match1(a1, ps, inp):
            return c.negate
        k = a2.kind
        if k == "line":
            if a2.num > ln:
                c.active, c.end_line = True, a2.num
        elif k == "plus":
            if a2.num > 0:
                c.active, c.end_line = True, ln + a2.num
        elif k == "tilde":
            if a2.num > 0 and ln % a2.num:
                c.active, c.end_line = True, (ln // a2.num + 1) * a2.num
        elif k == "last":
            c.active = not inp.at_end()
        else:
            c.active = True
        return not c.negate

    # -- substitution -----------------------------------------------------------------
    def substitute(self, sub: Sub, ps: str) -> str | None:
        rx = self.regex(sub)
        nth, glob = sub.nth, sub.glob
        out: list[str] = []
        pos = 0
        count = 0
        prev_end = -1
        done = False
        for m in rx.finditer(ps):
            s, e = m.span()
            if s == e and s == prev_end:
                continue  # GNU: no empty match right after the previous match
            prev_end = e
            count += 1
            if count < nth:
                continue
            out.append(ps[pos:s])
            lit = sub.literal
            out.append(lit if lit is not None else _expand_case(sub.parts, m))
            pos = e
            done = True
            if not glob:
                break
        if not done:
            return None
        out.append(ps[pos:])
        return "".join(out)

    # -- the cycle --------------------------------------------------------------------
    def run(self, inp: _Input) -> None:
        cmds = self.cmds
        ncmds = len(cmds)
        out = self.out
        output = self.output
        sep = self.sep
        quiet = self.quiet
        ps_next: str | None = None
        nl = True  # whether the pattern space's line had its separator (GNU `chomped`)
        while True:
            if ps_next is None:
                line = inp.next()
                if line is None:
                    return
                nl = inp.k < inp.nbuf or inp.buf_has_sep
                self.lineno += 1
                ps = line
            else:
                ps, ps_next = ps_next, None
            appends: list[tuple[str, str]] = []
            autoprint = not quiet
            tflag = False
            pc = 0
            quit_code: int | None = None
            qnl = True
            while pc < ncmds:
                c = cmds[pc]
                pc += 1
                if c.a1 is not None or c.negate:
                    if not self.selected(c, ps, inp):
                        if c.name == "{":
                            pc = c.target
                        continue
                name = c.name
                if name == "s":
                    assert c.sub is not None
                    new = self.substitute(c.sub, ps)
                    if new is not None:
                        ps = new
                        tflag = True
                        for _ in range(c.sub.print_):
                            output.line(ps, nl)
                        if c.sub.wfile:
                            self.write_file(c.sub.wfile, ps, nl)
                elif name == "p":
                    output.line(ps, nl)
                elif name == "d":
                    autoprint = False
                    break
                elif name in "{}:#":
                    pass
                elif name == "b":
                    pc = c.target
                elif name == "t":
                    if tflag:
                        tflag = False
                        pc = c.target
                elif name == "T":
                    if not tflag:
                        pc = c.target
                    else:
                        tflag = False
                elif name == "y":
                    assert c.ytab is not None
                    ps = ps.translate(c.ytab)
                elif name == "a":
                    appends.append(("t", c.text))
                elif name == "i":
                    out.append(z_text(c.text, sep))
                elif name == "c":
                    if c.a2 is None or not c.active or c.negate:
                        out.append(z_text(c.text, sep))
                    autoprint = False
                    break
                elif name == "=":
                    out.append(f"{self.lineno}{sep}")
                elif name == "q":
                    quit_code = c.num
                    break
                elif name == "Q":
                    autoprint = False
                    quit_code = c.num
                    qnl = False
                    break
                elif name == "h":
                    self.hold = ps
                    self.hold_nl = nl
                elif name == "H":
                    self.hold = self.hold + sep + ps  # -z: GNU joins with NUL
                    self.hold_nl = nl
                elif name == "g":
                    ps = self.hold
                    nl = self.hold_nl
                elif name == "G":
                    ps = ps + sep + self.hold
                    nl = self.hold_nl
                elif name == "x":
                    ps, self.hold = self.hold, ps
                    nl, self.hold_nl = self.hold_nl, nl
                elif name == "n":
                    if inp.at_end():
                        quit_code = -1  # the end of this stream, not `q`
                        break
                    if not quiet:
                        output.line(ps, nl)
                    self.flush_appends(appends)
                    appends = []
                    line = inp.next()
                    assert line is not None
                    nl = inp.k < inp.nbuf or inp.buf_has_sep
                    self.lineno += 1
                    ps = line
                elif name == "N":
                    if inp.at_end():
                        quit_code = -1
                        break
                    self.flush_appends(appends)
                    appends = []
                    line = inp.next()
                    assert line is not None
                    nl = inp.k < inp.nbuf or inp.buf_has_sep
                    self.lineno += 1
                    ps = ps + sep + line
                elif name == "D":
                    k = ps.find(sep)
                    if k < 0:
                        autoprint = False
                        break
                    ps_next = ps[k + 1 :]
                    autoprint = False
                    break
                elif name == "P":
                    k = ps.find(sep)
                    if k < 0:  # the whole pattern space: as `p`, so a line read without
                        output.line(ps, nl)  # its separator is written without one
                    else:
                        out.append(ps[:k] + sep)
                elif name == "l":
                    out.append(_escape_l(ps, c.num if c.num >= 0 else self.wrap, sep))
                elif name == "z":
                    ps = ""
                elif name == "F":
                    out.append(("-" if inp.name == "-" else inp.name) + sep)
                elif name == "r":
                    appends.append(("r", c.text))
                elif name == "R":
                    appends.append(("R", c.text))
                elif name == "W":
                    k = ps.find(sep)
                    self.write_file(c.text, ps if k < 0 else ps[:k], nl or k >= 0)
                elif name == "w":
                    self.write_file(c.text, ps, nl)
            if autoprint:
                if nl:
                    out.append(ps + sep)
                else:
                    output.raw(ps)
            if appends:
                self.flush_appends(appends)
            if quit_code is not None:
                if quit_code < 0:
                    return
                raise _Quit(quit_code, qnl)

    def flush_appends(self, appends: list[tuple[str, str]]) -> None:
        for kind, text in appends:
            if kind == "t":
                self.out.append(text)
            elif kind == "R":
                line = self._next_line_of(text)
                if line:
                    self.out.append(line)
            else:
                try:
                    data = self.ctx.fs.read_bytes(self.ctx.path(text))
                except FsError:
                    # silently ignored, but still ends a line left open
                    self.out.append("")
                    continue
                self.out.append(data.decode("utf-8", "surrogateescape"))

    def _next_line_of(self, name: str) -> str:
        """`R`: the file's next line (as read: its separator only if it had one), "" once
        it is used up or cannot be read. GNU reads on through the file across the inputs
        of one run, and from its start again for each file under -s or -i (a runner each)."""
        lines = self.rfiles.get(name)
        if lines is None:
            try:
                data = self.ctx.fs.read_bytes(self.ctx.path(name))
            except FsError:
                data = b""
            parts = data.decode("utf-8", "surrogateescape").split(self.sep)
            lines = [p + self.sep for p in parts[:-1]]
            if parts[-1]:
                lines.append(parts[-1])
            lines.reverse()
            self.rfiles[name] = lines
        return lines.pop() if lines else ""


def _escape_l(ps: str, width: int, sep: str = "\n") -> str:
    """The `l` command's unambiguous form: escapes, octal bytes, wrapped lines, `$`."""
    esc = {"\\": "\\\\", "\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
           "\t": "\\t", "\v": "\\v"}
    pieces: list[str] = []
    for ch in ps:
        if ch in esc:
            pieces.append(esc[ch])
        elif " " <= ch <= "~":
            pieces.append(ch)
        else:
            pieces.extend(f"\\{b:03o}" for b in ch.encode("utf-8", "surrogateescape"))
    lines: list[str] = []
    cur = ""
    for p in pieces:
        if width > 0 and len(cur) + len(p) > width - 1:  # GNU: `l 1` wraps every char
            lines.append(cur + "\\\n")
            cur = ""
        cur += p
    lines.append(cur + "$" + sep)
    return "".join(lines)


# -- the fast path: one unaddressed `s` over whole blocks ------------------------------


def _fast_sub(cmds: list[Cmd], args: SedArgs, extended: bool) -> Callable[[str], str] | None:
    """A function transforming a block of complete lines, when the script is a sequence of
    unaddressed `s` and `y` commands that each keep to one line: each then runs over the
    whole block at once. Only the last may put a newline into a line."""
    if not cmds or args.quiet or args.null_data:
        return None
    fns: list[Callable[[str], str]] = []
    for k, c in enumerate(cmds):
        if c.a1 is not None or c.negate:
            return None
        fn = _fast_y(c) if c.name == "y" else _fast_one_sub(c, extended)
        if fn is None:
            return None
        if k < len(cmds) - 1 and c.sub is not None and any(
            kind == "lit" and "\n" in v for kind, v in c.sub.parts
        ):
            return None
        fns.append(fn)
    if len(fns) == 1:
        return fns[0]

    def chain(block: str) -> str:
        for fn in fns:
            block = fn(block)
        return block

    return chain


def _fast_y(c: Cmd) -> Callable[[str], str] | None:
    tab = c.ytab
    if tab is None or 10 in tab or any("\n" in v for v in tab.values()):
        return None
    return lambda block: block.translate(tab)


def _fast_one_sub(c: Cmd, extended: bool) -> Callable[[str], str] | None:
    sub = c.sub
    if c.name != "s" or sub is None or sub.regex is None:
        return None
    if sub.print_ or sub.wfile or sub.multiline or sub.nth != 1:
        return None
    try:
        comp = compile_patterns((sub.regex,), "ere" if extended else "bre",
                                ignore_case=sub.icase, mode="sedline")
    except RegexError:
        return None
    if comp.min_width == 0 or "\\n" in sub.regex:
        return None
    parts = sub.parts
    repl_lit = "".join(v for _, v in parts) if all(k == "lit" for k, _ in parts) else None
    specials = ".[]*^$\\" + ("+?(){}|" if extended else "")
    if repl_lit is not None and not sub.icase and not any(ch in specials for ch in sub.regex):
        # a literal pattern and replacement: plain string replacement
        needle = sub.regex
        if sub.glob:
            return lambda block: block.replace(needle, repl_lit)
        return lambda block: "\n".join(
            [ln.replace(needle, repl_lit, 1) for ln in block.split("\n")]
        )
    src = comp.regex.pattern
    # the fast path works on str: a pattern compiled as bytes is recompiled as text
    source = src.decode("utf-8", "surrogateescape") if isinstance(src, bytes) else src
    rx = re.compile(source, comp.regex.flags & ~re.ASCII)
    repl: Any = sub.template
    if repl is None:
        repl = lambda m: _expand_case(parts, m)  # noqa: E731
    if sub.glob:
        return lambda block: rx.sub(repl, block)
    one = rx.sub
    return lambda block: "\n".join([one(repl, ln, 1) for ln in block.split("\n")])


def _fast_run(
    fn: Callable[[str], str], sources: Iterator[tuple[str, IO[bytes]]], output: _Output
) -> None:
    """Apply `fn` to blocks of whole lines from the stream, writing as it goes. A file's
    unterminated last line stays a line of its own, printed without its newline (the
    output writes it if more output follows, as GNU sed does)."""
    parts = output.parts
    for _, f in sources:
        rest = b""
        read = getattr(f, "read1", f.read)
        while True:
            chunk = read(READ_SIZE)
            if not chunk:
                break
            data = rest + chunk if rest else chunk
            cut = data.rfind(b"\n")
            if cut < 0:
                rest = data
                continue
            rest = data[cut + 1 :]
            parts.append(fn(data[:cut].decode("utf-8", "surrogateescape")) + "\n")
            output.flush()
        if rest:
            output.raw(fn(rest.decode("utf-8", "surrogateescape")))
            output.flush()


# -- the tool ----------------------------------------------------------------------------


def _script(args: SedArgs, ctx: Context) -> tuple[str, list[tuple[int, str]], list[str]] | str:
    """(script, piece boundaries, file operands), or an error message."""
    operands = list(args.operands)
    pieces: list[tuple[str, str]] = []
    for k, e in enumerate(args.expression, 1):
        pieces.append((e, f"-e expression #{k}"))
    for name in args.file:
        try:
            data = ctx.stdin.read() if is_stdin(name) else ctx.fs.read_bytes(ctx.path(name))
        except FsError as e:
            return f"couldn't open file {name}: {e.reason}"
        text = data.decode("utf-8", "surrogateescape")
        if text.endswith("\n"):
            text = text[:-1]
        pieces.append((text, f"file {name} line 1"))
    if not pieces:
        if not operands:
            return "usage"
        pieces.append((operands.pop(0), "-e expression #1"))
    bounds: list[tuple[int, str]] = []
    off = 0
    for text, label in pieces:
        bounds.append((off, label))
        off += len(text) + 1
    return "\n".join(p for p, _ in pieces), bounds, operands


def _sources(
    ctx: Context, names: list[str], status: list[bool]
) -> Generator[tuple[str, IO[bytes]], None, None]:
    """(name, stream) per operand; a failing one is reported (status[0] set) and skipped."""
    for name in names or ["-"]:
        if is_stdin(name):
            yield name, ctx.stdin
            continue
        path = ctx.path(name)
        if ctx.fs.is_dir(path):
            raise SedError(f"read error on {name}: Is a directory", 4)  # GNU: fatal
        try:
            f = ctx.fs.open(path, "rb")
        except FsError as e:
            ctx.error(f"can't read {name}: {e.reason}")
            status[0] = True
            continue
        try:
            yield name, f
        finally:
            f.close()


def check_sed(args: SedArgs) -> list[str]:
    """The parse error of a literal sed script (-e pieces or the first operand)."""
    if args.file:
        return []
    if args.expression:
        pieces = [(e, f"-e expression #{k}") for k, e in enumerate(args.expression, 1)]
    elif args.operands:
        pieces = [(args.operands[0], "-e expression #1")]
    else:
        return []
    bounds: list[tuple[int, str]] = []
    off = 0
    for text, label in pieces:
        bounds.append((off, label))
        off += len(text) + 1
    script = "\n".join(t for t, _ in pieces)
    try:
        _Parser(script, bounds, args.regexp_extended).parse()
    except SedError as e:
        return [f"sed: {e.message}"]
    except (RecursionError, ValueError) as e:  # never let a check itself fail loudly
        return [f"sed: {e}"]
    return []


@tool(
    "sed", check=check_sed,
    args=SedArgs,
    description="stream editor: filter and transform text",
    operations=["fs.overwrite"],
    examples=[
        ("replace every foo with bar", "sed 's/foo/bar/g' notes.txt"),
        ("print lines 10 to 20", "sed -n '10,20p' log.txt"),
        ("delete comment lines, in place", "sed -i '/^#/d' config.ini"),
        ("swap two words with ERE groups", "sed -E 's/(\\w+) (\\w+)/\\2 \\1/' names.txt"),
    ],
)
def sed(args: SedArgs, ctx: Context) -> int | Outcome:
    got = _script(args, ctx)
    if isinstance(got, str):
        if got == "usage":
            ctx.error("no script specified\nUsage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...")
            return 1
        ctx.error(got)
        return 4 if got.startswith("couldn't open file") else 1
    script, bounds, files = got
    # GNU 4.9: a first script beginning `#n` is -n, whatever follows on its line
    quiet = args.quiet or script.startswith("#n")
    if quiet != args.quiet:
        args = attrs.evolve(args, quiet=True)
    extended = args.regexp_extended
    try:
        cmds = _Parser(script, bounds, extended).parse()
    except SedError as e:
        ctx.error(e.message)
        return e.status
    if args.in_place and not files:
        ctx.error("no input files")
        return 4
    compiled = _compile(script, cmds, args, extended)
    status = [False]
    json_lines: list[str] | None = [] if ctx.json else None
    import io

    quit_code: int | None = None  # the `q`/`Q` exit code, once one ran: no more files
    sep = "\0" if args.null_data else "\n"
    sink: IO[bytes] = io.BytesIO() if json_lines is not None else ctx.stdout
    stdout = _Output(sink, sep)  # one stream over all files, -s or not, as GNU's
    # `w` files are opened once for the run; /dev/stdout is the real output even with -i
    wfiles = {name: _WFile(None, stdout.parts, sep) for name in ("/dev/stdout", "-")}
    try:
        if args.in_place:
            for name in files:
                if name != "-" and ctx.fs.is_dir(ctx.path(name)):
                    raise SedError(f"couldn't edit {name}: not a regular file", 4)
                buf = io.BytesIO()
                runner = _Sed(cmds, args, ctx, extended)
                runner.use(_Output(buf, sep), wfiles)
                srcs = _sources(ctx, [name], status)
                failed_before = status[0]
                try:
                    quit_code = _execute(runner, args, extended, srcs, compiled)
                finally:
                    srcs.close()
                stdout.flush()
                if status[0] and not failed_before or name == "-":
                    continue
                try:
                    if type(args.in_place) is str and args.in_place:
                        _backup(ctx, name, args.in_place)
                    ctx.fs.write_bytes(ctx.path(name), buf.getvalue())
                except FsError as e:
                    ctx.error(f"couldn't edit {name}: {e.reason}")
                    status[0] = True
                if quit_code is not None:
                    break
        else:
            groups = [[n] for n in files] if args.separate and files else [files]
            for names in groups:
                runner = _Sed(cmds, args, ctx, extended)
                runner.use(stdout, wfiles)
                srcs = _sources(ctx, names, status)
                try:
                    quit_code = _execute(runner, args, extended, srcs, compiled)
                finally:
                    srcs.close()
                if quit_code is not None:
                    break
            code = quit_code or 0
            if json_lines is not None:
                assert isinstance(sink, io.BytesIO)
                text = sink.getvalue().decode("utf-8", "surrogateescape")
                lines = text.split("\n")
                if lines and lines[-1] == "":
                    lines.pop()
                final = 2 if status[0] and not code else code
                return Outcome(code=final, output=OutputData(rich_json=lines))
    except (SedError, RegexError) as e:
        stdout.flush()  # what the files before a fatal error gave is written, as GNU's
        ctx.error(e.message)
        return 4
    except FsError as e:
        ctx.error(f"couldn't open file {e.path}: {e.reason}")
        return 4
    finally:
        for f in wfiles.values():
            f.close()
    if quit_code:
        return quit_code
    return 2 if status[0] else 0


def _compile(script: str, cmds: list[Cmd], args: SedArgs, extended: bool) -> Any:
    """The script compiled to one Python function (sed_compile), None for the interpreter."""
    from tysh.builtins.sed import compile as sed_compile

    helpers = {"QUIT": _Quit, "EXPAND": _expand_case, "ESCAPE_L": _escape_l}
    sep = "\0" if args.null_data else "\n"
    key = (script, args.quiet, sep, args.line_length, extended)
    if not sed_compile.ENABLED:
        return None
    return sed_compile.compile_cached(key, cmds, args.quiet, sep, args.line_length, helpers,
                                      extended)


def _execute(runner: _Sed, args: SedArgs, extended: bool,
             srcs: Generator[tuple[str, IO[bytes]], None, None],
             compiled: Any = None) -> int | None:
    """Run the script over one stream; returns the exit code of a `q`/`Q` that ran (the
    caller then reads no more files), None at the end of the input."""
    fast = _fast_sub(runner.cmds, args, extended)
    if fast is not None:
        _fast_run(fast, srcs, runner.output)
        return None
    runner.open_wfiles()
    inp = _Input(srcs, runner.sep, runner.flush)
    try:
        if compiled is not None:
            compiled(inp, runner)
        else:
            runner.run(inp)
    except _Quit as q:
        if q.newline:
            runner.output.end_line()
        return q.code
    finally:
        runner.flush()
    return None


TOOLS = [sed]


def _backup(ctx: Context, name: str, suffix: str) -> None:
    """`sed -iSUFFIX`: keep the original as NAME+SUFFIX, or, when SUFFIX has a `*`, as
    SUFFIX with each `*` replaced by the file's base name (in the file's directory
    unless SUFFIX names one), as GNU sed does. Raises FsError."""
    import posixpath

    path = ctx.path(name)
    if "*" in suffix:
        head, base = posixpath.split(path)
        target = suffix.replace("*", base)
        backup = ctx.path(target) if "/" in target else posixpath.join(head, target)
    else:
        backup = path + suffix
    ctx.fs.write_bytes(backup, ctx.fs.read_bytes(path))
