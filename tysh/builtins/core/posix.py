"""The small POSIX builtins: echo, printf, test/[, true, false, :, sleep, env, timeout.

echo and printf are verbatim (their words are position-sensitive: `echo x -n` prints
`x -n`, `printf -- '-%s'`), test/[ , env and timeout are raw_argv (their operands look like
options and belong to an expression or to another command); the kernel still lifts
`--json` for the verbatim ones. sleep is typed. echo is on the hottest path of the shell,
so its body does as little as it can.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Any, Protocol

import attrs

from tysh.kernel.base.record import Record
from tysh.kernel.base.values import to_json_text, to_text
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, Tool, tool


class VerbatimArgs(Protocol):
    """The part of the binder's ToolArgs a verbatim tool reads."""

    words: list[Any] | None
    flag_words: frozenset[int]


class RawArgs(Protocol):
    """The part of the binder's ToolArgs a raw_argv tool reads."""

    positional: list[Any]


def _texts(values: Sequence[Any]) -> list[str]:
    return [v if type(v) is str else to_text(v) for v in values]


# -- echo ------------------------------------------------------------------------------------

_ECHO_OPT = re.compile(r"-[neE]+").fullmatch


@tool(
    "echo",
    verbatim=True,
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
        if type(first) is str and first[:1] == "-" and _ECHO_OPT(first):
            optional = args.flag_words  # a glob result named `-n` is never an option
            i = 0
            for w in words:
                if i not in optional or not _ECHO_OPT(w):
                    break
                for c in w[1:]:
                    if c == "n":
                        newline = False
                    else:
                        escapes = c == "e"
                i += 1
            words = words[i:]
    try:
        s = " ".join(words)
    except TypeError:
        s = " ".join(_texts(words))
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

@tool(
    "printf",
    verbatim=True,
    description="format and print arguments (bash's printf: %s %d %x %f %b %q …, the format repeats)",
    examples=[
        ("one line per argument", "printf '%s\\n' a b c"),
        ("padded columns", "printf '%-10s|%5d\\n' name 42"),
        ("into a variable", "printf -v pad '%05d' 7"),
    ],
)
def printf(args: VerbatimArgs, ctx: Context) -> int | Outcome:
    words = _texts(args.words or ())
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

    res = format_printf(words[0], words[1:])
    for msg in res.errors:
        ctx.error(msg)
    if var is not None:  # `printf -v NAME`: the text goes into the variable, as bash's
        from tysh.builtins.shell.builtins import assign_word
        from tysh.kernel.base.errors import VarError

        try:
            if not assign_word(ctx, var, res.text):
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


# -- test / [ ---------------------------------------------------------------------------------

def _run_test(argv: list[str], ctx: Context) -> int:
    from tysh.kernel.text.testexpr import TestError, evaluate

    try:
        return 0 if evaluate(argv, ctx) else 1
    except TestError as e:
        ctx.error(e.message)
        return 2


@tool(
    "test",
    raw_argv=True,
    description="evaluate a conditional expression: file tests, string and integer comparisons",
    examples=[("is it a file?", "test -f notes.txt && echo yes"), ("compare numbers", "test 3 -lt 5")],
)
def test(args: RawArgs, ctx: Context) -> int:
    return _run_test(_texts(args.positional), ctx)


@tool(
    "[",
    raw_argv=True,
    description="evaluate a conditional expression (like test; the last argument must be ])",
    examples=[("string equality", '[ "$a" = "$b" ] && echo same')],
)
def bracket(args: RawArgs, ctx: Context) -> int:
    argv = _texts(args.positional)
    if not argv or argv[-1] != "]":
        ctx.error("missing `]'")
        return 2
    return _run_test(argv[:-1], ctx)


# -- true / false / : ------------------------------------------------------------------------

@tool("true", raw_argv=True, description="do nothing, successfully (arguments are ignored)")
def true_(args: RawArgs, ctx: Context) -> int:
    return 0


@tool("false", raw_argv=True, description="do nothing, unsuccessfully (arguments are ignored)")
def false_(args: RawArgs, ctx: Context) -> int:
    return 1


@tool(":", raw_argv=True, description="do nothing, successfully; arguments are still expanded",
      examples=[("set a default", ": ${name:=world}")])
def colon(args: RawArgs, ctx: Context) -> int:
    return 0


# -- sleep -----------------------------------------------------------------------------------

_DURATION = re.compile(r"((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity)([smhd]?)", re.I)
_UNIT = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
SLICE = 0.05


def parse_duration(text: str) -> float | None:
    """GNU's NUMBER[smhd] (`1`, `0.5`, `1s`, `2m`, `inf`); None when it is not one."""
    m = _DURATION.fullmatch(text.strip())
    if m is None:
        return None
    return float(m.group(1)) * _UNIT[m.group(2).lower()]


def interruptible_sleep(ctx: Context, seconds: float) -> bool:
    """Sleep in small slices so the shell can cancel; False when cancelled."""
    deadline = time.monotonic() + seconds
    while True:
        if ctx.shell.cancelled():
            return False
        left = deadline - time.monotonic()
        if left <= 0:
            return True
        time.sleep(min(SLICE, left))


@attrs.frozen(repr=False, eq=False)
class SleepArgs(Record):
    durations: tuple[str, ...] = param(
        positional=True, default=(), help="NUMBER[smhd]; several are added up"
    )


@tool(
    "sleep",
    args=SleepArgs,
    description="pause for the given time (NUMBER[smhd], several are summed)",
    examples=[("half a second", "sleep 0.5"), ("a minute and a half", "sleep 1m 30s")],
)
def sleep(args: SleepArgs, ctx: Context) -> int:
    if not args.durations:
        ctx.error("missing operand")
        return 1
    total = 0.0
    for d in args.durations:
        secs = parse_duration(d)
        if secs is None:
            ctx.error(f"invalid time interval '{d}'")
            return 1
        total += secs
    return 0 if interruptible_sleep(ctx, total) else 130


# -- env -------------------------------------------------------------------------------------

_ASSIGN = re.compile(r"[^=]+=")


def _env_usage(ctx: Context, msg: str) -> int:
    ctx.error(msg)
    ctx.error("usage: env [-i] [-u NAME] [-0] [--json] [NAME=VALUE]… [COMMAND [ARG]…]")
    return 125


@tool(
    "env",
    raw_argv=True,
    operations=["proc.exec"],
    description="print the exported environment, or run a command with a modified one",
    examples=[
        ("list exported variables", "env"),
        ("run with an extra variable", "env LANG=C sort names.txt"),
        ("run with an empty environment", "env -i PATH=/usr/bin printenv"),
    ],
)
def env(args: RawArgs, ctx: Context) -> int | Outcome:
    """GNU env: options stop at the first NAME=VALUE or command word."""
    argv = _texts(args.positional)
    clear = False
    unset: list[str] = []
    nul = False
    as_json = ctx.json
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if a in ("-", "-i", "--ignore-environment"):
            clear = True
        elif a in ("-0", "--null"):
            nul = True
        elif a == "--json":
            as_json = True
        elif a in ("-u", "--unset"):
            if i + 1 >= len(argv):
                return _env_usage(ctx, f"option requires an argument -- '{a.lstrip('-')[:1]}'")
            unset.append(argv[i + 1])
            i += 1
        elif a.startswith("--unset="):
            unset.append(a[len("--unset="):])
        elif a.startswith("-u") and len(a) > 2:
            unset.append(a[2:])
        elif a.startswith("-") and len(a) > 1:
            if len(a) > 2 and a[0] == "-" and a[1] != "-" and set(a[1:]) <= {"i", "0"}:
                clear = clear or "i" in a
                nul = nul or "0" in a
            else:
                return _env_usage(ctx, f"invalid option '{a}'")
        else:
            break
        i += 1
    environ = {} if clear else dict(ctx.shell.exported_env())
    for name in unset:
        environ.pop(name, None)
    while i < len(argv) and _ASSIGN.match(argv[i]):
        name, _, value = argv[i].partition("=")
        environ[name] = value
        i += 1
    command = argv[i:]
    if not command:
        if ctx.json:
            return Outcome(0, OutputData.text("", rich_json=environ))
        if as_json:  # `--json` reaches a raw_argv tool as a word
            ctx.write(to_json_text(environ) + "\n")
            return 0
        end = "\0" if nul else "\n"
        ctx.write("".join(f"{k}={v}{end}" for k, v in environ.items()))
        return 0
    if nul:
        return _env_usage(ctx, "cannot specify --null (-0) with command")
    return ctx.shell.run_argv(command, ctx.stdin, ctx.stdout, ctx.stderr, env=environ)


# -- timeout ---------------------------------------------------------------------------------

_SIGNALS = {"HUP": 1, "INT": 2, "QUIT": 3, "KILL": 9, "USR1": 10, "USR2": 12, "TERM": 15}


def _signal_number(text: str) -> int | None:
    t = text.upper().removeprefix("SIG")
    if t.isdigit():
        return int(t)
    return _SIGNALS.get(t)


@tool(
    "timeout",
    raw_argv=True,
    description="run a command, stopping it after a time limit (status 124 when it expires)",
    examples=[("give up after 5 seconds", "timeout 5 long-task"), ("two minutes", "timeout 2m make")],
    operations=["proc.exec"],
)
def timeout(args: RawArgs, ctx: Context) -> int:
    """GNU timeout's options, then DURATION COMMAND…; the shell enforces the deadline."""
    argv = _texts(args.positional)
    signum = 15
    preserve = verbose = False
    i = 0
    while i < len(argv) and argv[i].startswith("-") and len(argv[i]) > 1:
        a = argv[i]
        value: str | None = None
        if a == "--":
            i += 1
            break
        if a in ("--preserve-status",):
            preserve = True
        elif a in ("--foreground",):
            pass
        elif a in ("-v", "--verbose"):
            verbose = True
        elif a in ("-s", "--signal", "-k", "--kill-after"):
            if i + 1 >= len(argv):
                ctx.error(f"option requires an argument -- '{a.lstrip('-')[:1]}'")
                return 125
            value = argv[i + 1]
            i += 1
        elif a.startswith(("--signal=", "--kill-after=")):
            a, _, value = a.partition("=")
        elif a[:2] in ("-s", "-k"):
            a, value = a[:2], a[2:]
        else:
            ctx.error(f"invalid option '{a}'")
            return 125
        if a in ("-s", "--signal"):
            n = _signal_number(value or "")
            if n is None:
                ctx.error(f"{value}: invalid signal")
                return 125
            signum = n
        elif a in ("-k", "--kill-after") and parse_duration(value or "") is None:
            ctx.error(f"invalid time interval '{value}'")
            return 125
        i += 1
    if i >= len(argv):
        ctx.error("missing operand")
        return 125
    secs = parse_duration(argv[i])
    if secs is None:
        ctx.error(f"invalid time interval '{argv[i]}'")
        return 125
    command = argv[i + 1:]
    if not command:
        ctx.error("missing operand")
        return 125
    code = ctx.shell.run_argv(
        command, ctx.stdin, ctx.stdout, ctx.stderr, timeout=secs if secs > 0 else None
    )
    if code == 124 and secs > 0:
        if verbose:
            name = next((k for k, v in _SIGNALS.items() if v == signum), str(signum))
            ctx.error(f"sending signal {name} to command '{command[0]}'")
        if preserve or signum == 9:
            # GNU: KILL can't be caught, so the status is 128+9, never 124
            return 128 + signum
    return code


TOOLS: list[Tool] = [echo, printf, test, bracket, true_, false_, colon, sleep, env, timeout]
