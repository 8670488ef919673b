"""find's command line: options, starting points and the expression, parsed by hand.

Why find parses its own argv (its schema declares raw_argv): the expression
is a little language, not a set of options. Its meaning depends on order (`-a` binds
tighter than `-o`, `!` applies to the next primary, parentheses group), the same primary
may appear many times with different values, `-exec` swallows words up to `;` or `+`,
and primaries are multi-letter single-dash words (`-name`, `-maxdepth`). A clap-style
binder keeps neither order nor repetition, so the words are handed over in source order.

The expression compiles to closures once; evaluating a file is then a few calls.
Grammar, loosest first: `expr , expr` < `expr -o expr` < `expr [-a] expr` < `! expr` <
primary | `( expr )`."""

from __future__ import annotations

import stat as stat_mod
import time

from tysh.builtins._common.fileinfo import (
    file_type,
    full_mode,
    group_name,
    kind_type,
    local_time,
    mode_string,
    user_name,
)
from tysh.builtins._common.operands import open_output
from tysh.builtins.files.timestamps import parse_date
from tysh.kernel.base.lazyre import DOTALL, IGNORECASE, LazyRegex
from tysh.kernel.base.record import MutableRecord, field, mutable
from tysh.kernel.base.values import to_text
from tysh.kernel.fs.api import DirHandle, FileStat, FsError
from tysh.kernel.tools.context import Context

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import IO, Any


class FindError(Exception):
    """A usage error in find's expression (GNU exits 1 for these)."""


# the most files a run without --json keeps for its typed value (r.data); past it the
# value is None, and `find … --json` gives the whole list
FOUND_CAP = 100_000


def item_record(it: Item) -> dict[str, Any]:
    """A found file in the one file-record layout: path as printed, name, type, and size
    when the file can still be stat'ed (read when the value is first asked for, unless
    the walk already had it)."""
    st = it.stat()
    rec: dict[str, Any] = {"path": it.path, "name": it.name,
                           "type": file_type(st) if st is not None else kind_type(it.kind)}
    if st is not None:
        rec["size"] = st.size
    return rec


class Item:
    """One visited file: what the predicates look at. The stat is fetched lazily: by name
    from the directory the walk holds open (`dir`), when there is one, so a predicate
    that needs it costs no resolution of the path."""

    __slots__ = ("path", "abs", "name", "depth", "kind", "start", "_st", "_fs", "_follow",
                 "pruned", "dir")

    def __init__(
        self, path: str, abs_path: str, name: str, depth: int, kind: str, start: str,
        fs: Any, follow: bool, dir: DirHandle | None = None,
    ) -> None:
        self.path = path
        self.abs = abs_path
        self.name = name
        self.depth = depth
        self.kind = kind
        self.start = start
        self._st: FileStat | None = None
        self._fs = fs
        self._follow = follow
        self.pruned = False
        self.dir = dir

    def stat(self) -> FileStat | None:
        if self._st is None:
            self._st = self._lookup(self.dir)
            if self._st is None and self.dir is not None:
                # the walk has closed the directory (a value read after find returned)
                self._st = self._lookup(None)
        return self._st

    def _lookup(self, d: DirHandle | None) -> FileStat | None:
        for follow in ((self._follow, False) if self._follow else (False,)):
            try:
                return (self._fs.stat(self.abs, follow=follow) if d is None
                        else d.stat(self.name, follow))
            except FsError:
                continue
        return None


if TYPE_CHECKING:
    Pred = Callable[[Item], bool]


@mutable
class Runtime(MutableRecord):
    """Mutable state shared by the compiled predicates and the walker."""

    ctx: Context
    out: list[str] = field(factory=list)
    out_size: int = 0
    status: int = 0
    quit: bool = False
    batches: list[ExecBatch] = field(factory=list)
    now: float = field(factory=time.time)
    hold: bool = False  # --json: keep everything for one JSON document at the end
    sinks: dict[str, IO[bytes]] = field(factory=dict)  # -fprint files by path
    # the files printed to stdout, for find's typed value; None once past FOUND_CAP
    # without --json (the text went out; the value would cost more than it is worth)
    found: list[Item] | None = field(factory=list)

    def report(self, it: Item) -> None:
        """Remember `it` for the typed value: a file this run printed to stdout."""
        found = self.found
        if found is not None:
            if len(found) >= FOUND_CAP and not self.hold:
                self.found = None
            else:
                found.append(it)

    def emit(self, text: str) -> None:
        self.out.append(text)
        self.out_size += len(text)
        if self.out_size > 1 << 15:
            self.flush()

    def open_sink(self, name: str) -> Callable[[str], None]:
        """-fprint's FILE: created (truncated) now, as GNU does, even if nothing matches;
        one handle per name, closed by close_sinks()."""
        path = self.ctx.path(name)
        f = self.sinks.get(path)
        if f is None:
            try:
                f = open_output(self.ctx, name)
            except FsError as e:
                raise FindError(f"{name!r}: {e.reason}") from None
            self.sinks[path] = f
        handle = f

        def write(text: str) -> None:
            handle.write(text.encode("utf-8", "surrogateescape"))

        return write

    def close_sinks(self) -> None:
        for f in self.sinks.values():
            f.close()
        self.sinks.clear()

    def flush(self) -> None:
        if self.out and not self.hold:
            self.ctx.stdout.write("".join(self.out).encode("utf-8", "surrogateescape"))
            self.out.clear()
            self.out_size = 0
            try:
                self.ctx.stdout.flush()
            except (AttributeError, ValueError):
                pass

    def run(self, argv: list[str]) -> int:
        self.flush()
        try:
            return self.ctx.shell.run_argv(argv, self.ctx.stdin, self.ctx.stdout,
                                           self.ctx.stderr)
        except FsError as e:
            self.ctx.error(str(e))
            return 1


@mutable
class ExecBatch(MutableRecord):
    """`-exec CMD {} +`: paths gathered and run in batches."""

    before: list[str]
    after: list[str]
    rt: Runtime
    paths: list[str] = field(factory=list)
    size: int = 0

    LIMIT = 100_000

    def add(self, path: str) -> None:
        self.paths.append(path)
        self.size += len(path) + 1
        if self.size > self.LIMIT:
            self.run()

    def run(self) -> None:
        if not self.paths:
            return
        rc = self.rt.run([*self.before, *self.paths, *self.after])
        self.paths = []
        self.size = 0
        if rc != 0:
            self.rt.status = 1


@mutable
class FindPlan(MutableRecord):
    starts: list[str]
    pred: Pred
    follow: bool = False
    maxdepth: int | None = None
    mindepth: int = 0
    depth_first: bool = False
    json: bool = False


# ---------------------------------------------------------------------------------------
# parsing

_GLOBAL_OPTS = {"-depth", "-d", "-xdev", "-mount", "-noleaf", "-ignore_readdir_race",
                "-noignore_readdir_race", "-nowarn", "-warn", "-follow", "-daystart"}
_NEWER_XY = LazyRegex(r"-newer[aBcm][aBcmt]")


def _true(_: Item) -> bool:
    return True


def _false(_: Item) -> bool:
    return False


def _num(word: str, flag: str) -> tuple[str, int]:
    """`+N` / `-N` / `N` → (comparison, N)."""
    cmp = "="
    w = word
    if w[:1] in "+-":
        cmp, w = w[0], w[1:]
    if not w.isdigit():
        raise FindError(f"invalid argument {word!r} to {flag!r}")
    return cmp, int(w)


def _compare(cmp: str, value: int, n: int) -> bool:
    if cmp == "+":
        return value > n
    if cmp == "-":
        return value < n
    return value == n


_SIZE_UNITS = {"c": 1, "w": 2, "b": 512, "k": 1024, "M": 1 << 20, "G": 1 << 30}
_TYPE_KIND = {"f": "file", "d": "directory", "l": "symlink"}
_TYPE_FMT = {"p": stat_mod.S_IFIFO, "s": stat_mod.S_IFSOCK, "b": stat_mod.S_IFBLK,
             "c": stat_mod.S_IFCHR}


def _name_pred(pat: str, icase: bool, whole_path: bool) -> Pred:
    if not icase:
        test = plain_name_test(pat, whole_path)
        if test is not None:
            return test
    return glob_name_test(pat, icase, whole_path)


# Characters with a meaning in a glob (extended groups' included); a pattern with none of
# them but a leading or trailing `*` is a plain string test
_GLOB_SPECIAL = frozenset("*?[]\\+@!(|)")


def plain_name_test(pat: str, whole_path: bool) -> Pred | None:
    """-name's and -path's everyday patterns, `NAME`, `*SUFFIX`, `PREFIX*` and `*PART*`,
    as the string tests they amount to (a `*` matches any text, `/` and newlines
    included); None for any other pattern. `find -name '*.txt'` then loads neither the
    glob module nor a regular expression engine."""
    core = pat
    lead = core.startswith("*")
    if lead:
        core = core[1:]
    trail = core.endswith("*")
    if trail:
        core = core[:-1]
    if not _GLOB_SPECIAL.isdisjoint(core):
        return None
    if whole_path:
        if lead and trail:
            return lambda it: core in it.path
        if lead:
            return lambda it: it.path.endswith(core)
        if trail:
            return lambda it: it.path.startswith(core)
        return lambda it: it.path == core
    if lead and trail:
        return lambda it: core in it.name
    if lead:
        return lambda it: it.name.endswith(core)
    if trail:
        return lambda it: it.name.startswith(core)
    return lambda it: it.name == core


def glob_name_test(pat: str, icase: bool, whole_path: bool) -> Pred:
    """Any -name/-path/-iname pattern, matched as the shell matches a glob."""
    # (the glob module, and the `re` it compiles with, load here)
    from tysh.kernel.expand.pattern import has_magic, translate, unescape

    if not icase and not has_magic(pat):
        lit = unescape(pat)
        if whole_path:
            return lambda it: it.path == lit
        return lambda it: it.name == lit
    from tysh.kernel.text import engine  # `*a*a*…b` on a long path: no backtracking

    rx = engine.compile(translate(pat), DOTALL | (IGNORECASE if icase else 0))
    m = rx.fullmatch
    if whole_path:
        return lambda it: m(it.path) is not None
    return lambda it: m(it.name) is not None


def _type_pred(spec: str, flag: str) -> Pred:
    kinds: set[str] = set()
    fmts: set[int] = set()
    for c in spec.split(","):
        if c in _TYPE_KIND:
            kinds.add(_TYPE_KIND[c])
        elif c in _TYPE_FMT:
            fmts.add(_TYPE_FMT[c])
        else:
            raise FindError(f"Unknown argument to {flag}: {c}")
    if not fmts:
        if len(kinds) == 1:
            (k,) = kinds
            return lambda it: it.kind == k
        return lambda it: it.kind in kinds

    def pred(it: Item) -> bool:
        if it.kind in kinds:
            return True
        st = it.stat()
        return st is not None and stat_mod.S_IFMT(st.mode) in fmts

    return pred


def _xtype_pred(spec: str, flag: str, follow: bool) -> Pred:
    """-xtype: -type of what a link points to (a dangling one is `l`); under -L, of the
    link itself."""
    test = _type_pred(spec, flag)

    def pred(it: Item) -> bool:
        try:
            st = it._fs.stat(it.abs, follow=not follow)
            kind = st.kind
        except FsError:
            return test(it)
        other = Item(it.path, it.abs, it.name, it.depth, kind, it.start, it._fs, not follow)
        return test(other)

    return pred


_REGEX_TYPES = {
    "findutils-default": "emacs", "ed": "basic", "emacs": "emacs", "gnu-awk": "extended",
    "grep": "basic", "posix-awk": "extended", "awk": "extended", "posix-basic": "basic",
    "posix-egrep": "extended", "egrep": "extended", "posix-extended": "extended",
    "posix-minimal-basic": "basic", "sed": "basic",
}


def _emacs_to_bre(pat: str) -> str:
    """GNU find's default (emacs) syntax as a BRE: the same `\\( \\| \\)` groups, but a
    bare `+` or `?` is an operator there, so it gains the backslash BRE wants."""
    out: list[str] = []
    i, n = 0, len(pat)
    while i < n:
        c = pat[i]
        if c == "\\" and i + 1 < n:
            # emacs has no intervals: `\\{` is a plain brace, which BRE writes bare
            out.append(pat[i + 1] if pat[i + 1] in "{}" else pat[i:i + 2])
            i += 2
        elif c == "[":
            j = i + 1
            if j < n and pat[j] == "^":
                j += 1
            if j < n and pat[j] == "]":
                j += 1
            while j < n and pat[j] != "]":
                j += 1
            out.append(pat[i:j + 1])
            i = j + 1
        else:
            out.append("\\" + c if c in "+?" else c)
            i += 1
    return "".join(out)


def _compile_regex(pat: str, kind: str, icase: bool) -> Any:
    """-regex's pattern in the chosen -regextype, to be matched against the whole path."""
    from tysh.kernel.text.regex import RegexError, compile_text

    source = _emacs_to_bre(pat) if kind == "emacs" else pat
    try:
        return compile_text(source, kind == "extended", icase, "space")
    except RegexError as e:
        raise FindError(f"invalid regular expression {pat!r}: {e}") from None


def _size_pred(word: str) -> Pred:
    unit = 512
    if word and word[-1] in _SIZE_UNITS:
        unit = _SIZE_UNITS[word[-1]]
        word = word[:-1]
    elif word and not word[-1].isdigit() and word.lstrip("+-")[:-1].isdigit():
        raise FindError(f"invalid -size type `{word[-1]}'")
    cmp, n = _num(word, "-size")

    def pred(it: Item) -> bool:
        st = it.stat()
        if st is None:
            return False
        units = -(-st.size // unit)  # rounded up, as GNU does
        return _compare(cmp, units, n)

    return pred


def _time_pred(word: str, flag: str, rt: Runtime) -> Pred:
    cmp, n = _num(word, flag)
    per = 60 if flag.endswith("min") else 86400
    attr = {"m": "mtime", "a": "atime", "c": "ctime"}[flag[1]]

    def pred(it: Item) -> bool:
        st = it.stat()
        if st is None:
            return False
        age = int((rt.now - getattr(st, attr)) // per)
        return _compare(cmp, age, n)

    return pred


def _perm_pred(word: str) -> Pred:
    mode_word = word.lstrip("-/")
    how = word[0] if word[:1] in "-/" else "="
    from tysh.builtins.files.chmod import parse_mode

    try:
        bits = parse_mode(mode_word, 0, False)
    except ValueError:
        raise FindError(f"invalid mode {word!r}") from None

    def pred(it: Item) -> bool:
        st = it.stat()
        if st is None:
            return False
        m = st.mode & 0o7777
        if how == "-":
            return m & bits == bits
        if how == "/":
            return bits == 0 or bool(m & bits)
        return m == bits

    return pred


def _empty(it: Item) -> bool:
    if it.kind == "directory":
        try:
            return not it._fs.listdir(it.abs)
        except FsError:
            return False
    st = it.stat()
    return st is not None and st.kind == "file" and st.size == 0


_ESCAPES = {"n": "\n", "t": "\t", "0": "\0", "\\": "\\", "a": "\a", "r": "\r", "v": "\v",
            "f": "\f", "b": "\b"}
_TYPE_LETTER = {"file": "f", "directory": "d", "symlink": "l", "other": "U"}


_DIRECTIVES = frozenset("pfhPsdmMyugUGlnitacTACkb")
_FLAGS = "-+ #0"


def _printf_pred(fmt: str, rt: Runtime, sink: Callable[[str], None] | None = None) -> Pred:
    """A subset of GNU -printf: %p %f %h %P %s %d %m %M %y %u %g %U %G %l %n %i %k %b %t
    %T@ %Tk (k a strftime letter), %% and backslash escapes, with GNU's `-` flag, width and
    precision (`%-10f`, `%.3p`). As in GNU, an unknown directive is printed as it stands
    after a warning, and a lone `%` at the end is an error."""
    parts: list[Any] = []  # str literal or directive (letter, sub, flags, width, precision)
    i, n = 0, len(fmt)
    lit: list[str] = []
    while i < n:
        c = fmt[i]
        if c == "\\" and i + 1 < n:
            e = fmt[i + 1]
            if e not in _ESCAPES:
                rt.ctx.error(f"warning: unrecognized escape `\\{e}'")
            lit.append(_ESCAPES.get(e, "\\" + e))
            i += 2
            continue
        if c != "%":
            lit.append(c)
            i += 1
            continue
        j = i + 1
        while j < n and fmt[j] in _FLAGS:
            j += 1
        flags = fmt[i + 1:j]
        k = j
        while k < n and fmt[k].isdigit():
            k += 1
        width = int(fmt[j:k]) if k > j else 0
        precision: int | None = None
        if k < n and fmt[k] == ".":
            m = k + 1
            while m < n and fmt[m].isdigit():
                m += 1
            precision = int(fmt[k + 1:m] or "0")
            k = m
        if k >= n:
            raise FindError("error: % at end of format string")
        d = fmt[k]
        if d == "%":
            lit.append("%")
            i = k + 1
            continue
        if d not in _DIRECTIVES:
            rt.ctx.error(f"warning: unrecognized format directive `%{d}'")
            lit.append(fmt[i:k + 1])
            i = k + 1
            continue
        if d in "TAC" and k + 1 >= n:
            rt.ctx.error(f"warning: format directive `%{d}' should be followed by another "
                         "character")
            lit.append(fmt[i:k + 1])
            break
        if lit:
            parts.append("".join(lit))
            lit = []
        sub = ""
        if d in "TAC":
            sub = fmt[k + 1]
            k += 1
        parts.append((d, sub, flags, width, precision))
        i = k + 1
    if lit:
        parts.append("".join(lit))

    def field(it: Item, d: str, sub: str, flags: str) -> str:
        if d == "p":
            return it.path
        if d == "f":
            return it.name
        if d == "h":
            head = it.path.rsplit("/", 1)[0] if "/" in it.path else "."
            return head or "/"
        if d == "P":
            rest = it.path[len(it.start):]
            return rest.lstrip("/")
        if d == "d":
            return str(it.depth)
        if d == "y":
            return _TYPE_LETTER.get(it.kind, "U")
        st = it.stat()
        if st is None:
            return ""
        if d == "s":
            return str(st.size)
        if d == "m":
            return ("0" if "#" in flags else "") + format(st.mode & 0o7777, "o")
        if d == "M":
            return mode_string(full_mode(st))
        if d == "u":
            return user_name(st.uid)
        if d == "g":
            return group_name(st.gid)
        if d == "U":
            return str(st.uid)
        if d == "G":
            return str(st.gid)
        if d == "n":
            return str(st.nlink)
        if d == "i":
            return str(st.ino)
        if d == "k":
            return str((st.blocks + 1) // 2)
        if d == "b":
            return str(st.blocks)
        if d == "l":
            if st.kind != "symlink":
                return ""
            try:
                return str(it._fs.readlink(it.abs))
            except FsError:
                return ""
        if d in "tac" or d in "TAC":
            ts = {"t": st.mtime, "a": st.atime, "c": st.ctime}[d.lower()]
            if d in "tac":
                return local_time(rt.ctx, ts).strftime("%a %b %e %H:%M:%S.0000000000 %Y")
            if sub == "@":
                return f"{ts:.10f}"
            if sub == "+":
                return local_time(rt.ctx, ts).strftime("%Y-%m-%d+%H:%M:%S.0000000000")
            return local_time(rt.ctx, ts).strftime("%" + sub)
        return ""

    def render(it: Item, part: tuple[str, str, str, int, int | None]) -> str:
        d, sub, flags, width, precision = part
        text = field(it, d, sub, flags)
        if precision is not None:
            text = text[:precision]
        if width > len(text):
            text = text.ljust(width) if "-" in flags else text.rjust(width)
        return text

    out = sink or rt.emit

    def pred(it: Item) -> bool:
        out("".join(p if isinstance(p, str) else render(it, p) for p in parts))
        if sink is None:
            rt.report(it)
        return True

    return pred


class _Parser:
    def __init__(self, words: list[str], rt: Runtime, plan: FindPlan) -> None:
        self.w = words
        self.i = 0
        self.rt = rt
        self.plan = plan
        self.has_action = False
        self.regextype = "emacs"  # -regextype applies to the -regex words after it

    def peek(self) -> str | None:
        return self.w[self.i] if self.i < len(self.w) else None

    def take_arg(self, flag: str) -> str:
        if self.i >= len(self.w):
            raise FindError(f"missing argument to '{flag}'")
        v = self.w[self.i]
        self.i += 1
        return v

    # expr := or (',' or)*
    def newer(self, t: str) -> Pred:
        """-newer FILE, -anewer/-cnewer, and -newerXY (X, Y in a c m; Y t takes a date):
        the file's X time is later than the reference's Y time."""
        rt = self.rt
        ref = self.take_arg(t)
        if t in ("-newer", "-anewer", "-cnewer"):
            mine, theirs = {"-newer": "m", "-anewer": "a", "-cnewer": "c"}[t], "m"
        else:
            mine, theirs = t[6], t[7]
        if "B" in (mine, theirs):
            raise FindError("This system does not provide a way to find the birth time of "
                            "a file.")
        if theirs == "t":
            try:
                ref_t = parse_date(ref, rt.ctx)
            except ValueError:
                raise FindError(f"I cannot figure out how to interpret {ref!r} as a date or "
                                "time") from None
        else:
            try:
                rst = rt.ctx.fs.stat(rt.ctx.path(ref))
            except FsError as e:
                raise FindError(f"'{ref}': {e.reason}") from None
            ref_t = {"a": rst.atime, "c": rst.ctime, "m": rst.mtime}[theirs]
        field = {"a": "atime", "c": "ctime", "m": "mtime"}[mine]

        def newer(it: Item) -> bool:
            st = it.stat()
            return st is not None and float(getattr(st, field)) > ref_t

        return newer

    def same_file(self, t: str) -> Pred:
        """-samefile FILE (same device and inode) and -inum [+-]N."""
        if t == "-inum":
            cmp, n = _num(self.take_arg(t), t)

            def inum(it: Item) -> bool:
                st = it.stat()
                return st is not None and _compare(cmp, st.ino, n)

            return inum
        ref = self.take_arg(t)
        try:
            rst = self.rt.ctx.fs.stat(self.rt.ctx.path(ref), follow=False)
        except FsError as e:
            raise FindError(f"'{ref}': {e.reason}") from None
        key = (rst.dev, rst.ino)

        def same(it: Item) -> bool:
            st = it.stat()
            return st is not None and (st.dev, st.ino) == key

        return same

    def parse_list(self) -> Pred:
        left = self.parse_or()
        while self.peek() == ",":
            self.i += 1
            right = self.parse_or()
            left = (lambda a, b: lambda it: (a(it), b(it))[1])(left, right)
        return left

    def parse_or(self) -> Pred:
        left = self.parse_and()
        while self.peek() in ("-o", "-or"):
            self.i += 1
            if self.peek() is None:
                raise FindError("invalid expression; you have used a binary operator '-o' "
                                "with nothing after it.")
            right = self.parse_and()
            left = (lambda a, b: lambda it: a(it) or b(it))(left, right)
        return left

    def parse_and(self) -> Pred:
        left = self.parse_not()
        while True:
            t = self.peek()
            if t in ("-a", "-and"):
                self.i += 1
                if self.peek() is None:
                    raise FindError("invalid expression; you have used a binary operator "
                                    f"'{t}' with nothing after it.")
                right = self.parse_not()
            elif t is None or t in (")", ",", "-o", "-or"):
                return left
            else:
                right = self.parse_not()
            left = (lambda a, b: lambda it: a(it) and b(it))(left, right)

    def parse_not(self) -> Pred:
        t = self.peek()
        if t in ("!", "-not"):
            self.i += 1
            if self.peek() is None:
                raise FindError(f"expected an expression after '{t}'")
            inner = self.parse_not()
            return lambda it: not inner(it)
        return self.parse_primary()

    def parse_primary(self) -> Pred:
        t = self.peek()
        if t is None:
            raise FindError("invalid expression")
        self.i += 1
        if t == "(":
            if self.peek() == ")":
                raise FindError("invalid expression; empty parentheses are not allowed.")
            inner = self.parse_list()
            if self.peek() != ")":
                raise FindError("invalid expression; I was expecting to find a ')' somewhere "
                                "but did not see one.")
            self.i += 1
            return inner
        if t == ")":
            raise FindError("you have too many ')'")
        if t in ("-o", "-or", "-a", "-and", ","):
            raise FindError(f"invalid expression; you have used a binary operator '{t}' "
                            "with nothing before it.")
        if not t.startswith("-") or t in ("-", "--"):
            raise FindError(f"paths must precede expression: '{t}'")
        return self.primary(t)

    @staticmethod
    def gatherer(batch: ExecBatch, display: bool) -> Pred:
        def gather(it: Item) -> bool:
            batch.add(it.path if display else it.abs)
            return True

        return gather

    def primary(self, t: str) -> Pred:  # noqa: C901 - one branch per primary is the clearest
        rt, plan = self.rt, self.plan
        if t in _GLOBAL_OPTS:
            if t in ("-depth", "-d"):
                plan.depth_first = True
            elif t == "-follow":
                plan.follow = True
            return _true
        if t in ("-maxdepth", "-mindepth"):
            v = self.take_arg(t)
            if not v.isdigit():
                raise FindError(f"Expected a positive decimal integer argument to {t}, "
                                f"but got '{v}'")
            if t == "-maxdepth":
                plan.maxdepth = int(v)
            else:
                plan.mindepth = int(v)
            return _true
        if t in ("-name", "-iname"):
            return _name_pred(self.take_arg(t), t == "-iname", False)
        if t in ("-path", "-wholename", "-ipath", "-iwholename"):
            return _name_pred(self.take_arg(t), t.startswith("-i"), True)
        if t == "-regextype":
            kind = self.take_arg(t)
            if kind not in _REGEX_TYPES:
                raise FindError(f"Unknown regular expression type '{kind}'; valid types are "
                                + ", ".join(f"'{k}'" for k in _REGEX_TYPES) + ".")
            self.regextype = _REGEX_TYPES[kind]
            return _true
        if t in ("-regex", "-iregex"):
            rx = _compile_regex(self.take_arg(t), self.regextype, t == "-iregex")
            return lambda it: rx.fullmatch(it.path) is not None
        if t == "-type":
            return _type_pred(self.take_arg(t), t)
        if t == "-xtype":
            return _xtype_pred(self.take_arg(t), t, plan.follow)
        if t in ("-nouser", "-nogroup"):
            names = user_name if t == "-nouser" else group_name

            def orphan(it: Item) -> bool:
                st = it.stat()
                if st is None:
                    return False
                num = st.uid if t == "-nouser" else st.gid
                return names(num) == str(num)

            return orphan
        if t == "-size":
            return _size_pred(self.take_arg(t))
        if t == "-empty":
            return _empty
        if t in ("-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin"):
            return _time_pred(self.take_arg(t), t, rt)
        if t in ("-newer", "-anewer", "-cnewer") or _NEWER_XY.fullmatch(t):
            return self.newer(t)
        if t in ("-lname", "-ilname"):
            match = _name_pred(self.take_arg(t), t == "-ilname", False)

            def lname(it: Item) -> bool:
                if it.kind != "symlink":
                    return False
                try:
                    target = str(it._fs.readlink(it.abs))
                except FsError:
                    return False
                return match(Item(target, "", target, 0, "", "", None, False))

            return lname
        if t in ("-samefile", "-inum"):
            return self.same_file(t)
        if t in ("-fprint", "-fprint0", "-fprintf"):
            self.has_action = True
            dest = self.take_arg(t)
            sink = rt.open_sink(dest)
            if t == "-fprintf":
                return _printf_pred(self.take_arg(t), rt, sink)
            end = "\0" if t == "-fprint0" else "\n"

            def fprint(it: Item) -> bool:
                sink(it.path + end)
                return True

            return fprint
        if t == "-perm":
            return _perm_pred(self.take_arg(t))
        if t in ("-user", "-group", "-uid", "-gid"):
            want = self.take_arg(t)

            def owner(it: Item) -> bool:
                st = it.stat()
                if st is None:
                    return False
                if t == "-uid":
                    return str(st.uid) == want
                if t == "-gid":
                    return str(st.gid) == want
                if t == "-user":
                    return want in (user_name(st.uid), str(st.uid))
                return want in (group_name(st.gid), str(st.gid))

            return owner
        if t == "-links":
            cmp, n = _num(self.take_arg(t), t)

            def links(it: Item) -> bool:
                st = it.stat()
                return st is not None and _compare(cmp, st.nlink, n)

            return links
        if t in ("-executable", "-readable", "-writable"):
            bit = {"-executable": 0o111, "-readable": 0o444, "-writable": 0o222}[t]

            def access(it: Item) -> bool:
                st = it.stat()
                return st is not None and bool(st.mode & bit)

            return access
        if t == "-true":
            return _true
        if t == "-false":
            return _false
        if t == "-prune":
            def prune(it: Item) -> bool:
                it.pruned = True
                return True

            return prune
        # actions
        self.has_action = True
        if t in ("-print", "-print0"):
            end = "\n" if t == "-print" else "\0"

            def print_(it: Item) -> bool:
                rt.emit(it.path + end)
                rt.report(it)
                return True

            return print_
        if t == "-printf":
            return _printf_pred(self.take_arg(t), rt)
        if t == "-ls":
            def ls_line(it: Item) -> bool:
                st = it.stat()
                if st is not None:
                    rt.emit(f"{st.ino:>9} {(st.blocks + 1) // 2:>6} "
                            f"{mode_string(full_mode(st))} {st.nlink:>3} "
                            f"{user_name(st.uid):<8} {group_name(st.gid):<8} {st.size:>8} "
                            f"{it.path}\n")
                    rt.report(it)
                return True

            return ls_line
        if t == "-quit":
            def quit_(it: Item) -> bool:
                rt.quit = True
                return True

            return quit_
        if t == "-delete":
            plan.depth_first = True

            def delete(it: Item) -> bool:
                if it.path in (".", "./"):
                    return True
                try:
                    if it.kind == "directory":
                        rt.ctx.fs.rmdir(it.abs)
                    else:
                        rt.ctx.fs.remove(it.abs)
                    return True
                except FsError as e:
                    rt.ctx.error(f"cannot delete '{it.path}': {e.reason}")
                    rt.status = 1
                    return False

            return delete
        if t in ("-exec", "-execdir", "-ok", "-okdir"):
            if t in ("-ok", "-okdir"):
                raise FindError(f"{t} is not supported (it prompts); use -exec")
            cmd: list[str] = []
            while True:
                w = self.peek()
                if w is None:
                    raise FindError(f"missing argument to '{t}'")
                self.i += 1
                if w == ";":
                    break
                if w == "+" and cmd and cmd[-1] == "{}":
                    k = len(cmd) - 1
                    batch = ExecBatch(cmd[:k], [], rt)
                    rt.batches.append(batch)

                    return self.gatherer(batch, t == "-exec")
                cmd.append(w)
            if not cmd:
                raise FindError(f"missing argument to '{t}'")

            def run_one(it: Item) -> bool:
                p = it.path if t == "-exec" else it.abs
                return rt.run([a.replace("{}", p) for a in cmd]) == 0

            return run_one
        raise FindError(f"unknown predicate '{t}'")


def parse_command(words: list[Any], ctx: Context, rt: Runtime) -> FindPlan:
    """Split find's words into options, starting points and a compiled expression."""
    argv = [w if isinstance(w, str) else to_text(w) for w in words]
    plan = FindPlan(starts=[], pred=_true)
    i = 0
    while i < len(argv) and argv[i] in ("-H", "-L", "-P", "-O0", "-O1", "-O2", "-O3"):
        if argv[i] == "-L":
            plan.follow = True
        elif argv[i] == "-P":
            plan.follow = False
        i += 1
    if i < len(argv) and argv[i] == "--":
        i += 1
    while i < len(argv):
        w = argv[i]
        if w == "--json":
            plan.json = True
            i += 1
            continue
        if (w.startswith("-") and len(w) > 1) or w in ("(", "!", ")", ","):
            break
        plan.starts.append(w)
        i += 1
    rest = [w for w in argv[i:] if w != "--json"]
    if len(rest) != len(argv) - i:
        plan.json = True
    parser = _Parser(rest, rt, plan)
    if rest:
        pred = parser.parse_list()
        if parser.i < len(rest):
            extra = rest[parser.i]
            if extra == ")":
                raise FindError("you have too many ')'")
            raise FindError(f"paths must precede expression: '{extra}'")
    else:
        pred = _true
    if not parser.has_action:
        inner = pred

        def with_print(it: Item) -> bool:
            if inner(it):
                rt.emit(it.path + "\n")
                rt.report(it)
            return True

        pred = with_print
    plan.pred = pred
    if not plan.starts:
        plan.starts = ["."]
    return plan
