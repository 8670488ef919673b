"""enable and hash: which builtins run, and bash's table of programs found on PATH.

`enable -n NAME` turns a builtin off, so the program of that name on PATH runs (when
the session may run programs) — the way to prefer the host's `ls` to tysh's. A builtin
the embedder disabled (`Kernel(disable=...)`) stays off: `enable NAME` refuses it.
`hash` lists, adds, forgets and sets the programs the session found; a hashed name
runs from where it was found until PATH changes."""

from __future__ import annotations

from tysh.builtins._common.args import RawArgs, texts
from tysh.builtins.shell.common import err
from tysh.kernel.base.values import to_json_text, to_text
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import Tool, tool

TYPE_CHECKING = False

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session

SPECIAL = (". : break continue eval exec exit export readonly return set shift times trap "
           "unset").split()


def _builtin_names(sh: Session) -> list[str]:
    return sorted(t.name for t in sh.all_tools() if sh.builtin(t.name) is not None)


@tool("enable", kind="shell", raw_argv=True, session=True,
      description="turn builtins off (-n) and on; a program on PATH then runs in its place",
      examples=[("run the host's ls instead of tysh's", "enable -n ls"),
                ("list every builtin and its state", "enable -a")])
def enable(args: RawArgs, ctx: Context, sh: Session) -> int:
    words = texts(args.positional)
    off = show_all = special = as_json = False
    names: list[str] = []
    for i, w in enumerate(words):
        if w == "--":
            names.extend(words[i + 1:])
            break
        if w == "--json":
            as_json = True
        elif w.startswith("-") and len(w) > 1 and not names:
            for c in w[1:]:
                if c == "n":
                    off = True
                elif c == "a":
                    show_all = True
                elif c == "s":
                    special = True
                elif c == "p":
                    pass
                elif c in "fd":
                    err(ctx, "loading builtins from shared objects is not supported in tysh")
                    return 1
                else:
                    err(ctx, f"-{c}: invalid option")
                    ctx.stderr.write(b"enable: usage: enable [-a] [-dnps] [-f filename] "
                                     b"[name ...]\n")
                    return 2
        else:
            names.append(w)
    disabled = sh.state.disabled
    if not names:
        every = _builtin_names(sh)
        if special:
            every = [n for n in SPECIAL if n in every]
        rows = [(n, n not in disabled) for n in every
                if show_all or (n in disabled) == off]
        if as_json:
            ctx.write(to_json_text([{"name": n, "enabled": on} for n, on in rows]) + "\n")
        else:
            ctx.write("".join(f"enable {'' if on else '-n '}{n}\n" for n, on in rows))
        return 0
    status = 0
    changed = set(disabled)
    for n in names:
        if sh.builtin(n) is None:
            err(ctx, f"{n}: not a shell builtin")
            status = 1
            continue
        if off:
            changed.add(n)
        elif n in sh.state.tables.locked:
            err(ctx, f"{n}: disabled by the embedder: cannot be turned back on")
            status = 1
        else:
            changed.discard(n)
    sh.state.disabled = frozenset(changed)
    return status


# -- hash ------------------------------------------------------------------------------------

def _path_var(sh: Session) -> str | None:
    got = sh.get_var("PATH")
    return to_text(got) if got is not None else None


def _table(sh: Session) -> dict[str, tuple[str, int, str | None]]:
    """The live entries: those hashed while PATH had its current value (changing PATH
    empties the table, as in bash; assigning PATH its own value does not here)."""
    now = _path_var(sh)
    return {k: v for k, v in (sh.state.tables.hashed or {}).items() if v[2] == now}


@tool("hash", kind="shell", raw_argv=True, session=True,
      description="list, add (NAME), forget (-d, -r) or set (-p PATH NAME) the programs the "
                  "session remembers finding on PATH",
      examples=[("what was found where", "hash"), ("forget them all", "hash -r")])
def hash_(args: RawArgs, ctx: Context, sh: Session) -> int:
    words = texts(args.positional)
    forget_all = delete = show = reusable = as_json = False
    set_path: str | None = None
    names: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w == "--":
            names.extend(words[i + 1:])
            break
        if w == "--json":
            as_json = True
        elif w.startswith("-") and len(w) > 1 and not names:
            j = 1
            while j < len(w):
                c = w[j]
                if c == "r":
                    forget_all = True
                elif c == "d":
                    delete = True
                elif c == "t":
                    show = True
                elif c == "l":
                    reusable = True
                elif c == "p":
                    rest = w[j + 1:]
                    if rest:
                        set_path = rest
                    elif i + 1 < len(words):
                        i += 1
                        set_path = words[i]
                    else:
                        err(ctx, "-p: option requires an argument")
                        return 1
                    break
                else:
                    err(ctx, f"-{c}: invalid option")
                    ctx.stderr.write(b"hash: usage: hash [-lr] [-p pathname] [-dt] "
                                     b"[name ...]\n")
                    return 2
                j += 1
        else:
            names.append(w)
        i += 1
    now = _path_var(sh)
    table = _table(sh)
    if forget_all:
        table = {}
    status = 0
    if show and not names:
        err(ctx, "-t: option requires an argument")
        return 1
    out: list[str] = []
    for n in names:
        if set_path is not None:
            table[n] = (set_path, 0, now)
        elif delete:
            if table.pop(n, None) is None:
                err(ctx, f"{n}: not found")
                status = 1
        elif show:
            entry = table.get(n)
            if entry is None:
                err(ctx, f"{n}: not found")
                status = 1
                continue
            table[n] = (entry[0], entry[1] + 1, now)
            out.append(entry[0] if len(names) == 1 else f"{n}\t{entry[0]}")
        else:
            got = sh.resolve_all(n)
            kind = got[0][0] if got else ""
            if kind in ("alias", "keyword", "function", "builtin", "tool"):
                continue
            files = [d for k, d in sh.resolve_all(n, path=now or "", every=True)
                     if k == "file"]
            if not files:
                err(ctx, f"{n}: not found")
                status = 1
                continue
            old = table.get(n)
            table[n] = (files[0], old[1] if old and old[0] == files[0] else 0, now)
    sh.state.retable(hashed=table)
    if out:
        ctx.write("".join(line + "\n" for line in out))
    if names or forget_all:
        return status
    if as_json:
        ctx.write(to_json_text([{"name": k, "path": v[0], "hits": v[1]}
                                for k, v in table.items()]) + "\n")
        return 0
    if not table:
        ctx.write("hash: hash table empty\n")
        return 0
    if reusable:
        ctx.write("".join(f"builtin hash -p {v[0]} {k}\n" for k, v in table.items()))
    else:
        ctx.write("hits\tcommand\n" + "".join(f"{v[1]:4d}\t{v[0]}\n" for v in table.values()))
    return 0


TOOLS: list[Tool] = [enable, hash_]
