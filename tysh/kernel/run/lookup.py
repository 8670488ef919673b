"""What a command name means, as `type`, `command -v`, `which` and `hash` tell it.

bash's order is alias, keyword, function, builtin, then the hash table and PATH. tysh
runs its own tools (ls, grep, sed, …) where bash would run a program; when such a
program exists on PATH and the session may run programs, these reports name it as bash
would (`date is /usr/bin/date`), while the tool still runs unless `enable -n date`
turns it off. bash's own builtins (cd, echo, printf, …) are reported as builtins."""

from __future__ import annotations

from tysh.kernel.base.values import to_text
from tysh.kernel.run.registry import search_path

TYPE_CHECKING = False

if TYPE_CHECKING:
    from tysh.kernel.run.interpreter import Interpreter

BASH_BUILTINS = frozenset(
    ". : [ alias bg bind break builtin caller cd command compgen complete compopt "
    "continue declare dirs disown echo enable eval exec exit export false fc fg getopts "
    "hash help history jobs kill let local logout mapfile popd printf pushd pwd read "
    "readarray readonly return set shift shopt source suspend test times trap true type "
    "typeset ulimit umask unalias unset wait".split())

# bash's `getconf PATH`: where `command -p` looks
DEFAULT_PATH = "/bin:/usr/bin"

KEYWORDS = frozenset(
    "if then else elif fi case esac for while until do done function in select time "
    "{ } ! [[ ]] coproc".split()
)


def path_of(interp: Interpreter, path: str | None) -> str | None:
    if path is not None:
        return path
    got = interp.state.get("PATH")
    return to_text(got) if got is not None else None


def hashed(interp: Interpreter, name: str) -> str | None:
    """The hash table's path for `name` while PATH has the value it had when the name
    was hashed (a new PATH empties bash's table)."""
    table = interp.state.tables.hashed
    if not table:
        return None
    entry = table.get(name)
    if entry is None:
        return None
    path, _, when = entry
    return path if when == path_of(interp, None) else None


def remember(interp: Interpreter, name: str, path: str, hit: bool = True) -> None:
    """Record (or count a use of) a program found on PATH, as bash's hash table does."""
    st = interp.state
    table = dict(st.tables.hashed or {})
    now = path_of(interp, None)
    old = table.get(name)
    hits = old[1] if old is not None and old[2] == now and old[0] == path else 0
    table[name] = (path, hits + (1 if hit else 0), now)
    st.retable(hashed=table)


def is_builtin(interp: Interpreter, name: str) -> bool:
    """Whether `name` runs a builtin tool here (enabled)."""
    disabled = interp.state.disabled
    return interp.registry.builtin(name) is not None and not (disabled and name in disabled)


def resolve_all(interp: Interpreter, name: str, *, functions: bool = True,
                path: str | None = None, every: bool = False) -> list[tuple[str, str]]:
    """Every meaning of `name`, first the one that wins: (kind, detail) with kind
    "alias" (detail: its value), "keyword", "function" (its source), "builtin", "tool"
    (a registered tool), "hashed" (the hash table's path) or "file" (the path as bash
    shows it). `path` replaces $PATH (`command -p`); without `every`, only the first."""
    st = interp.state
    out: list[tuple[str, str]] = []

    def done() -> bool:
        return bool(out) and not every

    if name in st.aliases:
        out.append(("alias", st.aliases[name]))
    if done():
        return out
    if name in KEYWORDS:
        out.append(("keyword", ""))
    if done():
        return out
    if functions and name in st.functions:
        from tysh.kernel.syntax.unparse import function_source

        out.append(("function", function_source(name, st.functions[name])))
    if done():
        return out
    files: list[str] | None = None
    if is_builtin(interp, name):
        if name in BASH_BUILTINS or not interp.allow_external:
            out.append(("builtin", ""))
        else:
            # a tool bash would find as a program: report the program when there is one
            files = programs(interp, name, path)
            if not files:
                out.append(("builtin", ""))
    if done():
        return out
    if name in interp.registry.registered:
        out.append(("tool", ""))
    if done():
        return out
    if path is None:
        h = hashed(interp, name)
        if h is not None:
            out.append(("hashed", h))
            if not every:
                return out
    if interp.allow_external or files is not None:
        for shown in (files if files is not None else programs(interp, name, path)):
            if ("hashed", shown) not in out:
                out.append(("file", shown))
            if not every:
                break
    return out


def programs(interp: Interpreter, name: str, path: str | None = None) -> list[str]:
    """Every program `name` means along PATH (or `path`), as bash shows their paths."""
    st = interp.state
    return [shown for shown, host in search_path(name, path_of(interp, path), st.cwd, interp.fs)
            if interp.may_run(name, host)]


def resolve(interp: Interpreter, name: str) -> tuple[str, str]:
    """The meaning that wins, with "hashed" reported as "file"; ("", "") for none."""
    got = resolve_all(interp, name)
    if not got:
        return "", ""
    kind, detail = got[0]
    return ("file", detail) if kind == "hashed" else (kind, detail)
