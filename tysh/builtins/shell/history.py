"""history: the session's command history as a script sees it.

A script has no history of its own (bash keeps none when not interactive); `history -s`
adds entries, which `history`, `-d`, `-c` and `-p`'s `!!` then see. The REPL's line
history is the terminal's (prompt_toolkit's), not this list."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins.shell.common import err
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool

TYPE_CHECKING = False

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session

USAGE = ("history: usage: history [-c] [-d offset] [n] or history -anrw [filename] or "
         "history -ps arg [arg...]")


@tool("history", kind="shell", raw_argv=True, session=True,
      description="show or change the session's command history (-s adds, -c clears)")
def history(args: RawArgs, ctx: Context, sh: Session) -> int:
    words = texts(args.positional)
    st = sh.state
    entries = list(st.tables.history)
    flags = ""
    offset: str | None = None
    i = 0
    while i < len(words) and words[i].startswith("-") and len(words[i]) > 1:
        w = words[i]
        i += 1
        if w == "--":
            break
        for k, c in enumerate(w[1:], 1):
            if c not in "cdanrwps":
                err(ctx, f"-{c if not c.isdigit() else w[1:]}: invalid option")
                ctx.stderr.write((USAGE + "\n").encode())
                return 2
            flags += c
            if c == "d":  # its offset: the rest of the word, or the next one
                if w[k + 1:]:
                    offset = w[k + 1:]
                elif i < len(words):
                    offset = words[i]
                    i += 1
                break
    rest = words[i:]
    if "c" in flags:
        st.retable(history=())
        return 0
    if "d" in flags:
        if offset is None:
            err(ctx, "-d: option requires an argument")
            return 2
        if not offset.lstrip("-").isdigit():
            err(ctx, f"{offset}: history position out of range")
            return 1
        n = int(offset)
        k = n - 1 if n > 0 else len(entries) + n
        if not 0 <= k < len(entries):
            err(ctx, f"{offset}: history position out of range")
            return 1
        del entries[k]
        st.retable(history=tuple(entries))
        return 0
    if "s" in flags:
        if rest:
            st.retable(history=(*entries, " ".join(rest)))
        return 0
    if "p" in flags:
        last = entries[-1] if entries else ""
        ctx.write("".join(w.replace("!!", last) + "\n" for w in rest))
        return 0
    if set(flags) & set("anrw"):
        return 0  # no history file: a script's history is not saved
    count = len(entries)
    if rest:
        body = rest[0].lstrip("+")
        if not body.isdigit():
            err(ctx, f"{rest[0]}: numeric argument required")
            return 1
        if len(rest) > 1:
            err(ctx, "too many arguments")
            return 1
        count = int(body)
    start = max(len(entries) - count, 0)
    ctx.write("".join(f"{k + 1:5d}  {entries[k]}\n" for k in range(start, len(entries))))
    return 0


TOOLS: list[Tool] = [history]
