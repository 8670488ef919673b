"""cd and pwd: the session's working directory (logical, as bash's $PWD; -P resolves
symbolic links); pushd, popd and dirs: bash's directory stack, whose first entry is
the working directory ($DIRSTACK)."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins.shell.common import err, missing_reason
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.base.values import to_text
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Tool, tool

TYPE_CHECKING = False

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session
    from tysh.kernel.tools.output import OutputData


@value_record
class CdArgs(Record):
    dirs: tuple[str, ...] = param((), positional=True,
                                  help="the directory (default $HOME; - is $OLDPWD)")
    logical: bool = param(False, aliases=["-L"], help="follow symbolic links logically (default)")
    physical: bool = param(False, aliases=["-P"], help="resolve symbolic links")


@tool("cd", kind="shell", args=CdArgs, description="change the working directory",
      examples=[("go home", "cd"), ("back to the previous directory", "cd -")], session=True)
def cd(args: CdArgs, ctx: Context, sh: Session) -> int:
    st = sh.state
    if len(args.dirs) > 1:
        err(ctx, "too many arguments")
        return 1
    target = args.dirs[0] if args.dirs else None
    show = False
    if target == "":
        return 0  # bash: `cd ""` stays where it is
    if target is None:
        home = st.get("HOME")
        if home is None:
            err(ctx, "HOME not set")
            return 1
        target = to_text(home)
    elif target == "-":
        old = st.get("OLDPWD")
        if old is None:
            err(ctx, "OLDPWD not set")
            return 1
        target = to_text(old)
        show = True
    found = _on_cdpath(sh, target) if not show else None
    if found is not None:
        target, show = found
    path = change_dir(ctx, sh, target, physical=args.physical)
    if path is None:
        return 1
    if show:
        ctx.write(path + "\n")
    return 0


def _on_cdpath(sh: Session, target: str) -> tuple[str, bool] | None:
    """Where $CDPATH finds a relative `target` (not `.`/`..`-led): the directory, and
    whether to print it (bash does unless an empty entry, the current one, found it)."""
    if target.startswith(("/", "./", "../")) or target in (".", ".."):
        return None
    value = sh.state.get("CDPATH")
    if value is None:
        return None
    for entry in to_text(value).split(":"):
        candidate = f"{entry.rstrip('/')}/{target}" if entry else target
        if sh.fs.is_dir(sh.abspath(candidate)):
            return candidate, bool(entry)
    return None


def _dotdot_over_missing(sh: Session, target: str) -> str | None:
    """The part of `target` before a `..` that names no directory (`nosuch/..`): bash's
    logical cd refuses it rather than cancelling the two out."""
    parts = target.split("/")
    for i, part in enumerate(parts):
        if part == ".." and i > 0:
            prefix = "/".join(parts[:i]) or "/"
            if not sh.fs.is_dir(sh.abspath(prefix)):
                return prefix
    return None


def change_dir(ctx: Context, sh: Session, target: str, *, physical: bool = False) -> str | None:
    """Make `target` the working directory ($PWD, $OLDPWD); the new path, or None after
    reporting why not."""
    st = sh.state
    path = sh.abspath(target)
    fs = sh.fs
    if not fs.is_dir(path) or ("/.." in target and _dotdot_over_missing(sh, target)):
        reason = "Not a directory" if fs.exists(path) else missing_reason(fs, path)
        if fs.is_dir(path):
            reason = "No such file or directory"
        err(ctx, f"{target}: {reason}")
        return None
    if physical:
        try:
            path = fs.realpath(path)
        except Exception:  # noqa: BLE001
            pass
    st.set("OLDPWD", st.cwd, export=True)  # bash exports it
    st.cwd = path
    pwd_var = st.lookup("PWD")
    if pwd_var is not None:
        pwd_var.value = path
    else:
        st.set("PWD", path, export=True)
    return path


@value_record
class PwdArgs(Record):
    ignored: tuple[str, ...] = param((), positional=True, help="ignored, as bash ignores them")
    logical: bool = param(False, aliases=["-L"], help="the logical path (default)")
    physical: bool = param(False, aliases=["-P"], help="the path with symbolic links resolved")


@tool("pwd", kind="shell", args=PwdArgs,
      description="print the working directory; --json gives it as a string", session=True)
def pwd(args: PwdArgs, ctx: Context, sh: Session) -> int | OutputData:
    from tysh.kernel.tools.output import OutputData

    path = sh.state.cwd
    if args.physical:
        try:
            path = sh.fs.realpath(path)
        except Exception:  # noqa: BLE001
            pass
    if ctx.json:
        return OutputData.text(path + "\n", rich_json=path)
    ctx.write(path + "\n")
    return 0


# -- the directory stack ---------------------------------------------------------------------

PUSHD_USAGE = "pushd: usage: pushd [-n] [+N | -N | dir]"
POPD_USAGE = "popd: usage: popd [-n] [+N | -N]"
DIRS_USAGE = "dirs: usage: dirs [-clpv] [+N] [-N]"


def _stack(sh: Session) -> list[str]:
    """The whole stack: the working directory, then the saved ones."""
    return [sh.state.cwd, *sh.state.tables.dirstack]


def _store(sh: Session, entries: list[str]) -> None:
    sh.state.retable(dirstack=tuple(entries[1:]))


def _polite(sh: Session, path: str) -> str:
    """`~` for $HOME at the start of a path, as `dirs` shows it."""
    home = sh.state.get("HOME")
    h = to_text(home) if home is not None else ""
    if len(h) > 1 and (path == h or path.startswith(h.rstrip("/") + "/")):
        return "~" + path[len(h.rstrip("/")):]
    return path


def _index(spec: str, size: int) -> int | None:
    """The stack index `+N` (from the left) or `-N` (from the right) names."""
    n = int(spec[1:])
    i = n if spec[0] == "+" else size - 1 - n
    return i if 0 <= i < size else None


def _is_index(word: str) -> bool:
    return len(word) > 1 and word[0] in "+-" and word[1:].isdigit()


def _print_stack(ctx: Context, sh: Session, *, long: bool = False, lines: bool = False,
                 numbered: bool = False) -> None:
    entries = [e if long else _polite(sh, e) for e in _stack(sh)]
    if numbered:
        ctx.write("".join(f"{i:2d}  {e}\n" for i, e in enumerate(entries)))
    elif lines:
        ctx.write("".join(e + "\n" for e in entries))
    else:
        ctx.write(" ".join(entries) + "\n")


def _usage(ctx: Context, usage: str) -> int:
    ctx.stderr.write((usage + "\n").encode())
    return 2


def _json_wanted(words: list[str]) -> tuple[list[str], bool]:
    if "--json" in words:
        return [w for w in words if w != "--json"], True
    return words, False


def _finish(ctx: Context, sh: Session, as_json: bool) -> int:
    if as_json:
        from tysh.kernel.base.values import to_json_text

        ctx.write(to_json_text(_stack(sh)) + "\n")
    else:
        _print_stack(ctx, sh)
    return 0


@tool("pushd", kind="shell", raw_argv=True, session=True,
      description="change to a directory, saving the current one on the directory stack",
      examples=[("work elsewhere, then come back with popd", "pushd /tmp"),
                ("swap the top two", "pushd"), ("rotate the stack", "pushd +1")])
def pushd(args: RawArgs, ctx: Context, sh: Session) -> int:
    words, as_json = _json_wanted(texts(args.positional))
    no_cd = False
    while words and words[0].startswith("-") and not _is_index(words[0]):
        w = words.pop(0)
        if w == "--":
            break
        if w == "-n":
            no_cd = True
        else:
            err(ctx, f"{w}: invalid number")
            return _usage(ctx, PUSHD_USAGE)
    if len(words) > 1:
        err(ctx, "too many arguments")
        return 1
    entries = _stack(sh)
    if not words:
        if no_cd:
            return 0
        if len(entries) < 2:
            err(ctx, "no other directory")
            return 1
        entries[0], entries[1] = entries[1], entries[0]
        return _go(ctx, sh, entries, as_json)
    word = words[0]
    if _is_index(word):
        if len(entries) < 2:
            err(ctx, "directory stack empty")
            return 1
        i = _index(word, len(entries))
        if i is None:
            err(ctx, f"{word}: directory stack index out of range")
            return 1
        return _go(ctx, sh, entries[i:] + entries[:i], as_json)
    if no_cd:
        _store(sh, [entries[0], word, *entries[1:]])
        return _finish(ctx, sh, as_json)
    old = entries[0]
    if change_dir(ctx, sh, word) is None:
        return 1
    _store(sh, [sh.state.cwd, old, *entries[1:]])
    return _finish(ctx, sh, as_json)


def _go(ctx: Context, sh: Session, entries: list[str], as_json: bool) -> int:
    """Make `entries` the stack, changing to its first directory."""
    if change_dir(ctx, sh, entries[0]) is None:
        return 1
    _store(sh, entries)
    return _finish(ctx, sh, as_json)


@tool("popd", kind="shell", raw_argv=True, session=True,
      description="remove a directory from the directory stack and change to the new top",
      examples=[("back to where pushd left", "popd"), ("drop the second entry", "popd +1")])
def popd(args: RawArgs, ctx: Context, sh: Session) -> int:
    words, as_json = _json_wanted(texts(args.positional))
    no_cd = False
    index: str | None = None
    for w in words:
        if w == "--":
            continue
        if w == "-n":
            no_cd = True
        elif _is_index(w):
            index = w
        elif w.startswith("-"):
            err(ctx, f"{w}: invalid number")
            return _usage(ctx, POPD_USAGE)
        else:
            err(ctx, f"{w}: invalid argument")
            return _usage(ctx, POPD_USAGE)
    entries = _stack(sh)
    if len(entries) < 2:
        err(ctx, "directory stack empty")
        return 1
    if index is None:
        i = 1 if no_cd else 0
    else:
        got = _index(index, len(entries))
        if got is None:
            err(ctx, f"{index}: directory stack index out of range")
            return 1
        i = got
    del entries[i]
    if i == 0:
        return _go(ctx, sh, entries, as_json)
    _store(sh, entries)
    return _finish(ctx, sh, as_json)


@tool("dirs", kind="shell", raw_argv=True, session=True,
      description="show the directory stack (-v numbered, -l without ~, -c clears it); "
                  "--json gives the list",
      examples=[("numbered", "dirs -v"), ("forget the saved directories", "dirs -c")])
def dirs(args: RawArgs, ctx: Context, sh: Session) -> int | OutputData:
    words, as_json = _json_wanted(texts(args.positional))
    long = lines = numbered = clear = False
    index: str | None = None
    for w in words:
        if _is_index(w):
            index = w
        elif w.startswith("-") and len(w) > 1 and w != "--":
            for c in w[1:]:
                if c == "l":
                    long = True
                elif c == "p":
                    lines = True
                elif c == "v":
                    numbered = True
                elif c == "c":
                    clear = True
                else:
                    err(ctx, f"{w}: invalid option")
                    return _usage(ctx, DIRS_USAGE)
        elif w != "--":
            err(ctx, f"{w}: invalid option")
            return _usage(ctx, DIRS_USAGE)
    if clear:
        sh.state.retable(dirstack=())
        return 0
    entries = _stack(sh)
    if index is not None:
        if len(entries) < 2:
            err(ctx, "directory stack empty")
            return 1
        i = _index(index, len(entries))
        if i is None:
            err(ctx, f"{index.lstrip('+')}: directory stack index out of range")
            return 1
        entry = entries[i] if long else _polite(sh, entries[i])
        ctx.write(f"{i:2d}  {entry}\n" if numbered else entry + "\n")
        return 0
    if as_json:
        from tysh.kernel.base.values import to_json_text

        ctx.write(to_json_text(entries) + "\n")
    else:
        _print_stack(ctx, sh, long=long, lines=lines, numbered=numbered)
    from tysh.kernel.tools.output import OutputData

    return OutputData.value(lambda: entries)  # the stack, with or without `--json`


TOOLS: list[Tool] = [cd, pwd, pushd, popd, dirs]
