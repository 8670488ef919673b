"""sed script → one Python function over batches of lines, compiled once per run.

The interpreter (sed.interp) walks the command list for every line; here the addresses and
commands of a script are inlined into a loop over each buffer of lines the input reads,
with range state in local variables. Only the buffer's final line can be the last line
(`$`) or lack its separator, so the loop body is emitted twice: for all but the final line
with `$` folded to False, then for the final line with a lookahead. Scripts using
commands that reach across cycles or files (n N D P g G h H x b t T w W r R, `s///w`, the
empty regex `//`) return None and stay with the interpreter.

Common shapes skip the per-line loop: `/re/d` and `-n /re/p` search each buffer's whole
text (text_filter); `-n 'N,Mp'` slices the buffer; scripts addressed only by line numbers
and `$` run the script on those lines and pass the runs between them through whole; one
addressed `s` or `y` is one list comprehension. The compiled function keeps no state, so
it is cached by script text."""

from __future__ import annotations

from tysh.builtins.sed.interp import Quit, ScriptRunner, escape_l, expand_case, z_text
from tysh.builtins.sed.ir import Addr, Cmd
from tysh.builtins.sed.streams import Input
from tysh.kernel.base import cache
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.lazyre import ASCII
from tysh.kernel.base.memo import bounded_memo
from tysh.kernel.text.regex import RegexError, compile_patterns, min_width

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import CodeType
    from typing import Any

    from tysh.kernel.text import engine

    CompiledScript = Callable[[Input, ScriptRunner], int]
else:
    engine = LazyModule(globals(), "engine", "tysh.kernel.text.engine")

SUPPORTED = frozenset("pdsyaic=qQlzF{}#:")
ENABLED = True  # off: every script runs in the interpreter (tests compare the two)


class _Gen:
    def __init__(self, cmds: list[Cmd], quiet: bool, sep: str, wrap: int) -> None:
        self.cmds = cmds
        self.quiet = quiet
        self.sep = sep
        self.wrap = wrap
        self.ns: dict[str, Any] = {"QUIT": Quit, "ESCAPE_L": escape_l}
        self.src: list[str] = []
        self.has_a = any(c.name == "a" for c in cmds)
        self.ranges = [k for k, c in enumerate(cmds) if c.a2 is not None]

    def const(self, obj: Any, prefix: str) -> str:
        name = f"{prefix}{len(self.ns)}"
        self.ns[name] = obj
        return name

    def emit(self, ind: int, line: str) -> None:
        self.src.append("    " * ind + line)

    # -- addresses ----------------------------------------------------------------------
    def match1(self, a: Addr, last: str) -> str:
        k = a.kind
        if k == "line":
            return f"lineno == {a.num}"
        if k == "re":
            return f"{self.const(a.rx.search, 'S') if a.rx else 'None'}(ps)"
        if k == "last":
            return last
        if k == "step":
            if a.step <= 0:
                return f"lineno == {a.num}"
            return f"(lineno >= {a.num} and (lineno - {a.num}) % {a.step} == 0)"
        return "False"

    def select(self, k: int, c: Cmd, ind: int, last: str) -> str | None:
        """Emit the statements choosing whether command `k` runs; its condition (None:
        always)."""
        a1, a2 = c.a1, c.a2
        if a1 is None:
            return "False" if c.negate else None
        if a2 is None:
            cond = self.match1(a1, last)
            return f"not ({cond})" if c.negate else cond
        act, end = f"act{k}", f"end{k}"
        e = self.emit
        e(ind, f"if {act}:")
        if a2.kind == "re":
            e(ind + 1, f"if {self.match1(a2, last)}:")
            e(ind + 2, f"{act} = False")
            e(ind + 1, "sel = True")
        elif a2.kind == "last":
            e(ind + 1, f"if {last}:")
            e(ind + 2, f"{act} = False")
            e(ind + 1, "sel = True")
        else:
            e(ind + 1, f"if lineno >= {end}:")
            e(ind + 2, f"{act} = False")
            # past a relative end (`addr,+N`) GNU still takes the line closing the range
            e(ind + 2, "sel = True" if a2.kind == "plus" else f"sel = lineno <= {end}")
            e(ind + 1, "else:")
            e(ind + 2, "sel = True")
        if a1.kind == "zero":
            e(ind, f"elif not {end}:")
            e(ind + 1, f"{end} = 1")
            e(ind + 1, f"if not {self.match1(a2, last)}:")
            e(ind + 2, f"{act} = True")
            e(ind + 1, "sel = True")
        else:
            start = self.match1(a1, last)
            if a1.kind == "line":
                # GNU starts a range whose first address is a line number even when that
                # line went by unseen (an earlier `d` ended its cycle): once, later
                start = f"not done{k} and lineno >= {a1.num}"
                if a2.kind == "line":  # started late with its end gone by: never
                    start += f" and (lineno == {a1.num} or lineno <= {a2.num})"
            e(ind, f"elif {start}:")
            if a1.kind == "line":
                e(ind + 1, f"done{k} = True")
            n = a2.num
            if a2.kind == "line":
                e(ind + 1, f"if {n} > lineno:")
                e(ind + 2, f"{act} = True; {end} = {n}")
            elif a2.kind == "plus":
                if n > 0:
                    e(ind + 1, f"{act} = True; {end} = lineno + {n}")
            elif a2.kind == "tilde":
                if n > 0:
                    e(ind + 1, f"if lineno % {n}:")
                    e(ind + 2, f"{act} = True; {end} = (lineno // {n} + 1) * {n}")
            elif a2.kind == "last":
                e(ind + 1, f"{act} = not ({last})")
            else:
                e(ind + 1, f"{act} = True")
            e(ind + 1, "sel = True")
        e(ind, "else:")
        e(ind + 1, "sel = False")
        return "not sel" if c.negate else "sel"

    # -- commands -----------------------------------------------------------------------
    def print_ps(self, ind: int, final: bool) -> None:
        """Output the pattern space; a buffer's final line may lack its separator, and is
        then output as read (runner.output owes the separator to what follows)."""
        if final:
            self.emit(ind, f"out_append(ps + {self.sep!r}) if has_sep else RAW(ps)")
        else:
            self.emit(ind, f"out_append(ps + {self.sep!r})")

    def end_cycle(self, ind: int, final: bool, autoprint: bool, quit_code: int | None,
                  newline: bool = True) -> None:
        if autoprint and not self.quiet:
            self.print_ps(ind, final)
        if self.has_a:
            # an `a` even of no text ends a last line read without its newline
            self.emit(ind, "if ap is not None:")
            self.emit(ind + 1, "out_append(ap)")
        if quit_code is not None:
            self.emit(ind, f"raise QUIT({quit_code}, {newline})")

    def command(self, k: int, c: Cmd, ind: int, final: bool) -> None:
        e = self.emit
        name = c.name
        if name == "p":
            self.print_ps(ind, final)
        elif name == "d":
            self.end_cycle(ind, final, False, None)
            e(ind, "continue")
        elif name == "s":
            self.substitute(c, ind, final)
        elif name == "y":
            e(ind, f"ps = ps.translate({self.const(c.ytab, 'Y')})")
        elif name == "a":
            e(ind, f"ap = (ap or '') + {self.const(c.text, 'T')}")
        elif name == "i":
            e(ind, f"out_append({self.const(z_text(c.text, self.sep), 'T')})")
        elif name == "c":
            text = self.const(z_text(c.text, self.sep), "T")
            if c.a2 is None or c.negate:
                e(ind, f"out_append({text})")
            else:
                e(ind, f"if not act{k}:")
                e(ind + 1, f"out_append({text})")
            self.end_cycle(ind, final, False, None)
            e(ind, "continue")
        elif name == "=":
            e(ind, f'out_append(f"{{lineno}}{{{self.const(self.sep, "T")}}}")')
        elif name in "qQ":
            self.end_cycle(ind, final, name == "q", c.num, name == "q")
        elif name == "l":
            e(ind, f"out_append(ESCAPE_L(ps, {c.num if c.num >= 0 else self.wrap}, {self.sep!r}))")
        elif name == "z":
            e(ind, 'ps = ""')
        elif name == "F":
            e(ind, f"out_append(inp.name + {self.sep!r})")
        else:  # `#`, `:` (labels are dead without branches)
            e(ind, "pass")

    def substitute(self, c: Cmd, ind: int, final: bool) -> None:
        sub = c.sub
        assert sub is not None and sub.rx is not None
        e = self.emit
        rx = sub.rx
        simple = sub.nth == 1 and (not sub.glob or min_width(rx) > 0)
        if simple:
            repl: Any = sub.template
            if repl is None:
                parts = sub.parts
                repl = lambda m: expand_case(parts, m)  # noqa: E731
            r = self.const(repl, "R")
            count = "" if sub.glob else ", 1"
            if sub.print_:
                e(ind, f"ps, n = {self.const(rx.subn, 'X')}({r}, ps{count})")
                e(ind, "if n:")
            else:
                e(ind, f"ps = {self.const(rx.sub, 'X')}({r}, ps{count})")
                return
        else:
            e(ind, f"new = SUBST({self.const(sub, 'U')}, ps)")
            e(ind, "if new is not None:")
            e(ind + 1, "ps = new")
        for _ in range(sub.print_):
            self.print_ps(ind + 1, final)
        e(ind + 1, "pass")

    def body(self, lo: int, hi: int, ind: int, last: str, final: bool) -> None:
        cmds = self.cmds
        pc = lo
        while pc < hi:
            c = cmds[pc]
            cond = self.select(pc, c, ind, last)
            inner = ind
            if cond is not None:
                self.emit(ind, f"if {cond}:")
                self.emit(ind + 1, "pass")
                inner = ind + 1
            if c.name == "{":
                self.body(pc + 1, c.target - 1, inner, last, final)
                pc = c.target
                continue
            self.command(pc, c, inner, final)
            pc += 1

    def cycle(self, ind: int, last: str, final: bool) -> None:
        self.emit(ind, "lineno += 1")
        if self.has_a:
            self.emit(ind, "ap = None")
        self.body(0, len(self.cmds), ind, last, final)
        self.end_cycle(ind, final, True, None)

    def filter_shape(self) -> str | None:
        """`/re/d` (or `/re/!d`), `-n /re/p`: a condition keeping a line, else None."""
        if len(self.cmds) != 1:
            return None
        c = self.cmds[0]
        a = c.a1
        if a is None or c.a2 is not None or a.kind != "re" or a.rx is None:
            return None
        keep_match = (c.name == "p" and self.quiet) or (c.name == "d" and not self.quiet)
        if not keep_match:
            return None
        cond = self.match1(a, "False")
        positive = (c.name == "p") != c.negate
        return cond if positive else f"not {cond}"

    def map_shape(self) -> str | None:
        """One `s` (no flags beyond g/N) or `y`, at most a regex address, with autoprint:
        an expression of `ps` giving the line printed."""
        if len(self.cmds) != 1 or self.quiet:
            return None
        c = self.cmds[0]
        a = c.a1
        if c.a2 is not None or (a is not None and (a.kind != "re" or a.rx is None)):
            return None
        if c.name == "y":
            expr = f"ps.translate({self.const(c.ytab, 'Y')})"
        elif c.name == "s":
            sub = c.sub
            assert sub is not None and sub.rx is not None
            if sub.print_ or sub.nth != 1 or (sub.glob and min_width(sub.rx) == 0):
                return None
            if sub.template is None:
                return None
            count = "" if sub.glob else ", 1"
            expr = f"{self.const(sub.rx.sub, 'X')}({self.const(sub.template, 'R')}, ps{count})"
        else:
            return None
        if a is None:
            return None if c.negate else expr
        cond = self.match1(a, "False")
        if c.negate:
            return f"(ps if {cond} else {expr})"
        return f"({expr} if {cond} else ps)"

    def slice_shape(self) -> tuple[int, int] | None:
        """`-n 'Np'` or `-n 'N,Mp'`: the first and last line printed."""
        if len(self.cmds) != 1 or not self.quiet:
            return None
        c = self.cmds[0]
        a1, a2 = c.a1, c.a2
        if c.name != "p" or c.negate or a1 is None or a1.kind != "line":
            return None
        if a2 is None:
            return a1.num, a1.num
        if a2.kind != "line":
            return None
        return a1.num, max(a1.num, a2.num)

    def only_last(self) -> bool:
        """Under -n, every command addressed by `$` alone: other lines do nothing."""
        return self.quiet and all(
            c.a1 is not None and c.a1.kind == "last" and c.a2 is None and not c.negate
            and c.name != "{"
            for c in self.cmds
        )

    def sparse_lines(self) -> list[int] | None:
        """When every top-level command is addressed by one line number or `$` alone, the
        numbers: on any other line but a buffer's final one the script does nothing."""
        nums: list[int] = []
        pc = 0
        cmds = self.cmds
        while pc < len(cmds):
            c = cmds[pc]
            a = c.a1
            if a is None or c.a2 is not None or c.negate or a.kind not in ("line", "last"):
                return None
            if a.kind == "line":
                nums.append(a.num)
            pc = c.target if c.name == "{" else pc + 1
        return sorted(set(nums))

    def generate(self) -> str:
        e = self.emit
        e(0, "def run(inp, runner):")
        e(1, "out_append = runner.out.append")
        e(1, "RAW = runner.output.raw")
        e(1, "SUBST = runner.substitute")
        e(1, "lineno = runner.lineno")
        for k in self.ranges:
            e(1, f"act{k} = False; end{k} = 0; done{k} = False")
        e(1, "try:")
        e(2, "while True:")
        e(3, "if inp.k >= inp.nbuf and (inp.exhausted or not inp.fill()):")
        e(4, "break")
        e(3, "lines = inp.buf")
        e(3, "if inp.k:")
        e(4, "lines = lines[inp.k:]")
        e(3, "inp.k = inp.nbuf")
        e(3, "has_sep = inp.buf_has_sep")
        keep = self.filter_shape()
        mapped = self.map_shape()
        span = self.slice_shape()
        if span is not None:
            lo, hi = span
            e(3, f"lo = max({lo}, lineno + 1) - lineno - 1")
            e(3, f"hi = {hi} - lineno")
            e(3, "lineno += len(lines)")
            e(3, "if lo < hi and lo < len(lines):")
            e(4, "part = lines[lo:hi]")
            e(4, "if has_sep or hi < len(lines):")
            e(5, "part.append('')")
            e(5, f"out_append({self.sep!r}.join(part))")
            e(4, "else:")  # the slice ends at the stream's unterminated last line
            e(5, f"RAW({self.sep!r}.join(part))")
            e(3, "continue")
        elif self.only_last():
            e(3, "lineno += len(lines) - 1")
        elif (nums := self.sparse_lines()) is not None:
            # the listed lines run the script; the runs between them pass through whole
            sep = repr(self.sep)
            e(3, "base = lineno")
            e(3, "stop = len(lines) - 1")
            e(3, "prev = 0")
            e(3, f"for i in [n - base - 1 for n in {self.const(nums, 'N')} "
                 "if base < n <= base + stop]:")
            if not self.quiet:
                e(4, "if i > prev:")
                e(5, f"out_append({sep}.join(lines[prev:i]) + {sep})")
            e(4, "prev = i + 1")
            e(4, "lineno = base + i")
            e(4, "for ps in lines[i:prev]:")
            self.cycle(5, "False", False)
            if not self.quiet:
                e(3, "if stop > prev:")
                e(4, f"out_append({sep}.join(lines[prev:stop]) + {sep})")
            e(3, "lineno = base + stop")
        elif mapped is not None:
            e(3, f"done = [{mapped} for ps in lines[:-1]]")
            e(3, "lineno += len(done)")
            e(3, "if done:")
            e(4, "done.append('')")
            e(4, f"out_append({self.sep!r}.join(done))")
        elif keep is not None:
            e(3, f"kept = [ps for ps in lines[:-1] if {keep}]")
            e(3, "lineno += len(lines) - 1")
            e(3, "if kept:")
            e(4, "kept.append('')")
            e(4, f"out_append({self.sep!r}.join(kept))")
        else:
            e(3, "for ps in lines[:-1]:")
            self.cycle(4, "False", False)
        e(3, "for ps in lines[-1:]:")
        self.cycle(4, "inp.at_end()", True)
        e(1, "finally:")
        e(2, "runner.lineno = lineno")
        e(1, "return 0")
        return "\n".join(self.src) + "\n"


_CACHE: dict[tuple[Any, ...], CompiledScript | None] = {}


def compile_cached(key: tuple[Any, ...], cmds: list[Cmd], quiet: bool, sep: str, wrap: int,
                   extended: bool = False) -> CompiledScript | None:
    """compile_script, remembered by `key` (the script text and the options that shape
    it): the function keeps no state between runs, so a short input pays no compiling."""
    if key in _CACHE:
        return _CACHE[key]
    fn = text_filter(cmds, quiet, sep, extended) or compile_script(cmds, quiet, sep, wrap)
    if len(_CACHE) >= 128:
        _CACHE.clear()
    _CACHE[key] = fn
    return fn


def compile_script(cmds: list[Cmd], quiet: bool, sep: str, wrap: int) -> CompiledScript | None:
    """The script as one function `run(inp, runner)`, or None when it needs the
    interpreter."""
    for c in cmds:
        if c.name not in SUPPORTED:
            return None
        for a in (c.a1, c.a2):
            if a is not None and a.kind == "re" and a.rx is None:
                return None
        if c.name == "s" and (c.sub is None or c.sub.rx is None or c.sub.wfile):
            return None
    gen = _Gen(cmds, quiet, sep, wrap)
    env = gen.ns
    exec(_code(gen.generate()), env)  # noqa: S102 - our own source
    fn: CompiledScript = env["run"]
    return fn


@bounded_memo(128)
def _code(source: str) -> CodeType:
    """Compiling is most of the cost of a run over a short input: once per script text."""
    code: CodeType = cache.compile_cached(source, "<sed script>")
    return code


def text_filter(cmds: list[Cmd], quiet: bool, sep: str, extended: bool) -> CompiledScript | None:
    """`/re/d`, `/re/!d`, `-n /re/p`, `-n /re/!p` over newline-separated lines: the regex
    searches each buffer's whole text (as grep does) instead of every line apart."""
    if len(cmds) != 1 or sep != "\n":
        return None
    c = cmds[0]
    a = c.a1
    if a is None or c.a2 is not None or a.kind != "re" or a.regex is None or a.multiline:
        return None
    if not ((c.name == "p" and quiet) or (c.name == "d" and not quiet)):
        return None
    if "\\n" in a.regex:
        return None
    try:
        comp = compile_patterns((a.regex,), "ere" if extended else "bre",
                                ignore_case=a.icase, mode="sedline")
    except RegexError:
        return None
    src = comp.regex.pattern
    source = src.decode("utf-8", "surrogateescape") if isinstance(src, bytes) else src
    search = engine.compile(source, comp.regex.flags & ~ASCII).search
    keep_match = (c.name == "p") != c.negate

    def run(inp: Input, runner: ScriptRunner) -> int:
        out_append = runner.out.append
        while True:
            if inp.k >= inp.nbuf and (inp.exhausted or not inp.fill()):
                break
            text = inp.text
            if inp.k:  # never after a fill; kept for safety
                text = "\n".join(inp.buf[inp.k:])
            inp.k = inp.nbuf
            has_sep = inp.buf_has_sep
            size = len(text)
            pos = 0
            final_kept = False
            m = search(text)
            while m is not None:
                start = text.rfind("\n", 0, m.start()) + 1
                end = text.find("\n", m.end())
                if end < 0:
                    end = size
                if keep_match:
                    out_append(text[start:end])
                    if end == size:
                        final_kept = True
                        break
                    out_append("\n")
                elif start > pos:
                    out_append(text[pos:start])
                pos = end + 1
                if pos > size:
                    break
                m = search(text, pos)
            if not keep_match and pos <= size:
                out_append(text[pos:])
                final_kept = True
            if final_kept:
                if has_sep:
                    out_append("\n")
                else:  # printed as read, without its newline
                    runner.output.gaps.append(len(runner.out))
        return 0

    return run
