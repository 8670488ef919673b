"""echo and printf: print words, and formatted text.

Both are verbatim (their words are position-sensitive: `echo x -n` prints `x -n`,
`printf -- '-%s'`); the kernel still lifts `--json`. echo is on the hottest path of the
shell, so its body does as little as it can."""

from __future__ import annotations

from tysh.builtins._common.args import VerbatimArgs, texts
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.tool import Outcome, Tool, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import IO, Any


def _is_option(word: str) -> bool:
    """`-n`, `-e`, `-E` or a cluster of them (`-neE`): what bash's echo reads as options."""
    return len(word) > 1 and word[0] == "-" and not word[1:].strip("neE")


def _joined(words: Sequence[Any]) -> str:
    """The words a space apart (typed values as their text)."""
    try:
        return " ".join(words)
    except TypeError:
        return " ".join(texts(words))


def _echo_words(words: Sequence[Any], out: IO[bytes]) -> int:
    """echo of words that are no options (its ToolWriter): them, a space apart, and a
    newline."""
    out.write((_joined(words) + "\n").encode("utf-8", "surrogateescape"))
    return 0


@tool(
    "echo", kind="shell",
    verbatim=True,
    writer=_echo_words,
    description="print the arguments separated by spaces (-n: no newline, -e: escapes, -E: none)",
    examples=[("print two words", "echo hello world"), ("no newline, tab escape", "echo -ne 'a\\tb'")],
)
def echo(args: VerbatimArgs, ctx: Context) -> int | Outcome:
    """bash's echo: only leading words that are whole n/e/E clusters are options."""
    words = args.words or ()
    newline = True
    escapes = False
    if words:
        first = words[0]
        if type(first) is str and first[:1] == "-" and _is_option(first):
            optional = args.flag_words  # a glob result named `-n` is never an option
            i = 0
            for w in words:
                if i not in optional or not _is_option(w):
                    break
                for c in w[1:]:
                    if c == "n":
                        newline = False
                    else:
                        escapes = c == "e"
                i += 1
            words = words[i:]
    if newline and not escapes and not ctx.json:
        return _echo_words(words, ctx.stdout)
    s = _joined(words)
    if escapes:
        # printf's module loads on first use: plain `echo` is the commonest command
        from tysh.kernel.text.printf import expand_echo_escapes

        s, stopped = expand_echo_escapes(s)
        if stopped:
            newline = False
    if ctx.json:
        return Outcome(0, OutputData.text(s))
    ctx.stdout.write((s + "\n" if newline else s).encode("utf-8", "surrogateescape"))
    return 0


# -- printf ----------------------------------------------------------------------------------

_PRINTF_USAGE = "usage: printf [-v var] format [arguments]"

def _printf_words(words: Sequence[Any], out: IO[bytes]) -> int | None:
    """printf of operands, none an option (its ToolWriter): the format applied to the
    arguments and written. Declines (None, nothing written) where the tool needs its
    Context: no format (a usage error), text that is not ASCII (the locale may count
    bytes), a diagnostic to report."""
    if not words:
        return None
    first = words[0]
    if type(first) is not str or (first[:1] == "-" and len(first) > 1) or not all(
            type(w) is str and w.isascii() for w in words):
        return None
    from tysh.kernel.text.printf import format_printf

    res = format_printf(words[0], words[1:])
    if res.errors:
        return None
    if res.text:
        out.write(res.text.encode("utf-8", "surrogateescape"))
    return res.status


@tool(
    "printf", kind="shell",
    verbatim=True,
    writer=_printf_words,
    passthrough_options=["-v"],  # its value is a variable name (`-v a[1]`), never a glob
    description="format and print arguments (bash's printf: %s %d %x %f %b %q …, the format repeats)",
    examples=[
        ("one line per argument", "printf '%s\\n' a b c"),
        ("padded columns", "printf '%-10s|%5d\\n' name 42"),
        ("into a variable", "printf -v pad '%05d' 7"),
    ],
)
def printf(args: VerbatimArgs, ctx: Context) -> int | Outcome:
    words = texts(args.words or ())
    var: str | None = None
    if words and words[0] == "--":
        words = words[1:]
    elif words and len(words[0]) > 1 and words[0][0] == "-" and 0 in args.flag_words:
        opt = words[0]
        if not opt.startswith("-v"):
            ctx.error(f"{opt}: invalid option")
            ctx.error(_PRINTF_USAGE)
            return 2
        if opt == "-v" and len(words) < 2:
            ctx.error("-v: option requires an argument")
            ctx.error(_PRINTF_USAGE)
            return 2
        var, words = (words[1], words[2:]) if opt == "-v" else (opt[2:], words[1:])
        if words and words[0] == "--":
            words = words[1:]
    if not words:
        ctx.error(_PRINTF_USAGE)
        return 2
    from tysh.kernel.text.printf import format_printf

    # the C locale counts bytes (asked only when some text is not ASCII)
    octets = not all(map(str.isascii, words)) and ctx.shell.byte_locale()
    res = format_printf(words[0], words[1:], octets)
    for msg in res.errors:
        ctx.error(msg)
    if var is not None:  # `printf -v NAME`: the text goes into the variable, as bash's
        from tysh.kernel.base.errors import VarError

        try:
            # a shell value is a C string in bash: it ends at the first NUL
            if not ctx.shell.assign_word(var, res.text.split("\0", 1)[0]):
                ctx.error(f"`{var}': not a valid identifier")
                return 2
        except VarError as e:
            ctx.error(e.message)
            return 1
        return res.status
    if ctx.json:
        return Outcome(res.status, OutputData.text(res.text))
    if res.text:
        ctx.stdout.write(res.text.encode("utf-8", "surrogateescape"))
    return res.status


TOOLS: list[Tool] = [echo, printf]
