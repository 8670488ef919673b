"""awk: the POSIX pattern-scanning language, in-process.

The program is tokenised (awk.lex), parsed (awk.parse), compiled to Python source once
(awk.compile) and run against the run-time state (awk.runtime). awk is declared
`verbatim` and parses its own argv: everything after the program text is an operand
(`awk '{print}' -x` reads a file named `-x`… as awk does, options stop at the program),
which the clap-style binder cannot express.

Where POSIX leaves room, or gawk and mawk differ, gawk's defaults are followed (checked
against gawk 5.2): integral numbers print as integers whatever their size, inf and nan
as `+inf` `-nan`; strings like "0x1A" are not numbers; `-F t` is the letter t (gawk
outside --traditional); regex interval expressions `{n,m}` work; `substr` truncates
its arguments and treats a start below 1 as 1; length() and substr() count characters,
not bytes; `%c` of a number above 255 is that Unicode character; `printf` with too few
arguments is a fatal error; `getline < "missing"` gives -1; a missing input file is
fatal (`awk: fatal: cannot open file 'x' for reading: …`, status 2); `srand()` returns
the previous seed, which starts at 0; `for (k in a)` visits keys in insertion order
(an order awk leaves unspecified) and the keys are strings. Regex `RS` (more than one
character) is the gawk/mawk extension; an RS change takes effect at the next block of
input read, not the next record.
`system()` and `cmd | getline` run the command line in a forked tysh interpreter (a
subshell), not /bin/sh. `--json` gives the output lines as a JSON array (like sed)."""

from __future__ import annotations

import io
import math

from tysh.builtins._common.lines import Kept
from tysh.builtins.awk.compile import Compiler
from tysh.builtins.awk.format import AwkFormatError
from tysh.builtins.awk.lex import AwkSyntaxError, unescape
from tysh.builtins.awk.parse import parse
from tysh.builtins.awk.runtime import (
    AwkError,
    AwkExit,
    NextRecord,
    Runtime,
    awk_regex,
    make_sub,
)
from tysh.builtins.awk.values import (
    NUMERIC_MATCH,
    UNINIT,
    Arr,
    StrNum,
    str2num,
    strnum,
    tonum,
    truth,
)
from tysh.kernel.base.cache import compile_cached
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.values import encode_text, to_text
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.tool import Outcome, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_NAME = LazyRegex(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_USAGE = "usage: awk [-F fs][-v var=value][prog | -f progfile][file ...]"


class UsageError(Exception):
    pass


def parse_argv(words: list[str]) -> tuple[str, list[str], str | None, list[tuple[str, str]]]:
    """(program text, operands, -F value, -v assignments)."""
    progs: list[str] = []
    fs: str | None = None
    assigns: list[tuple[str, str]] = []
    files: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w == "--":
            i += 1
            break
        if not w.startswith("-") or w == "-":
            break
        i += 1
        opt, val = w[:2], w[2:]
        if w.startswith("--"):
            name, _, v = w[2:].partition("=")
            longs = {"field-separator": "-F", "assign": "-v", "file": "-f"}
            if name in ("posix", "traditional", "re-interval", "characters-as-bytes",
                        "sandbox", "lint", "use-lc-numeric"):
                continue
            if name in ("version", "help"):
                raise UsageError(name)
            if name not in longs:
                raise UsageError(f"unrecognized option '{w}'")
            opt, val = longs[name], v
            if not _:
                val = ""
        if opt not in ("-F", "-v", "-f"):
            raise UsageError(f"invalid option -- '{w[1:2]}'")
        if not val:
            if i >= len(words):
                raise UsageError(f"option requires an argument -- '{opt[1]}'")
            val = words[i]
            i += 1
        if opt == "-F":
            fs = val
        elif opt == "-v":
            name, eq, v = val.partition("=")
            if not eq or not _NAME.match(name):
                raise UsageError(f"`{val}' is not a legal variable name")
            assigns.append((name, v))
        else:
            files.append(val)
    rest = words[i:]
    if not files:
        if not rest:
            raise UsageError(_USAGE)
        progs.append(rest[0])
        rest = rest[1:]
    else:
        progs.extend("\0file:" + f for f in files)
    return "\n".join(progs), rest, fs, assigns


def _fs_value(fs: str) -> str:
    if fs == "\\t":
        return "\t"
    return unescape(fs)


def _num_helpers(R: Runtime) -> dict[str, Any]:  # noqa: N803 - R is the program's name for it
    def div(a: float, b: float) -> float:
        if b == 0.0:
            raise AwkError("fatal: division by zero attempted")
        return a / b

    def mod(a: float, b: float) -> float:
        if b == 0.0:
            raise AwkError("fatal: division by zero attempted in `%'")
        return math.fmod(a, b)

    def pw(a: float, b: float) -> float:
        try:
            return math.pow(a, b)
        except OverflowError:
            return math.inf
        except (ValueError, ZeroDivisionError):
            if a == 0.0:
                return math.inf
            return math.nan

    def add(a: float, b: float) -> float:
        return a + b

    def sub(a: float, b: float) -> float:
        return a - b

    def mul(a: float, b: float) -> float:
        return a * b

    tostr = R.tostr
    n2s = R.n2s
    numeric = NUMERIC_MATCH

    def key(v: Any) -> str:
        if v.__class__ is float:
            return n2s(v)
        if isinstance(v, dict):
            raise AwkError("fatal: attempt to use array in a scalar context")
        return str(v)

    def aset(a: Arr, k: str, v: Any) -> Any:
        a[k] = v
        return v

    def aaug(a: Arr, k: str, fn: Any, n: float) -> float:
        v: float = fn(tonum(a[k]), n)
        a[k] = v
        return v

    def apostinc(a: Arr, k: str, d: float) -> float:
        v = a.get(k)
        old = 0.0 if v is None else tonum(v)
        a[k] = old + d
        return old

    def apreinc(a: Arr, k: str, d: float) -> float:
        v = a.get(k)
        new = (0.0 if v is None else tonum(v)) + d
        a[k] = new
        return new

    def faug(i: int, fn: Any, n: float) -> float:
        v: float = fn(str2num(R.f(i)), n)
        R.setf(i, v)
        return v

    def fpostinc(i: int, d: float) -> float:
        old = str2num(R.f(i))
        R.setf(i, old + d)
        return old

    def fpreinc(i: int, d: float) -> float:
        new = str2num(R.f(i)) + d
        R.setf(i, new)
        return new

    def alen(v: Any) -> float:
        if isinstance(v, dict):
            return float(len(v))
        return float(len(tostr(v)))

    ns: dict[str, Any] = {
        "div": div, "mod": mod, "pw": pw, "add": add, "sub": sub, "mul": mul, "key": key,
        "aset": aset, "aaug": aaug, "apostinc": apostinc, "apreinc": apreinc, "faug": faug,
        "fpostinc": fpostinc, "fpreinc": fpreinc, "alen": alen,
    }
    env = {"StrNum": StrNum, "str2num": str2num, "n2s": n2s, "tostr": tostr,
           "numeric": numeric}
    exec(_COMPARERS, env)  # noqa: S102 - our fixed template, compiled at import
    for name in ("lt", "le", "gt", "ge", "eq", "ne"):
        ns["c" + name] = env["c" + name]
        ns["f" + name] = env["f" + name]
    return ns


# The six comparisons, written out once per run (bound to the run's CONVFMT through n2s):
# `c<op>(a, b)` for two values of unknown kind, `f<op>(s, n)` for a field and a number.
# A numeric string starts with a blank, sign, dot or digit (all below ":") and is a valid
# float literal, so a field that float() rejects is a string; one it takes, ASCII, with
# no `_` and no odd blank (\x1c-\x1f, which float() strips) at either end, is a number
# with that value; anything else asks the regex.
_COMPARER = """
def c{name}(a, b):
    ca = a.__class__
    cb = b.__class__
    if ca is float:
        if cb is float:
            return a {op} b
        if cb is StrNum:
            return a {op} str2num(b)
        return n2s(a) {op} tostr(b)
    if ca is StrNum:
        if cb is float:
            return str2num(a) {op} b
        if cb is StrNum:
            return str2num(a) {op} str2num(b)
        return a {op} tostr(b)
    return tostr(a) {op} (n2s(b) if cb is float else tostr(b))

def f{name}(s, n):
    if s < ":" and s:
        try:
            f = float(s)
        except ValueError:
            return s {op} n2s(n)
        if f - f == 0.0 and s[0] > "\x1f" and s[-1] > "\x1f" and s.isascii() and "_" not in s:
            return f {op} n
        if numeric(s) is not None:
            return str2num(s) {op} n
    return s {op} n2s(n)
"""
_COMPARERS = compile_cached("".join(_COMPARER.format(name=n, op=o) for n, o in (
    ("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">="), ("eq", "=="), ("ne", "!="))),
    "<awk-compare>")


def _math(fn: Any) -> Any:
    def f(x: float) -> float:
        try:
            return float(fn(x))
        except OverflowError:
            return math.inf
        except ValueError:
            if fn is math.log and x == 0.0:
                return -math.inf
            return -math.nan  # what C's libm gives on x86, and gawk prints: -nan
    return f


def _m_int(x: float) -> float:
    if not math.isfinite(x):
        return x
    return float(math.trunc(x))


_MATH = {"m_sin": _math(math.sin), "m_cos": _math(math.cos), "m_exp": _math(math.exp),
         "m_log": _math(math.log), "m_sqrt": _math(math.sqrt), "m_int": _m_int}


def build(src: str) -> tuple[Any, Compiler]:
    prog = parse(src)
    comp = Compiler(prog)
    code, consts = comp.compile()
    return (code, consts, prog), comp


def run_awk(ctx: Context, words: list[str]) -> int:
    try:
        src, operands, fs, assigns = parse_argv(words)
    except UsageError as e:
        msg = str(e)
        if msg == "version":
            ctx.write("awk (tysh) 1.0, POSIX awk with gawk-compatible defaults\n")
            return 0
        if msg == "help":
            ctx.write(f"{_USAGE}\n  -F fs          field separator (a regex when longer than one "
                      "character)\n  -v var=value   assign before BEGIN\n  -f progfile    "
                      "read the program from a file (repeatable)\n  --             end of "
                      "options\n")
            return 0
        ctx.stderr.write(f"awk: {msg}\n".encode("utf-8", "surrogateescape"))
        if msg != _USAGE:
            ctx.stderr.write(f"{_USAGE}\n".encode())
        return 2
    if "\0file:" in src:
        parts = []
        for piece in src.split("\n"):
            name = piece[len("\0file:"):]
            try:
                data = (ctx.stdin.read() if name in ("-", "/dev/stdin", "/dev/fd/0")
                        else ctx.fs.read_bytes(ctx.path(name)))
            except FsError as e:
                ctx.stderr.write(f"awk: fatal: can't open source file `{name}' for reading: "
                                 f"{e.reason}\n".encode("utf-8", "surrogateescape"))
                return 2
            parts.append(data.decode("utf-8", "surrogateescape"))
        src = "\n".join(parts)
    try:
        (code, consts, prog), comp = build(src)
        pycode = compile_cached(code, "<awk>")
    except AwkSyntaxError as e:
        ctx.stderr.write(f"awk: {e.message}\n".encode("utf-8", "surrogateescape"))
        return 2
    except (RecursionError, MemoryError):
        ctx.stderr.write(b"awk: program too deeply nested\n")
        return 2
    except SyntaxError as e:  # generated code the Python compiler refuses: report, never crash
        ctx.stderr.write(encode_text(f"awk: cannot compile program ({e.msg})\n"))
        return 2
    json_mode = ctx.json
    real_out = ctx.stdout
    # --json: the text is captured and becomes the value; otherwise it streams out and a
    # bounded copy gives the same value
    kept = Kept(real_out, ctx.keeps_value)
    ctx.stdout = io.BytesIO() if json_mode else kept  # type: ignore[assignment]
    try:
        status = _execute(ctx, pycode, consts, comp, operands, fs, assigns)
    finally:
        buf = ctx.stdout
        ctx.stdout = real_out
    if json_mode:
        assert isinstance(buf, io.BytesIO)
        text = buf.getvalue().decode("utf-8", "surrogateescape")
        return Outcome(code=status, output=OutputData(rich_json=_lines(text)))  # type: ignore[return-value]

    def value() -> list[str] | None:
        text = kept.text(errors="surrogateescape")
        return None if text is None else _lines(text)

    return Outcome(code=status, output=OutputData.value(value))  # type: ignore[return-value]


def _lines(text: str) -> list[str]:
    """The lines written, without their newlines."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _execute(ctx: Context, pycode: Any, consts: dict[str, Any], comp: Compiler,
             operands: list[str], fs: str | None, assigns: list[tuple[str, str]]) -> int:
    ns: dict[str, Any] = {}
    scalars = comp.all_scalars

    def assign(name: str, value: str) -> None:
        v = strnum(unescape(value))
        if name in comp.arrays:
            raise AwkError(f"fatal: cannot use array `{name}' as a scalar")
        setter = getattr(R, f"set_{name}", None)
        if setter is not None:
            setter(v)
        else:
            ns[f"v_{name}"] = v

    R = Runtime(ctx, operands, assign)  # noqa: N806
    R.ARGV["0"] = "awk"
    for k, op in enumerate(operands, 1):
        R.ARGV[str(k)] = strnum(op)
    R.ARGC = float(len(operands) + 1)
    try:
        env = ctx.shell.exported_env()
    except Exception:  # noqa: BLE001 - a minimal shell may not offer it
        env = {}
    for k2, v2 in env.items():
        R.ENVIRON[k2] = strnum(v2)
    ns.update(_MATH)
    ns.update({
        "R": R, "UNINIT": UNINIT, "Arr": Arr, "StrNum": StrNum, "str2num": str2num,
        "tonum": tonum, "strnum": strnum, "truth": truth, "n2s": R.n2s, "n2o": R.n2o,
        "tostr": R.tostr, "tostr_o": R.tostr_o, "awk_regex": awk_regex, "AwkExit": AwkExit,
        "NextRecord": NextRecord, "math": math,
    })
    ns.update(_num_helpers(R))
    for name in scalars:
        ns[f"v_{name}"] = UNINIT
    for name in comp.arrays:
        if name not in ("ENVIRON", "ARGV"):
            ns[f"v_{name}"] = Arr()
    status = 0
    try:
        for cname, val in consts.items():
            if not isinstance(val, tuple):
                ns[cname] = val
            elif val[0] == "sub":
                ns[cname] = make_sub(val[1], val[2], val[3])
            else:
                ns[cname] = awk_regex(val[1])
        if fs is not None:
            R.set_FS(_fs_value(fs))
        for name, value in assigns:
            assign(name, value)
        exec(pycode, ns)  # noqa: S102 - our own generated code, compiled above
        prog = comp.prog
        exit_code: int | None = None
        try:
            try:
                ns["_begin"]()
            except NextRecord:
                pass
            if prog.rules or prog.end:
                ns["_main"]()
            R.main_done = True
        except AwkExit as e:
            exit_code = e.code
        R.main_done = True
        try:
            ns["_end"]()
        except AwkExit as e:
            if e.code is not None:
                exit_code = e.code
        except NextRecord:
            pass
        status = exit_code or 0
        R.finish()
    except (AwkError, AwkFormatError) as e:
        _fatal(ctx, R, e.message)
        status = 2
    except ZeroDivisionError:
        _fatal(ctx, R, "fatal: division by zero attempted")
        status = 2
    except RecursionError:
        _fatal(ctx, R, "fatal: function call nesting too deep")
        status = 2
    except FsError as e:
        _fatal(ctx, R, f"fatal: {e.path}: {e.reason}")
        status = 2
    except (TypeError, AttributeError) as e:
        msg = "attempt to use array in a scalar context" if "dict" in str(e) or "Arr" in str(e) \
            else f"run-time error ({e})"
        _fatal(ctx, R, "fatal: " + msg)
        status = 2
    except (ValueError, OverflowError, IndexError, KeyError, MemoryError) as e:
        _fatal(ctx, R, f"fatal: run-time error ({type(e).__name__}: {e})")
        status = 2
    return status


def _fatal(ctx: Context, R: Any, msg: str) -> None:  # noqa: N803
    try:
        R.finish()
    except Exception:  # noqa: BLE001 - already failing; the first error is the one to report
        pass
    ctx.stderr.write(f"awk: {msg}\n".encode("utf-8", "surrogateescape"))


@tool(
    "awk", kind="read",
    verbatim=True,
    description=(
        "pattern scanning and processing language (POSIX awk): awk [-F fs] [-v var=val] "
        "'program' [file ...] or -f progfile"
    ),
    examples=[
        ("print the first column", "awk '{print $1}' data.txt"),
        ("sum the second column", "awk '{s += $2} END {print s}' data.txt"),
        ("users with uid over 100", "awk -F: '$3 > 100 {print $1}' /etc/passwd"),
        ("drop duplicate lines, keeping order", "awk '!seen[$0]++' list.txt"),
        ("format columns", "awk '{printf \"%-10s %5d\\n\", $1, $2}' data.txt"),
    ],
    operations=["fs.overwrite", "fs.create", "proc.exec"],
)
def awk(args: Any, ctx: Context) -> int:
    words = [to_text(w) for w in getattr(args, "words", ())]
    return run_awk(ctx, words)


TOOLS = [awk]
