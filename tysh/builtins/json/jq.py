"""`jq`: real jq semantics from the `jq` package (libjq), jq 1.6's output format and exit codes.

How input reaches libjq: the input stream is split into JSON values here (json's C
decoder finds the boundaries), and the values are run through the compiled program in
batches. libjq's iterator cannot continue after an error (a C assertion aborts the
process), so a batch that fails is re-run one value at a time: outputs before the error
are printed, the error is reported as `jq: error (at <stdin>:N): …` (status 5), and the
next value goes on, as jq does.

Kept away from libjq's own reach into the host: `$ENV`/`env` are the session's exported
variables (never the process environment), and `import`/`include` are refused (they
would read files around ctx.fs). `input`/`inputs` are served from the values already
read (`jq -n '[inputs]'`, `reduce inputs as $x …`); a program that calls `input` once per
run without -n sees the whole rest of the stream in its one run.
`halt_error` prints its message and exits with its code, as jq does.

Typed substitution: the outcome's data is the output values (one → that value, several
→ a list), so `x=$(jq .items f.json)` binds a list."""

from __future__ import annotations

import io
import json

from tysh.builtins._common.lines import slurp
from tysh.builtins._common.operands import STDIN_DEVICES
from tysh.builtins.json.format import JsonWriter
from tysh.kernel.base import worker
from tysh.kernel.base.lazyre import MULTILINE, LazyRegex
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import IO, Any

_WS = LazyRegex(r"[ \t\n\r\ufeff]*")
_USES_INPUT = LazyRegex(r"\binputs?\b")
_USES_ENV = LazyRegex(r"\$ENV\b|\benv\b")
_USES_HALT = LazyRegex(r"\bhalt_error\b")
_USES_FILENAME = LazyRegex(r"\binput_filename\b")
_MODULE = LazyRegex(r"^\s*(?:import|include)\b", MULTILINE)
_LINE = LazyRegex(r"line (\d+)")
_HALT_KEY = "__tysh_halt__"
# A number literal libjq 1.7 would keep verbatim (`1.0`, `2.50`, `1E+3`, 17+ digits) where
# jq 1.6 prints its double (`tostring`, `@csv`, "\(.)"): such input is re-written first.
_LITERAL = LazyRegex(r"[0-9][.eE]|[0-9]{17}")
_CANON = JsonWriter(indent=0)
CHUNK = 1 << 16
MAX_DATA = 100_000  # output values kept for typed substitution


@value_record
class JqArgs(Record):
    filter: str | None = param(default=None, positional=True, help="the jq program ('.' if omitted)")
    files: tuple[str, ...] = param(default=(), positional=True, help="JSON input files (stdin if none)")
    raw_output: bool = param(default=False, aliases=["-r"], help="print strings without quotes")
    join_output: bool = param(default=False, aliases=["-j"], help="like -r, no newline after each output")
    compact_output: bool = param(default=False, aliases=["-c"], help="one line per output")
    null_input: bool = param(default=False, aliases=["-n"], help="run once with null as input")
    slurp: bool = param(default=False, aliases=["-s"], help="read all inputs into one array")
    raw_input: bool = param(default=False, aliases=["-R"], help="each input line is a string")
    exit_status: bool = param(default=False, aliases=["-e"], help="status 1 if the last output is false or null, 4 if none")
    ascii_output: bool = param(default=False, aliases=["-a"], help="escape non-ASCII characters")
    sort_keys: bool = param(default=False, aliases=["-S"], help="sort object keys")
    tab: bool = param(default=False, help="indent with tabs")
    indent: int = param(default=2, help="spaces per indent level (0-7)")
    color_output: bool = param(default=False, aliases=["-C"], help="accepted; output is never coloured")
    monochrome_output: bool = param(default=False, aliases=["-M"], help="accepted (the default)")
    arg: tuple[tuple[str, str], ...] = param(default=(), consumes=2, repeatable=True, help="--arg NAME VALUE: $NAME is the string VALUE")
    argjson: tuple[tuple[str, str], ...] = param(default=(), consumes=2, repeatable=True, help="--argjson NAME JSON: $NAME is the JSON value")
    slurpfile: tuple[tuple[str, str], ...] = param(default=(), consumes=2, repeatable=True, help="--slurpfile NAME FILE: $NAME is the array of FILE's values")
    rawfile: tuple[tuple[str, str], ...] = param(default=(), consumes=2, repeatable=True, help="--rawfile NAME FILE: $NAME is FILE's text")
    args: bool = param(default=False, help="operands after the filter are $ARGS.positional strings, not files")
    jsonargs: bool = param(default=False, help="operands after the filter are $ARGS.positional JSON values")
    from_file: str | None = param(default=None, aliases=["-f"], help="read the program from a file")


class _Stop(Exception):
    """Processing ends (a parse error or halt_error); `status` is the exit code."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _ParseFailed(Exception):
    def __init__(self, rest: str, line_offset: int) -> None:
        super().__init__("parse error")
        self.rest = rest
        self.line_offset = line_offset


# what a parsed value costs beyond its text, for charging the memory budget
_VALUE_BYTES = 64


def _read_values(f: IO[bytes], ctx: Context | None = None) -> Iterator[tuple[str, int, bool]]:
    """(value text, line number after it, input drained) for each JSON value in a stream.

    Reads incrementally — what is available (read1), and while a value is incomplete at
    least as much again as its partial text, so a huge document costs linear time —
    so `… | jq` streams. Raises _ParseFailed with the unparsed rest on bad JSON. With
    `ctx`, the buffer's high-water mark is charged to its memory budget."""
    dec = json.JSONDecoder(parse_constant=_reject_constant)
    read = getattr(f, "read1", None) or f.read
    buf = ""
    pos = 0
    line = 1  # line number at `counted`
    counted = 0
    eof = False
    charged = [0]

    def more(at_least: int) -> bool:
        nonlocal buf, pos, eof, line, counted
        got: list[bytes] = []
        n = 0
        while n < at_least:
            chunk = read(max(at_least - n, CHUNK))
            if not chunk:
                eof = True
                break
            got.append(chunk)
            n += len(chunk)
        if not got:
            return False
        line += buf.count("\n", counted, pos)
        buf = buf[pos:] + b"".join(got).decode("utf-8", "replace")
        pos = counted = 0
        if ctx is not None and len(buf) > charged[0]:
            ctx.hold(2 * (len(buf) - charged[0]))  # the text, and the bytes it came from
            charged[0] = len(buf)
        return True

    while True:
        pos = _WS.match(buf, pos).end()  # type: ignore[union-attr]
        if pos >= len(buf):
            if eof or not more(1):
                return
            continue
        try:
            _, end = dec.raw_decode(buf, pos)
        except (ValueError, RecursionError):
            if not eof:
                more(len(buf) - pos + 1)
                continue
            line += buf.count("\n", counted, pos)
            raise _ParseFailed(buf[pos:], line - 1) from None
        if end >= len(buf) and not eof and more(1):
            continue  # a number may go on in the next chunk
        stop = end + 1 if buf.startswith("\n", end) else end
        line += buf.count("\n", counted, stop)
        counted = stop
        rest_ws = _WS.match(buf, end).end()  # type: ignore[union-attr]
        yield buf[pos:end], line - 1, rest_ws >= len(buf)
        pos = end


def _canonical(text: str) -> str:
    """`text` with its numbers as jq 1.6's doubles print (a no-op for most input)."""
    if _LITERAL.search(text) is None:
        return text
    try:
        return "\n".join(_CANON.dumps_numbers(json.loads(t)) for t, _ln, _d in _read_values(
            io.BytesIO(text.encode("utf-8", "surrogatepass"))))
    except (ValueError, _ParseFailed):
        return text


class _Program:
    """A jq program run by libjq in a worker process (builtins/json/jqwork.py), which a
    time limit or cancel() can kill and whose abort cannot take the host down."""

    def __init__(self, source: str, named: dict[str, Any]) -> None:
        self.source = source
        self.named = named

    def error(self) -> str | None:
        """The compile error, or None."""
        got = worker.call(_WORK, "check", {"program": self.source, "args": self.named})
        return None if got is None else str(got)

    def run(self, text: str, everything: bool = False) -> tuple[list[Any] | None, str | None]:
        """The values of the program on JSON `text` and the error that ended it; with
        `everything`, (None, error) when any value fails."""
        got = worker.call(_WORK, "run", {"program": self.source, "args": self.named,
                                        "text": text, "all": everything})
        return got["values"], got["error"]


_WORK = "tysh.builtins.json.jqwork"


def _died(ctx: Context, e: worker.WorkerDied) -> Outcome:
    ctx.error(f"error: libjq {e.reason} running this program")
    return Outcome(code=5)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"Invalid literal {name}")


class _Runner:
    def __init__(self, args: JqArgs, ctx: Context, prog: _Program, writer: JsonWriter) -> None:
        self.a = args
        self.ctx = ctx
        self.prog = prog
        self.writer = writer
        self.status = 0
        self.count = 0
        self.last: Any = None
        self.data: list[Any] | None = []
        self.raw = args.raw_output or args.join_output
        self.end = "" if args.join_output else "\n"
        self.for_file: Callable[[str], None] | None = None  # set when input_filename is used

    # -- output -------------------------------------------------------------------------
    def render(self, values: list[Any]) -> None:
        if not values:
            return
        dumps = self.writer.dumps
        end = self.end
        if self.raw:
            text = "".join((v if isinstance(v, str) else dumps(v)) + end for v in values)
        else:
            text = "".join(dumps(v) + end for v in values)
        self.ctx.stdout.write(text.encode("utf-8", "surrogateescape"))
        self.count += len(values)
        self.last = values[-1]
        if self.data is not None:
            self.data.extend(values)
            if len(self.data) > MAX_DATA:
                self.data = None

    def error(self, where: str, message: str) -> None:
        if message.startswith("{") and _HALT_KEY in message:
            self.halt(message)
        self.ctx.stderr.write(f"jq: error (at {where}): {message}\n".encode(
            "utf-8", "surrogateescape"))
        self.status = 5

    def halt(self, message: str) -> None:
        try:
            obj = json.loads(message)
            code, value = int(obj[_HALT_KEY]), obj["value"]
        except (ValueError, KeyError, TypeError):
            return
        # jq 1.6: a string as it is, null nothing, anything else compact JSON and a newline
        text = (value if isinstance(value, str) else "" if value is None
                else _CANON.dumps_numbers(value) + "\n")
        self.ctx.stderr.write(text.encode("utf-8", "surrogateescape"))
        raise _Stop(code)

    # -- running ------------------------------------------------------------------------
    def run_one(self, text: str, where: str) -> None:
        """One input value; outputs before an error are kept."""
        out, err = self.prog.run(_canonical(text))
        self.render(out or [])
        if err is not None:
            self.error(where, err)

    def run_batch(self, texts: list[str], lines: list[int], name: str) -> None:
        if len(texts) == 1:
            self.run_one(texts[0], f"{name}:{lines[0]}")
            return
        out, err = self.prog.run(_canonical("\n".join(texts)), everything=True)
        if out is None:
            for t, ln in zip(texts, lines, strict=True):
                self.run_one(t, f"{name}:{ln}")
            return
        self.render(out)

    def run_value(self, value: Any, where: str) -> None:
        text = json.dumps(value)
        if _LITERAL.search(text) is not None:
            text = _CANON.dumps_numbers(value)
        self.run_one(text, where)

    def parse_failed(self, exc: _ParseFailed, name: str) -> None:
        """Let libjq read the rest: it prints what it accepts and words the error itself."""
        out, msg = self.prog.run(exc.rest)
        self.render(out or [])
        if msg is not None:
            if msg.startswith("parse error"):
                msg = _LINE.sub(lambda m: f"line {int(m.group(1)) + exc.line_offset}", msg)
                # jq 1.6 words it without the `jq: error (at …)` prefix
                self.ctx.stderr.write(f"{msg}\n".encode("utf-8", "surrogateescape"))
                raise _Stop(2) from None
            self.error(f"{name}:{exc.line_offset + 1}", msg)


def _inputs(args: JqArgs, ctx: Context, files: list[str], status: list[int]) -> Iterator[
    tuple[str, IO[bytes]]
]:
    if not files:
        yield "<stdin>", ctx.stdin
        return
    for name in files:
        if name in STDIN_DEVICES:
            yield name, ctx.stdin
            continue
        try:
            f = ctx.fs.open(ctx.path(name), "rb")
        except FsError as e:
            ctx.error(f"error: Could not open file {name}: {e.reason}")
            status[0] = 2
            continue
        try:
            yield name, f
        finally:
            f.close()


def _program(args: JqArgs, ctx: Context) -> tuple[str, list[str]] | int:
    """The program text and the operands that are input files."""
    ops = list(args.files)
    if args.from_file is not None:
        try:
            text = ctx.fs.read_bytes(ctx.path(args.from_file)).decode("utf-8", "replace")
        except FsError as e:
            ctx.error(f"error: Could not open {args.from_file}: {e.reason}")
            return 2
        if args.filter is not None:
            ops.insert(0, args.filter)
        return text, ops
    return (args.filter if args.filter is not None else "."), ops


def _named(args: JqArgs, ctx: Context, positional: list[Any]) -> dict[str, Any] | int:
    named: dict[str, Any] = {}
    for name, value in args.arg:
        named[name] = value
    for name, text in args.argjson:
        try:
            named[name] = json.loads(text)
        except ValueError:
            ctx.error("Invalid JSON text passed to --argjson")
            return 2
    for name, path in args.slurpfile:
        try:
            raw = ctx.fs.read_bytes(ctx.path(path)).decode("utf-8", "replace")
            dec = json.JSONDecoder()
            vals, pos = [], _WS.match(raw, 0).end()  # type: ignore[union-attr]
            while pos < len(raw):
                v, pos = dec.raw_decode(raw, pos)
                vals.append(v)
                pos = _WS.match(raw, pos).end()  # type: ignore[union-attr]
            named[name] = vals
        except FsError as e:
            ctx.error(f"error: Could not open {path}: {e.reason}")
            return 2
        except ValueError as e:
            ctx.error(f"Bad JSON in --slurpfile {name} {path}: {e}")
            return 2
    for name, path in args.rawfile:
        try:
            named[name] = ctx.fs.read_bytes(ctx.path(path)).decode("utf-8", "replace")
        except FsError as e:
            ctx.error(f"error: Could not open {path}: {e.reason}")
            return 2
    named["ARGS"] = {"positional": positional, "named": dict(named)}
    return named


def _all_values(args: JqArgs, ctx: Context, files: list[str], status: list[int]) -> list[Any]:
    """Every input value, parsed (for -s, `inputs` and -R)."""
    vals: list[Any] = []
    for _name, f in _inputs(args, ctx, files, status):
        if args.raw_input:
            text = slurp(ctx, f).decode("utf-8", "replace")
            if args.slurp:
                vals.append(text)
            else:
                vals.extend(text.splitlines())
            continue
        for t, _ln, _d in _read_values(f, ctx):
            ctx.hold(2 * len(t) + _VALUE_BYTES)  # the parsed value, kept for the end
            vals.append(json.loads(t))
    if args.raw_input and args.slurp:
        return ["".join(vals)]
    return vals


def check_jq(args: JqArgs) -> list[str]:
    """The compile error of a literal jq filter, with its --arg names declared."""
    if args.from_file is not None or args.filter is None:
        return []
    text: str = args.filter
    if _MODULE.search(text):
        return ["jq: error: modules (import/include) are not available in tysh's jq"]
    named: dict[str, Any] = {}
    for pairs in (args.arg, args.argjson, args.slurpfile, args.rawfile):
        for name, _value in pairs:
            named[name] = None
    try:
        err = _Program(text, named).error()
    except (worker.WorkerDied, worker.WorkerError):
        return []  # the run reports it
    if err is not None:
        msg = err.rstrip("\n")
        return [msg if msg.startswith("jq: ") else "jq: error: " + msg]
    return []


@tool(
    "jq", kind="read", check=check_jq,
    args=JqArgs,
    typed_substitution=True,
    description="command-line JSON processor (jq semantics, jq 1.6 output)",
    examples=[
        ("a field of every element", "jq -r '.[].name' users.json"),
        ("filter with a variable", "jq --arg who ann '.[] | select(.name == $who)' users.json"),
        ("compact output", "jq -c '.items | map(.id)' data.json"),
    ],
)
def jq(args: JqArgs, ctx: Context) -> Outcome:
    try:
        return _jq(args, ctx)
    except worker.WorkerDied as e:
        return _died(ctx, e)
    except worker.WorkerError as e:
        ctx.error(f"error: {e.message}")
        return Outcome(code=5)


def _jq(args: JqArgs, ctx: Context) -> Outcome:
    got = _program(args, ctx)
    if isinstance(got, int):
        return Outcome(code=got)
    text, files = got
    positional: list[Any] = []
    if args.args or args.jsonargs:
        if args.jsonargs:
            try:
                positional = [json.loads(x) for x in files]
            except ValueError:
                ctx.error("Invalid JSON text passed to --jsonargs")
                return Outcome(code=2)
        else:
            positional = list(files)
        files = []
    if args.indent > 7 or args.indent < 0:
        ctx.error("Cannot indent more than 7 characters")
        return Outcome(code=2)
    if _MODULE.search(text):
        ctx.error("error: modules (import/include) are not available in tysh's jq")
        return Outcome(code=3)
    named = _named(args, ctx, positional)
    if isinstance(named, int):
        return Outcome(code=named)
    status = [0]
    prelude: list[str] = []
    uses_input = bool(_USES_INPUT.search(text))
    pre_values: list[Any] | None = None
    if uses_input:
        try:
            pre_values = _all_values(args, ctx, files, status)
        except _ParseFailed:
            ctx.error("error (at <stdin>:0): parse error: invalid JSON input")
            return Outcome(code=2)
        if args.slurp and not args.raw_input:
            pre_values = [pre_values]
        first = pre_values[:1] if not args.null_input else []
        rest = pre_values[1:] if not args.null_input else pre_values
        named["__tysh_inputs"] = rest
        prelude.append("def inputs: $__tysh_inputs[]; "
                       "def input: if ($__tysh_inputs|length) > 0 then $__tysh_inputs[0] "
                       "else error(\"No more inputs\") end;")
        pre_values = first
    if _USES_ENV.search(text):
        named["__tysh_env"] = ctx.shell.exported_env()
        prelude.append("$__tysh_env as $ENV | def env: $ENV;")
    filename = bool(_USES_FILENAME.search(text))
    if filename:  # the file being read; the program is compiled again for each file
        named["__tysh_filename"] = None
        prelude.append("def input_filename: $__tysh_filename;")
    if _USES_HALT.search(text):
        prelude.append(
            f'def halt_error($c): error({{"{_HALT_KEY}": $c, "value": .}}); '
            "def halt_error: halt_error(5);"
        )
    source = ("\n".join(prelude) + "\n" + text) if prelude else text
    shift = len(prelude)
    prog = _Program(source, named)
    err = prog.error()
    if err is not None:
        msg = err
        if shift:
            msg = _LINE.sub(lambda m: f"line {max(int(m.group(1)) - shift, 1)}", msg)
        if not msg.startswith("jq: "):
            msg = "jq: error: " + msg
        ctx.stderr.write((msg.rstrip("\n") + "\n").encode("utf-8", "surrogateescape"))
        return Outcome(code=3)
    writer = JsonWriter(
        indent=0 if args.compact_output else args.indent,
        tab=args.tab and not args.compact_output,
        sort_keys=args.sort_keys,
        ascii=args.ascii_output,
    )
    r = _Runner(args, ctx, prog, writer)
    if filename:
        def for_file(name: str) -> None:
            r.prog = _Program(source, {**named, "__tysh_filename": name})
        r.for_file = for_file
    try:
        if pre_values is not None:
            if args.null_input or not pre_values:
                if args.null_input:
                    r.run_value(None, "<unknown>")
            else:
                r.run_value(pre_values[0], "<stdin>:1")
        elif args.null_input:
            r.run_one("null", "<unknown>")
        elif args.slurp or args.raw_input:
            try:
                vals = _all_values(args, ctx, files, status)
            except _ParseFailed as e:
                r.parse_failed(e, "<stdin>")
                vals = []
            if args.slurp and not args.raw_input:
                r.run_value(vals, "<stdin>:0")
            else:
                for i, v in enumerate(vals):
                    r.run_value(v, f"<stdin>:{i + 1}")
        else:
            _stream(r, args, ctx, files, status)
    except _Stop as s:
        return _finish(r, args, s.status)
    code = status[0] or r.status
    return _finish(r, args, code)


def _stream(r: _Runner, args: JqArgs, ctx: Context, files: list[str], status: list[int]) -> None:
    for name, f in _inputs(args, ctx, files, status):
        if r.for_file is not None and name != "<stdin>":
            r.for_file(name)
        texts: list[str] = []
        lines: list[int] = []
        size = 0
        try:
            for t, ln, drained in _read_values(f, ctx):
                texts.append(t)
                lines.append(ln)
                size += len(t)
                if drained or len(texts) >= 512 or size > 1 << 18:
                    r.run_batch(texts, lines, name)
                    texts, lines, size = [], [], 0
        except _ParseFailed as e:
            if texts:
                r.run_batch(texts, lines, name)
            r.parse_failed(e, name)
            continue
        if texts:
            r.run_batch(texts, lines, name)


def _finish(r: _Runner, args: JqArgs, code: int) -> Outcome:
    if args.exit_status and code == 0:
        if r.count == 0:
            code = 4
        elif r.last is None or r.last is False:
            code = 1
    data: Any = None
    if r.data is not None:
        data = r.data[0] if len(r.data) == 1 else (r.data or None)
    return Outcome(code=code, data=data)
