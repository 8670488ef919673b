"""The sed script parser: text → the command list of sed.ir, with GNU's error messages
(`-e expression #1, char 3: unterminated `s' command`).

Regular expressions are compiled here, once, so a bad one is a parse error as in GNU."""

from __future__ import annotations

from tysh.builtins.sed.ir import Addr, Cmd, SedError, Sub
from tysh.kernel.text.regex import NUMERIC_ESCAPES, RegexError, compile_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Parser:
    """One pass over the script text; `parse()` gives the commands with their jumps
    resolved, or raises SedError positioned in the -e / -f piece it came from."""

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

    def check_regex(self, pat: str | None, icase: bool, multiline: bool) -> Any:
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
