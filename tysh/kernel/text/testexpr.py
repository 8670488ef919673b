"""The `test` / `[` expression evaluator: POSIX's argument-count rules, then bash's grammar.

`evaluate(argv, ctx)` returns True/False or raises TestError (status 2) with bash's
message. With 0-4 arguments the outcome is fixed by counting them (so `[ -n ]`,
`[ ! = x ]` mean what POSIX says); longer expressions go through a recursive descent
parser with `!`, `( )`, `-a` binding tighter than `-o`. File tests go through `ctx.fs`.
"""

from __future__ import annotations

import operator
import os
import stat as st

from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.fs.api import FileStat, FsError
from tysh.kernel.tools.context import Context

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence


class TestError(Exception):
    """A malformed expression; the message is bash's, without the `test: ` prefix."""

    __test__ = False  # not a pytest class

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


_INT_RE = LazyRegex(r"\s*[+-]?\d+\s*\Z")


def _int(s: str) -> int:
    if s.isdigit() and s.isascii() and len(s) < 19:  # a plain count: nothing to check
        return int(s)
    if not _INT_RE.match(s):
        raise TestError(f"{s}: integer expression expected")
    n = int(s)
    if not -(1 << 63) <= n < 1 << 63:  # bash reads intmax_t: out of range is not a number
        raise TestError(f"{s}: integer expression expected")
    return n


# -- file tests --------------------------------------------------------------------------

def _stat(ctx: Context, p: str, follow: bool = True) -> FileStat | None:
    if not p:
        return None
    try:
        return ctx.fs.stat(ctx.path(p), follow=follow)
    except FsError:
        return None
    except (OSError, ValueError):
        return None


def _access(s: FileStat, bit: int) -> bool:
    """Permission as access(2) decides it for this process: root reads and writes
    anything and executes what has any x bit (or is a directory)."""
    euid = os.geteuid() if hasattr(os, "geteuid") else 0
    mode = s.mode
    if euid == 0:
        if bit == 1:
            return bool(mode & 0o111) or st.S_ISDIR(mode)
        return True
    if s.uid == euid:
        return bool(mode & (bit << 6))
    if s.gid in _groups():
        return bool(mode & (bit << 3))
    return bool(mode & bit)


def _groups() -> set[int]:
    try:
        return {os.getegid(), *os.getgroups()}
    except (AttributeError, OSError):
        return set()


def _mode_test(pred: Callable[[int], bool]) -> Callable[[Context, str], bool]:
    def check(ctx: Context, p: str) -> bool:
        s = _stat(ctx, p)
        return s is not None and pred(s.mode)

    return check


def _exists(ctx: Context, p: str) -> bool:
    return _stat(ctx, p) is not None


def _symlink(ctx: Context, p: str) -> bool:
    s = _stat(ctx, p, follow=False)
    return s is not None and (s.kind == "symlink" or st.S_ISLNK(s.mode))


def _perm(bit: int) -> Callable[[Context, str], bool]:
    def check(ctx: Context, p: str) -> bool:
        s = _stat(ctx, p)
        return s is not None and _access(s, bit)

    return check


def _size(ctx: Context, p: str) -> bool:
    s = _stat(ctx, p)
    return s is not None and s.size > 0


def _modified_since_read(ctx: Context, p: str) -> bool:
    """bash's -N: the file exists and its mtime is not older than its atime."""
    s = _stat(ctx, p)
    return s is not None and s.mtime >= s.atime


def _owned(ctx: Context, p: str) -> bool:
    s = _stat(ctx, p)
    return s is not None and hasattr(os, "geteuid") and s.uid == os.geteuid()


def _group_owned(ctx: Context, p: str) -> bool:
    s = _stat(ctx, p)
    return s is not None and hasattr(os, "getegid") and s.gid == os.getegid()


def _terminal(ctx: Context, p: str) -> bool:
    fd = _int(p)
    if fd == 0:
        return ctx.stdin_is_terminal
    if fd == 1:
        return ctx.isatty
    return False


def _var_set(ctx: Context, name: str) -> bool:
    return ctx.shell.var_is_set(name)


_OPTION_LETTERS = {
    "allexport": "a", "braceexpand": "B", "errexit": "e", "hashall": "h", "monitor": "m",
    "noclobber": "C", "noexec": "n", "noglob": "f", "notify": "b", "nounset": "u",
    "verbose": "v", "xtrace": "x",
}


def _option_set(ctx: Context, name: str) -> bool:
    """`-o OPTION`: from $SHELLOPTS when the session keeps it, else from the letters of $-."""
    try:
        opts = ctx.shell.get_var("SHELLOPTS")
        letters = ctx.shell.get_var("-")
    except Exception:  # noqa: BLE001 - a session without them has no options set
        return False
    if isinstance(opts, str) and opts:
        return name in opts.split(":")
    letter = _OPTION_LETTERS.get(name)
    return letter is not None and isinstance(letters, str) and letter in letters


def _is_kind(kind: str) -> Callable[[Context, str], bool]:
    def check(ctx: Context, p: str) -> bool:
        s = _stat(ctx, p)
        return s is not None and s.kind == kind

    return check


UNARY: dict[str, Callable[[Context, str], bool]] = {
    "-e": _exists,
    "-a": _exists,
    "-f": _is_kind("file"),
    "-d": _is_kind("directory"),
    "-s": _size,
    "-r": _perm(4),
    "-w": _perm(2),
    "-x": _perm(1),
    "-L": _symlink,
    "-h": _symlink,
    "-p": _mode_test(st.S_ISFIFO),
    "-S": _mode_test(st.S_ISSOCK),
    "-b": _mode_test(st.S_ISBLK),
    "-c": _mode_test(st.S_ISCHR),
    "-g": _mode_test(lambda m: bool(m & st.S_ISGID)),
    "-u": _mode_test(lambda m: bool(m & st.S_ISUID)),
    "-k": _mode_test(lambda m: bool(m & st.S_ISVTX)),
    "-N": _modified_since_read,
    "-O": _owned,
    "-G": _group_owned,
    "-t": _terminal,
    "-z": lambda ctx, s: not s,
    "-n": lambda ctx, s: bool(s),
    "-v": _var_set,
    "-o": _option_set,
}


def _newer(ctx: Context, a: str, b: str) -> bool:
    sa, sb = _stat(ctx, a), _stat(ctx, b)
    if sa is None:
        return False
    return sb is None or sa.mtime > sb.mtime


def _same_file(ctx: Context, a: str, b: str) -> bool:
    sa, sb = _stat(ctx, a), _stat(ctx, b)
    return sa is not None and sb is not None and (sa.dev, sa.ino) == (sb.dev, sb.ino)


BINARY: dict[str, Callable[[Context, str, str], bool]] = {
    "=": lambda ctx, a, b: a == b,
    "==": lambda ctx, a, b: a == b,
    "!=": lambda ctx, a, b: a != b,
    "<": lambda ctx, a, b: a < b,
    ">": lambda ctx, a, b: a > b,
    "-eq": lambda ctx, a, b: _int(a) == _int(b),
    "-ne": lambda ctx, a, b: _int(a) != _int(b),
    "-lt": lambda ctx, a, b: _int(a) < _int(b),
    "-le": lambda ctx, a, b: _int(a) <= _int(b),
    "-gt": lambda ctx, a, b: _int(a) > _int(b),
    "-ge": lambda ctx, a, b: _int(a) >= _int(b),
    "-nt": _newer,
    "-ot": lambda ctx, a, b: _newer(ctx, b, a),
    "-ef": _same_file,
}


# -- the grammar -------------------------------------------------------------------------

class _Parser:
    """bash's expr/or/and/term descent over argv[pos:end]."""

    def __init__(self, argv: Sequence[str], ctx: Context) -> None:
        self.argv = argv
        self.ctx = ctx
        self.pos = 0
        self.end = len(argv)

    def run(self) -> bool:
        value = self.or_()
        if self.pos != self.end:
            raise TestError("too many arguments")
        return value

    def or_(self) -> bool:
        value = self.and_()
        while self.pos < self.end and self.argv[self.pos] == "-o":
            self.pos += 1
            rhs = self.and_()
            value = value or rhs
        return value

    def and_(self) -> bool:
        value = self.term()
        while self.pos < self.end and self.argv[self.pos] == "-a":
            self.pos += 1
            rhs = self.term()
            value = value and rhs
        return value

    def term(self) -> bool:
        argv, pos, end = self.argv, self.pos, self.end
        if pos >= end:
            raise TestError("argument expected")
        w = argv[pos]
        if w == "!":
            negate = False
            while self.pos < end and argv[self.pos] == "!":
                negate = not negate
                self.pos += 1
            v = self.term()
            return not v if negate else v
        if w == "(":
            self.pos += 1
            v = self.or_()
            if self.pos >= end:
                raise TestError("`)' expected")
            if argv[self.pos] != ")":
                raise TestError(f"`)' expected, found {argv[self.pos]}")
            self.pos += 1
            return v
        if pos + 3 <= end and argv[pos + 1] in BINARY:
            self.pos = pos + 3
            return BINARY[argv[pos + 1]](self.ctx, w, argv[pos + 2])
        if pos + 2 <= end and w in UNARY:
            self.pos = pos + 2
            return UNARY[w](self.ctx, argv[pos + 1])
        self.pos = pos + 1
        return w != ""


def _two(argv: Sequence[str], ctx: Context) -> bool:
    a, b = argv
    if a == "!":
        return b == ""
    fn = UNARY.get(a)
    if fn is None:
        raise TestError(f"{a}: unary operator expected")
    return fn(ctx, b)


def _three(argv: Sequence[str], ctx: Context) -> bool:
    a, op, b = argv
    fn = BINARY.get(op)
    if fn is not None:
        return fn(ctx, a, b)
    if op == "-a":
        return a != "" and b != ""
    if op == "-o":
        return a != "" or b != ""
    if a == "!":
        return not _two(argv[1:], ctx)
    if a == "(" and b == ")":
        return op != ""
    raise TestError(f"{op}: binary operator expected")


# The binary operators that compare their operands alone (no file, no shell state).
_PLAIN_STRING: dict[str, Callable[[str, str], bool]] = {
    "=": operator.eq, "==": operator.eq, "!=": operator.ne, "<": operator.lt,
    ">": operator.gt}
_PLAIN_INT: dict[str, Callable[[int, int], bool]] = {
    "-eq": operator.eq, "-ne": operator.ne, "-lt": operator.lt, "-le": operator.le,
    "-gt": operator.gt, "-ge": operator.ge}


def count_comparison(op: str) -> Callable[[int, int], bool] | None:
    """How the integer operator `op` (`-lt`, `-eq`, …) compares two plain counts — texts
    of fewer than 19 ASCII digits, which `_int` reads with `int` and nothing to check —,
    which is `plain_truth`'s answer for them; None for any other operator. For a planner
    that reads the operands itself."""
    return _PLAIN_INT.get(op)


def plain_truth(argv: Sequence[str], n: int | None = None) -> bool | None:
    """`evaluate` of `argv[:n]` for the commonest expressions, reached without a
    Context: up to four arguments of strings, `-z`/`-n`, `!`, `-a`/`-o` and string or
    integer comparisons (`$i -lt 10`). None for any other expression (a file test, `-v`,
    five arguments or more) and for one that is an error (a non-integer operand of
    `-lt`): `evaluate` decides those, with its message. Same argument-count rules."""
    if n is None:
        n = len(argv)
    if n == 3:
        return _plain_three(argv[0], argv[1], argv[2])
    if n == 1:
        return argv[0] != ""
    if n == 2:
        return _plain_two(argv[0], argv[1])
    if n == 0:
        return False
    if n == 4 and argv[0] == "!":
        got = _plain_three(argv[1], argv[2], argv[3])
        return None if got is None else not got
    return None


def _plain_two(a: str, b: str) -> bool | None:
    if a == "!":
        return b == ""
    if a == "-n":
        return b != ""
    if a == "-z":
        return b == ""
    return None


def _plain_three(a: str, op: str, b: str) -> bool | None:
    cmp = _PLAIN_INT.get(op)
    if cmp is not None:
        if a.isdigit() and b.isdigit() and a.isascii() and b.isascii() and (
                len(a) < 19 and len(b) < 19):  # plain counts: nothing to check
            return cmp(int(a), int(b))
        try:
            return cmp(_int(a), _int(b))
        except TestError:
            return None
    if op in BINARY:
        f = _PLAIN_STRING.get(op)
        return None if f is None else f(a, b)
    if op == "-a":
        return a != "" and b != ""
    if op == "-o":
        return a != "" or b != ""
    if a == "!":
        got = _plain_two(op, b)
        return None if got is None else not got
    if a == "(" and b == ")":
        return op != ""
    return None


def evaluate(argv: Sequence[str], ctx: Context) -> bool:
    """The truth of a `test` expression (argv without the command name or `]`)."""
    n = len(argv)
    if n == 0:
        return False
    if n == 1:
        return argv[0] != ""
    if n == 2:
        return _two(argv, ctx)
    if n == 3:
        return _three(argv, ctx)
    if n == 4:
        if argv[0] == "!":
            return not _three(argv[1:], ctx)
        if argv[0] == "(" and argv[3] == ")":
            return _two(argv[1:3], ctx)
    return _Parser(argv, ctx).run()
