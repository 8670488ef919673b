"""xargs (GNU findutils 4.9): build command lines from standard input and run them.

xargs is declared `verbatim` and parses its own options (see `parse_options`): POSIX
utility syntax puts xargs's options before the command, and every word from the
command on belongs to the command (`xargs echo -n` passes `-n` to echo). The typed
binder takes options anywhere, so it cannot express that boundary.

Input items follow GNU's rules: blanks and newlines separate items, single and double
quotes group (they may not span lines), a backslash escapes the next character; with
-0 or -d each item ends at the delimiter, taken literally. Commands run through
`ctx.shell.run_argv` with an empty stdin (GNU gives them /dev/null); under -P N each runs in
its own thread and its own copy of the session, at most N at once."""

from __future__ import annotations

import _thread
import io
import itertools

from tysh.builtins._common.lines import line_batches
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.limits import LimitExceeded
from tysh.kernel.base.record import MutableRecord, Record, field, frozen, mutable
from tysh.kernel.base.threads import start_deep
from tysh.kernel.base.values import to_text
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import threading
    from collections.abc import Iterator
    from typing import IO, Any
else:  # only -P starts threads
    threading = LazyModule(globals(), "threading", "threading")

DEFAULT_MAX_CHARS = 128 * 1024


class UsageError(Exception):
    pass


class QuoteError(Exception):
    pass


@frozen
class XargsOptions(Record):
    command: tuple[str, ...] = ("echo",)
    max_args: int | None = None
    max_lines: int | None = None
    replace: str | None = None
    delimiter: bytes | None = None
    no_run_if_empty: bool = False
    verbose: bool = False
    max_chars: int = DEFAULT_MAX_CHARS
    arg_file: str | None = None
    eof: str | None = None
    max_procs: int = 1  # -P: commands at once (0: as many as MAX_PROCS allows)
    warnings: tuple[str, ...] = ()  # GNU's warnings about options that cancel others


# -P 0 means "as many as possible" to GNU; here, at most this many threads at once
MAX_PROCS = 64

_SHORT_VALUE = {"n": "max_args", "L": "max_lines", "I": "replace", "d": "delimiter",
                "s": "max_chars", "P": "max_procs", "a": "arg_file", "E": "eof"}
_SHORT_OPTIONAL = {"i": "replace", "l": "max_lines", "e": "eof"}
_SHORT_FLAG = {"0": "null", "r": "no_run_if_empty", "t": "verbose", "x": "exit",
               "p": "interactive"}
_LONG = {
    "max-args": ("max_args", "req"), "max-lines": ("max_lines", "opt"),
    "replace": ("replace", "opt"), "delimiter": ("delimiter", "req"),
    "max-chars": ("max_chars", "req"), "max-procs": ("max_procs", "req"),
    "arg-file": ("arg_file", "req"), "eof": ("eof", "opt"), "null": ("null", "flag"),
    "no-run-if-empty": ("no_run_if_empty", "flag"), "verbose": ("verbose", "flag"),
    "exit": ("exit", "flag"), "interactive": ("interactive", "flag"),
    "open-tty": ("open_tty", "flag"), "process-slot-var": ("process_slot_var", "req"),
}
_OPTIONAL_DEFAULT = {"replace": "{}", "max_lines": "1", "eof": ""}


_HEX_ESCAPE = LazyRegex(r"\\x([0-9a-fA-F]{1,2})")
_OCTAL_ESCAPE = LazyRegex(r"\\([0-7]{1,3})")


def _delimiter(text: str) -> bytes:
    """-d's argument: one character, or an escape (`\\n`, `\\t`, `\\0`, `\\x41`, `\\101`)."""
    esc = {"n": b"\n", "t": b"\t", "r": b"\r", "0": b"\0", "\\": b"\\", "a": b"\a",
           "b": b"\b", "f": b"\f", "v": b"\v"}
    if len(text) == 2 and text[0] == "\\" and text[1] in esc:
        return esc[text[1]]
    m = _HEX_ESCAPE.fullmatch(text)
    if m:
        return bytes([int(m.group(1), 16)])
    m = _OCTAL_ESCAPE.fullmatch(text)
    if m and int(m.group(1), 8) < 256:
        return bytes([int(m.group(1), 8)])
    raw = text.encode("utf-8", "surrogateescape")
    if len(raw) != 1:
        raise UsageError(f"invalid input delimiter specification {text}: the delimiter must "
                         "be either a single character or an escape sequence starting with \\.")
    return raw


def _positive(name: str, value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise UsageError(f"invalid number \"{value}\" for -{name} option") from None
    if n < 1:
        raise UsageError(f"value {value} for -{name} option should be >= 1")
    return n


def _option_value(words: list[str], i: int, glued: str | None, missing: str) -> tuple[str, int]:
    """An option's value: glued to it (`-n1`, `--max-args=1`) or the next word; with the
    index of the word after it."""
    if glued is not None:
        return glued, i
    if i < len(words):
        return words[i], i + 1
    raise UsageError(missing)


# (option set now, option set before) -> how GNU names them when the later one wins
_EXCLUSIVE = {
    ("max_args", "max_lines"): ("--max-lines", "--max-args/-n"),
    ("max_lines", "max_args"): ("--max-args", "{spelling}"),
    ("max_lines", "replace"): ("--replace", "{spelling}"),
    ("replace", "max_args"): ("--max-args", "--replace/-I/-i"),
    ("replace", "max_lines"): ("--max-lines", "--replace/-I/-i"),
}


def _assign(got: dict[str, Any], key: str, value: Any, spelling: str,
            warnings: list[str]) -> None:
    """Set an option; -n, -L/-l and -I/-i cancel one another as in GNU (the later wins,
    with a warning; -n after -I is simply kept)."""
    for other in ("max_args", "max_lines", "replace"):
        names = _EXCLUSIVE.get((key, other))
        if names is not None and other in got:
            old, new = names
            warnings.append(f"warning: options {old} and {new.format(spelling=spelling)} are "
                            f"mutually exclusive, ignoring previous {old} value")
            if (key, other) != ("replace", "max_args"):  # -I runs per line: -n is moot
                del got[other]
    got[key] = value


def parse_options(words: list[str]) -> XargsOptions:
    """GNU getopt over xargs's own options, stopping at the first operand (the command)
    or at `--`; short options bundle (`-0rn1`), values glue or follow (`-n1`, `-n 1`)."""
    got: dict[str, Any] = {}
    warnings: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w == "--":
            i += 1
            break
        if not w.startswith("-") or w == "-":
            break
        i += 1
        if w.startswith("--"):
            name, eq, val = w[2:].partition("=")
            matches = [k for k in _LONG if k.startswith(name)]
            if name in _LONG:
                matches = [name]
            if len(matches) != 1:
                raise UsageError(f"unrecognized option '{w}'" if not matches
                                 else f"option '{w}' is ambiguous")
            key, kind = _LONG[matches[0]]
            spelling = "--max-lines/-l"
            if kind == "flag":
                got[key] = True
            elif kind == "opt":
                _assign(got, key, val if eq else _OPTIONAL_DEFAULT[key], spelling, warnings)
            else:
                value, i = _option_value(words, i, val if eq else None,
                                         f"option '--{matches[0]}' requires an argument")
                _assign(got, key, value, spelling, warnings)
            continue
        j = 1
        while j < len(w):
            c = w[j]
            j += 1
            if c in _SHORT_FLAG:
                got[_SHORT_FLAG[c]] = True
            elif c in _SHORT_OPTIONAL:
                key = _SHORT_OPTIONAL[c]
                _assign(got, key, w[j:] if j < len(w) else _OPTIONAL_DEFAULT[key],
                        "--max-lines/-l", warnings)
                break
            elif c in _SHORT_VALUE:
                value, i = _option_value(words, i, w[j:] if j < len(w) else None,
                                         f"option requires an argument -- '{c}'")
                _assign(got, _SHORT_VALUE[c], value, "-L", warnings)
                break
            else:
                raise UsageError(f"invalid option -- '{c}'")
    command = tuple(words[i:]) or ("echo",)
    delim: bytes | None = None
    if got.get("null"):
        delim = b"\0"
    if "delimiter" in got:
        delim = _delimiter(got["delimiter"])
    max_args = _positive("n", got["max_args"]) if "max_args" in got else None
    max_lines = _positive("L", got["max_lines"]) if "max_lines" in got else None
    max_chars = _positive("s", got["max_chars"]) if "max_chars" in got else DEFAULT_MAX_CHARS
    max_procs = 1
    if "max_procs" in got:
        try:
            max_procs = int(got["max_procs"])
        except ValueError:
            raise UsageError(f"invalid number \"{got['max_procs']}\" for -P option") from None
        if max_procs < 0:
            raise UsageError(f"invalid number \"{got['max_procs']}\" for -P option")
    replace = got.get("replace")
    if replace == "":
        replace = None
    return XargsOptions(
        command=command,
        max_args=max_args,
        max_lines=1 if replace is not None else max_lines,
        replace=replace,
        delimiter=delim,
        no_run_if_empty=bool(got.get("no_run_if_empty")),
        verbose=bool(got.get("verbose")),
        max_chars=max_chars,
        arg_file=got.get("arg_file"),
        eof=got.get("eof") or None,
        max_procs=max_procs or MAX_PROCS,
        warnings=tuple(warnings),
    )


# ------------------------------------------------------------------- input items

_PLAIN = LazyRegex(r"[^'\"\\]*")


def tokenize(line: str, split_blanks: bool = True) -> list[str]:
    """The items of one input line under GNU's quoting rules; with split_blanks False
    (for -I) the whole line is one item, blanks kept, quotes still removed."""
    if _PLAIN.fullmatch(line):
        if split_blanks:
            return line.split()
        s = line.lstrip(" \t")
        return [s] if s else []
    out: list[str] = []
    cur: list[str] = []
    have = False
    quote = ""
    i = 0
    n = len(line)
    if not split_blanks:
        line = line.lstrip(" \t")
        n = len(line)
    while i < n:
        c = line[i]
        i += 1
        if quote:
            if c == quote:
                quote = ""
            else:
                cur.append(c)
            continue
        if c == "\\":
            if i < n:
                cur.append(line[i])
                i += 1
            have = True
        elif c in "'\"":
            quote = c
            have = True
        elif split_blanks and c in " \t\r\f\v":
            if have:
                out.append("".join(cur))
                cur.clear()
                have = False
        else:
            cur.append(c)
            have = True
    if quote:
        kind = "single" if quote == "'" else "double"
        raise QuoteError(f"unmatched {kind} quote; by default quotes are special to xargs "
                         "unless you use the -0 option")
    if have:
        out.append("".join(cur))
    return out


def _decoded(f: IO[bytes], delim: bytes) -> Iterator[list[str]]:
    for batch in line_batches(f, delim):
        yield [p.decode("utf-8", "surrogateescape") for p in batch]


def input_groups(f: IO[bytes], o: XargsOptions) -> Iterator[list[str]]:
    """Items grouped by input line (each -d/-0 item a line of its own); a line ending in
    a blank continues on the next one for -L, as GNU counts lines."""
    if o.delimiter is not None:
        for batch in _decoded(f, o.delimiter):
            for item in batch:
                if o.eof is not None and item == o.eof:
                    return
                yield [item]
        return
    pending: list[str] = []
    carry = ""
    for raw in itertools.chain.from_iterable(_decoded(f, b"\n")):
        line = carry + raw
        if (len(line) - len(line.rstrip("\\"))) % 2:  # an escaped newline joins the lines
            carry = line + "\n"
            continue
        carry = ""
        items = tokenize(line, split_blanks=o.replace is None)
        if o.eof is not None and o.eof in items:
            pending.extend(items[: items.index(o.eof)])
            break
        pending.extend(items)
        if o.max_lines is not None and o.replace is None and line[-1:] in (" ", "\t"):
            continue
        if pending:
            yield pending
            pending = []
    if carry:
        pending.extend(tokenize(carry[:-1], split_blanks=o.replace is None))
    if pending:
        yield pending


# -------------------------------------------------------------------- running

# gnulib quotearg's shell-escape style, which GNU xargs -t/-p uses for each word
_SAFE_WORD = LazyRegex(r"[A-Za-z0-9%+,\-./:@_{}\]#~\x80-\U0010ffff]+")
_DQ_SPECIAL = LazyRegex(r"[$`\\\"!]")
_NAMED_ESC = {"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v",
              "\f": "\\f", "\r": "\\r"}


def _is_control(c: str) -> bool:
    return c < " " or c == "\x7f" or "\udc80" <= c <= "\udcff"


def shell_quote(word: str) -> str:
    """A word as GNU xargs -t prints it: bare when it needs no quoting, in double quotes
    when its only problem is a single quote, else single-quoted with `'\\''` for quotes
    and `$'\\t'`/`$'\\ooo'` pieces for control characters and invalid bytes."""
    if not word:
        return "''"
    if _SAFE_WORD.fullmatch(word) and word[0] not in "#~" and not any(
        "\udc80" <= c <= "\udcff" for c in word
    ):
        return word
    controls = any(_is_control(c) for c in word)
    if "'" in word and not controls and not _DQ_SPECIAL.search(word):
        return f'"{word}"'
    out = ["'"]
    quoted = True
    escapes: list[str] = []  # a run of control characters, printed as one $'...'
    for c in word:
        if _is_control(c):
            if quoted:
                out.append("'")
                quoted = False
            code = ord(c) - 0xDC00 if c >= "\udc80" else ord(c)
            escapes.append(_NAMED_ESC.get(c, f"\\{code:03o}"))
            continue
        if escapes:
            out.append("$'" + "".join(escapes) + "'")
            escapes.clear()
        if not quoted:
            out.append("'")
            quoted = True
        out.append("'\\''" if c == "'" else c)
    if escapes:
        out.append("$'" + "".join(escapes) + "'")
    if quoted:
        out.append("'")
    return "".join(out)



@mutable
class _Runner(MutableRecord):
    ctx: Context
    opts: XargsOptions
    stdin: IO[bytes]
    status: int = 0
    ran: bool = False

    slots: threading.Semaphore | None = None  # -P N: free places for running commands
    jobs: list[threading.Thread] = field(factory=list)
    stop: int | None = None  # set by a parallel command that ends the run
    lock: _thread.LockType = field(factory=_thread.allocate_lock)

    def run(self, argv: list[str]) -> int | None:
        """Run one command; an exit status for xargs when it must stop now. Under -P the
        command starts in its own thread, in a copy of the session (as each process of
        GNU xargs -P is its own), once one of the N places is free."""
        self.ran = True
        if self.opts.verbose:
            line = " ".join(map(shell_quote, argv)) + "\n"
            self.ctx.stderr.write(line.encode("utf-8", "surrogateescape"))
        if self.opts.max_procs == 1:
            return self.judge(argv, self.ctx.shell.run_argv(
                argv, self.stdin, self.ctx.stdout, self.ctx.stderr))
        if self.slots is None:
            self.slots = threading.Semaphore(self.opts.max_procs)
        self.slots.acquire()
        if self.stop is not None:
            self.slots.release()
            return self.stop
        shell = self.ctx.shell.fork()

        def job() -> None:
            try:
                rc = shell.run_argv(argv, self.stdin, self.ctx.stdout, self.ctx.stderr)
                with self.lock:
                    if self.stop is None:  # once the run is ending, the rest are not judged
                        self.stop = self.judge(argv, rc)
            finally:
                assert self.slots is not None
                self.slots.release()

        t = threading.Thread(target=job, daemon=True, name="tysh-xargs")
        try:
            start_deep(t)
        except LimitExceeded:
            self.slots.release()
            raise
        self.jobs.append(t)
        return None

    def wait(self) -> int | None:
        """Wait for the commands still running under -P; the stop status one of them set."""
        for t in self.jobs:
            t.join()
        self.jobs.clear()
        return self.stop

    def judge(self, argv: list[str], rc: int) -> int | None:
        """GNU's reading of a command's status: None to go on, else xargs's own status."""
        if rc == 0:
            return None
        if rc in (126, 127):
            return rc
        if rc == 255:
            self.ctx.error(f"{argv[0]}: exited with status 255; aborting")
            return 124
        if 128 < rc < 255:
            self.ctx.error(f"{argv[0]}: terminated by signal {rc - 128}")
            return 125
        self.status = 123
        return None


def _batches(o: XargsOptions, groups: Iterator[list[str]]) -> Iterator[list[str]]:
    """Arguments per command line under -n, -L and the -s size limit."""
    base = sum(len(a) + 1 for a in o.command)
    cur: list[str] = []
    size = base
    lines = 0
    for group in groups:
        for item in group:
            cost = len(item) + 1
            if cur and (size + cost > o.max_chars):
                yield cur
                cur, size, lines = [], base, 0
            cur.append(item)
            size += cost
            if o.max_args is not None and len(cur) >= o.max_args:
                yield cur
                cur, size, lines = [], base, 0
        if o.max_lines is not None and cur:
            lines += 1
            if lines >= o.max_lines:
                yield cur
                cur, size, lines = [], base, 0
    if cur:
        yield cur


def _xargs(o: XargsOptions, ctx: Context) -> int:
    source: IO[bytes] = ctx.stdin
    cmd_stdin: IO[bytes] = io.BytesIO(b"")
    if o.arg_file is not None:
        try:
            source = ctx.fs.open(ctx.path(o.arg_file), "rb") if o.arg_file != "-" else ctx.stdin
        except FsError as e:
            ctx.error(f"Cannot open input file '{o.arg_file}': {e.reason}")
            return 1
        cmd_stdin = ctx.stdin if o.arg_file != "-" else cmd_stdin
    runner = _Runner(ctx, o, cmd_stdin)
    try:
        return _feed(o, runner, source)
    except QuoteError as e:
        runner.wait()
        ctx.error(str(e))
        return 1
    finally:
        runner.wait()
        if source is not ctx.stdin:
            source.close()


def _feed(o: XargsOptions, runner: _Runner, source: IO[bytes]) -> int:
    """Build and run the command lines; xargs's status."""
    groups = input_groups(source, o)
    if o.replace is not None:
        lines = ([a.replace(o.replace, " ".join(g) if len(g) > 1 else g[0]) for a in o.command]
                 for g in groups)
    else:
        lines = ([*o.command, *args] for args in _batches(o, groups))
    for argv in lines:
        stop = runner.run(argv)
        if stop is not None:
            return stop
    if not runner.ran and not o.no_run_if_empty and o.replace is None:
        stop = runner.run(list(o.command))
        if stop is not None:
            return stop
    stop = runner.wait()
    return stop if stop is not None else runner.status


@tool(
    "xargs", kind="execute",
    verbatim=True,
    description=(
        "build and run command lines from standard input (default command: echo); "
        "options come before the command: -n N, -L N, -I R, -0, -d D, -r, -t, -s N, -a FILE, "
        "-E EOF, -P N (N commands at once)"
    ),
    examples=[
        ("delete the files listed", "find . -name '*.tmp' | xargs rm"),
        ("two arguments per command", "seq 6 | xargs -n 2 echo"),
        ("one command per line with a placeholder", "cat names.txt | xargs -I{} echo 'hello {}'"),
        ("NUL-separated names", "find . -print0 | xargs -0 ls -l"),
    ],
    operations=["proc.exec"],
)
def xargs(args: Any, ctx: Context) -> int:
    words = [to_text(w) for w in getattr(args, "words", ())]
    try:
        opts = parse_options(words)
    except UsageError as e:
        ctx.error(str(e))
        return 1
    for warning in opts.warnings:
        ctx.error(warning)
    return _xargs(opts, ctx)


TOOLS = [xargs]
