"""sed: the stream editor, as GNU sed 4.9 does it.

The script is parsed once (sed.parse) into a flat list of commands (sed.ir). A script of
unaddressed `s` and `y` commands runs over whole blocks of lines (sed.fast); other scripts
are compiled to one Python function over batches of lines (sed.compile); those using
commands that reach across cycles (N D G H x b t w r…) run in the interpreter
(sed.interp), per line over the decoded text. Regular expressions come from
kernel.text.regex (POSIX BRE/ERE → Python re).

`--json` gives the output lines as a JSON array of strings.
"""

from __future__ import annotations

import io
import posixpath

from tysh.builtins._common.lines import Kept
from tysh.builtins._common.operands import is_stdin
from tysh.builtins.sed import compile as sed_compile
from tysh.builtins.sed.fast import block_function, run_blocks
from tysh.builtins.sed.interp import Quit, ScriptRunner
from tysh.builtins.sed.ir import Cmd, SedError
from tysh.builtins.sed.parse import Parser
from tysh.builtins.sed.streams import Input, Output, WFile
from tysh.kernel.base.record import Record, replace, value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.text.regex import RegexError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Generator
    from typing import IO

    from tysh.builtins.sed.compile import CompiledScript


@value_record
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
    line_length: int = param(70, aliases=["-l"], help="line-wrap length for `l`", min=0,
                             range_error="invalid line length: {value}")
    debug: bool = param(False, help="accepted; no debug output")


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
        Parser(script, bounds, args.regexp_extended).parse()
    except SedError as e:
        return [f"sed: {e.message}"]
    except (RecursionError, ValueError) as e:  # never let a check itself fail loudly
        return [f"sed: {e}"]
    return []


@tool(
    "sed", kind="read", paths=["operands"], script_params=["expression", "file"], kind_when=[("in_place", "edit")], check=check_sed,
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
        args = replace(args, quiet=True)
    extended = args.regexp_extended
    try:
        cmds = Parser(script, bounds, extended).parse()
    except SedError as e:
        ctx.error(e.message)
        return e.status
    if args.in_place and not files:
        ctx.error("no input files")
        return 4
    compiled = _compile(script, cmds, args, extended)
    status = [False]
    json_lines: list[str] | None = [] if ctx.json else None
    quit_code: int | None = None  # the `q`/`Q` exit code, once one ran: no more files
    sep = "\0" if args.null_data else "\n"
    # text mode: a bounded copy of what is written gives the typed value (not with -i,
    # whose output goes to the files)
    kept = None if json_lines is not None or args.in_place else Kept(ctx.stdout, ctx.keeps_value)
    sink: IO[bytes] = (io.BytesIO() if json_lines is not None
                       else ctx.stdout if kept is None else kept)  # type: ignore[assignment]
    stdout = Output(sink, sep)  # one stream over all files, -s or not, as GNU's
    # `w` files are opened once for the run; /dev/stdout is the real output even with -i
    wfiles = {name: WFile(None, stdout.parts, sep) for name in ("/dev/stdout", "-")}
    try:
        if args.in_place:
            for name in files:
                if name != "-" and ctx.fs.is_dir(ctx.path(name)):
                    raise SedError(f"couldn't edit {name}: not a regular file", 4)
                buf = io.BytesIO()
                runner = ScriptRunner(cmds, ctx, args.quiet, sep, args.line_length,
                                      Output(buf, sep), wfiles)
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
                    # a temporary file renamed over the original, as GNU sed does: a
                    # failed write (a full disk) leaves the original as it was
                    with ctx.fs.replace(ctx.path(name)) as out:
                        out.write(buf.getvalue())
                except FsError as e:
                    ctx.error(f"couldn't edit {name}: {e.reason}")
                    status[0] = True
                if quit_code is not None:
                    break
        else:
            groups = [[n] for n in files] if args.separate and files else [files]
            for names in groups:
                runner = ScriptRunner(cmds, ctx, args.quiet, sep, args.line_length, stdout,
                                      wfiles)
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
                final = 2 if status[0] and not code else code
                return Outcome(code=final, output=OutputData(
                    rich_json=_lines(sink.getvalue().decode("utf-8", "surrogateescape"))))
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
    code = quit_code or (2 if status[0] else 0)
    if kept is None:
        return code

    def value() -> list[str] | None:
        text = kept.text(errors="surrogateescape")
        return None if text is None else _lines(text)

    return Outcome(code=code, output=OutputData.value(value))


def _lines(text: str) -> list[str]:
    """The lines written, without their newlines."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _compile(script: str, cmds: list[Cmd], args: SedArgs,
             extended: bool) -> CompiledScript | None:
    """The script compiled to one Python function (sed.compile), None for the interpreter."""
    sep = "\0" if args.null_data else "\n"
    key = (script, args.quiet, sep, args.line_length, extended)
    if not sed_compile.ENABLED:
        return None
    return sed_compile.compile_cached(key, cmds, args.quiet, sep, args.line_length, extended)


def _execute(runner: ScriptRunner, args: SedArgs, extended: bool,
             srcs: Generator[tuple[str, IO[bytes]], None, None],
             compiled: CompiledScript | None = None) -> int | None:
    """Run the script over one stream; returns the exit code of a `q`/`Q` that ran (the
    caller then reads no more files), None at the end of the input."""
    fast = block_function(runner.cmds, args.quiet, args.null_data, extended)
    if fast is not None:
        run_blocks(fast, srcs, runner.output)
        return None
    runner.open_wfiles()
    inp = Input(srcs, runner.sep, runner.flush)
    try:
        if compiled is not None:
            compiled(inp, runner)
        else:
            runner.run(inp)
    except Quit as q:
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
    path = ctx.path(name)
    if "*" in suffix:
        head, base = posixpath.split(path)
        target = suffix.replace("*", base)
        backup = ctx.path(target) if "/" in target else posixpath.join(head, target)
    else:
        backup = path + suffix
    ctx.fs.write_bytes(backup, ctx.fs.read_bytes(path))
