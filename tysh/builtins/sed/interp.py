"""The sed interpreter: runs the command list over a stream, one cycle per line, with the
pattern and hold spaces, address ranges and `w`/`R` files. It runs every script; the
compiled and block paths (sed.compile, sed.fast) take the shapes they can and share the
helpers here, so all three give the same output."""

from __future__ import annotations

from tysh.builtins._common.operands import open_output
from tysh.builtins.sed.ir import Addr, Cmd, SedError, Sub
from tysh.builtins.sed.streams import Input, Output, WFile
from tysh.kernel.base import stop
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable
    from typing import Any


class Quit(Exception):
    """`q` (newline: the missing separator is written first) or `Q`: stop every file."""

    def __init__(self, code: int, newline: bool = True) -> None:
        self.code = code
        self.newline = newline


def z_text(text: str, sep: str) -> str:
    """`i`/`c` text as GNU writes it: its last newline is the separator (NUL under -z)."""
    return text[:-1] + sep if sep != "\n" and text.endswith("\n") else text


def _case(text: str, conv: Callable[[str], str]) -> str:
    """Case-convert as GNU's towupper/towlower: one character for one (`ß` stays `ß`)."""
    done = conv(text)
    if len(done) == len(text) or text.isascii():
        return done
    return "".join(c2 if len(c2 := conv(c)) == 1 else c for c in text)


def expand_case(parts: list[tuple[str, Any]], m: re.Match[str], whole: str | None = None) -> str:
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


class ScriptRunner:
    """Runs the script over one stream. Its output and `w` files outlive it: under -s or -i
    the tool makes a runner per file, writing to the same `w` files."""

    def __init__(self, cmds: list[Cmd], ctx: Context, quiet: bool, sep: str, wrap: int,
                 output: Output, wfiles: dict[str, WFile]) -> None:
        self.cmds = cmds
        self.ctx = ctx
        self.quiet = quiet
        self.sep = sep
        self.wrap = wrap
        self.output = output
        self.out = output.parts
        self.hold = ""
        self.hold_nl = True  # the hold space starts as a line with its separator
        self.last_rx: re.Pattern[str] | None = None
        self.backjumps = 0
        self.wfiles = wfiles
        self.rfiles: dict[str, list[str]] = {}  # `R`: each file's unread lines, last first
        self.lineno = 0
        for c in cmds:  # range state starts afresh for each stream
            c.active = False
            c.end_line = 0
            c.done = False

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

    def wfile(self, name: str) -> WFile:
        if name in ("/dev/stdout", "/dev/fd/1", "-"):
            f = WFile(None, self.out, self.sep)
        else:  # /dev/stderr is lent by open_output, so closing the file leaves it open
            f = WFile(open_output(self.ctx, name), None, self.sep)
        self.wfiles[name] = f
        return f

    def open_wfiles(self) -> None:
        """GNU creates (truncates) every `w` file before reading input."""
        for c in self.cmds:
            name = c.text if c.name in "wW" else (c.sub.wfile if c.sub else None)
            if name and name not in self.wfiles:
                self.wfile(name)

    # -- addresses --------------------------------------------------------------------
    def match1(self, a: Addr, ps: str, inp: Input) -> bool:
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

    def selected(self, c: Cmd, ps: str, inp: Input) -> bool:
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
            out.append(lit if lit is not None else expand_case(sub.parts, m))
            pos = e
            done = True
            if not glob:
                break
        if not done:
            return None
        out.append(ps[pos:])
        return "".join(out)

    # -- the cycle --------------------------------------------------------------------
    def jump(self, pc: int, target: int) -> int:
        """A branch: a loop that reads no input (`:a;ba`) goes back and back, so every
        so many backward jumps the command's stop check runs."""
        if target < pc:
            self.backjumps += 1
            if not self.backjumps & 1023:
                stop.check()
        return target

    def run(self, inp: Input) -> None:
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
                    pc = self.jump(pc, c.target)
                elif name == "t":
                    if tflag:
                        tflag = False
                        pc = self.jump(pc, c.target)
                elif name == "T":
                    if not tflag:
                        pc = self.jump(pc, c.target)
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
                    out.append(escape_l(ps, c.num if c.num >= 0 else self.wrap, sep))
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
                raise Quit(quit_code, qnl)

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


def escape_l(ps: str, width: int, sep: str = "\n") -> str:
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
