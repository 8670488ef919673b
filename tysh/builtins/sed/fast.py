"""The block path: a script of unaddressed `s` and `y` commands that each keep to one
line runs over a whole block of lines at once in the regex engine, not line by line."""

from __future__ import annotations

from tysh.builtins.sed import streams
from tysh.builtins.sed.interp import expand_case
from tysh.builtins.sed.ir import Cmd
from tysh.builtins.sed.streams import Output
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.lazyre import ASCII
from tysh.kernel.text.regex import RegexError, compile_patterns

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import IO, Any

    from tysh.kernel.text import engine
else:
    engine = LazyModule(globals(), "engine", "tysh.kernel.text.engine")


def block_function(cmds: list[Cmd], quiet: bool, null_data: bool,
                   extended: bool) -> Callable[[str], str] | None:
    """A function transforming a block of complete lines, when the script is a sequence of
    unaddressed `s` and `y` commands that each keep to one line: each then runs over the
    whole block at once. Only the last may put a newline into a line."""
    if not cmds or quiet or null_data:
        return None
    fns: list[Callable[[str], str]] = []
    for k, c in enumerate(cmds):
        if c.a1 is not None or c.negate:
            return None
        fn = _block_y(c) if c.name == "y" else _block_sub(c, extended)
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


def _block_y(c: Cmd) -> Callable[[str], str] | None:
    tab = c.ytab
    if tab is None or 10 in tab or any("\n" in v for v in tab.values()):
        return None
    return lambda block: block.translate(tab)


def _block_sub(c: Cmd, extended: bool) -> Callable[[str], str] | None:
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
    rx = engine.compile(source, comp.regex.flags & ~ASCII)
    repl: Any = sub.template
    if repl is None:
        repl = lambda m: expand_case(parts, m)  # noqa: E731
    if sub.glob:
        return lambda block: rx.sub(repl, block)

    def first_per_line(block: str) -> str:
        # in pieces of whole lines whose cost stays within the engine's budget, each on
        # `re` itself when none of its lines is too long for it
        done: list[str] = []
        seen = 0
        for piece, pat in engine.line_chunks(rx, block):
            one = pat.sub
            seen += len(piece)
            lines = piece.split("\n") if seen == len(block) else piece[:-1].split("\n")
            done += [one(repl, ln, 1) for ln in lines]
        return "\n".join(done)

    return first_per_line


def run_blocks(
    fn: Callable[[str], str], sources: Iterator[tuple[str, IO[bytes]]], output: Output
) -> None:
    """Apply `fn` to blocks of whole lines from the stream, writing as it goes. A file's
    unterminated last line stays a line of its own, printed without its newline (the
    output writes it if more output follows, as GNU sed does)."""
    parts = output.parts
    for _, f in sources:
        rest = b""
        read = getattr(f, "read1", f.read)
        while True:
            chunk = read(streams.READ_SIZE)  # looked up here: tests shrink it
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
