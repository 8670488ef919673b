"""`chmod`: change file mode bits, octal (`755`) or symbolic (`u+x,go-w`, `a=r`, `+X`).

chmod declares raw_argv and reads its own words: a symbolic mode such as
`-x`, `-w` or `-rwx` is spelled exactly like an option bundle, so a clap-style binder
would reject `chmod -x script.sh`. The option set is tiny (-R -v -c -f --reference).

`parse_mode` is shared with `find -perm` and `mkdir -m`. A mode without a `who` is
masked by the session's umask (`ctx.shell.umask`; 022 where none is given)."""

from __future__ import annotations

from tysh.builtins._common.fileinfo import mode_string, q
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.values import to_text
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.tool import tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

UMASK = 0o022
_OCTAL = LazyRegex(r"[0-7]{1,4}")
_CLAUSE = LazyRegex(r"([ugoa]*)((?:[-+=](?:[ugo]|[rwxXst]*))+)")
_ACTION = LazyRegex(r"([-+=])([ugo]|[rwxXst]*)")
_WHO_BITS = {"u": 0o4700, "g": 0o2070, "o": 0o1007}
_MODE_WORD = LazyRegex(r"[0-7]{1,4}|(?:[ugoa]*(?:[-+=](?:[ugo]|[rwxXst]*))+)(?:,[ugoa]*(?:[-+=](?:[ugo]|[rwxXst]*))+)*")


def is_mode(word: str) -> bool:
    return _MODE_WORD.fullmatch(word) is not None


def parse_mode(spec: str, current: int, is_dir: bool, umask: int = UMASK) -> int:
    """The new permission bits (07777) for a mode spec applied to `current`."""
    if _OCTAL.fullmatch(spec):
        return int(spec, 8)
    mode = current & 0o7777
    for clause in spec.split(","):
        m = _CLAUSE.fullmatch(clause)
        if m is None:
            raise ValueError(f"invalid mode: {q(spec)}")
        who = m.group(1) or ""
        if "a" in who:
            who = "ugo"
        mask = 0
        for w in who or "ugo":
            mask |= _WHO_BITS[w]
        for op, perms in _ACTION.findall(m.group(2)):
            bits = 0
            if perms in ("u", "g", "o"):
                src = {"u": (mode >> 6) & 7, "g": (mode >> 3) & 7, "o": mode & 7}[perms]
                bits = src << 6 | src << 3 | src
            else:
                for p in perms:
                    if p == "r":
                        bits |= 0o444
                    elif p == "w":
                        bits |= 0o222
                    elif p == "x":
                        bits |= 0o111
                    elif p == "X":
                        if is_dir or mode & 0o111:
                            bits |= 0o111
                    elif p == "s":
                        bits |= 0o6000
                    elif p == "t":
                        bits |= 0o1000
            bits &= mask
            if not who:
                bits &= ~umask
            if op == "+":
                mode |= bits
            elif op == "-":
                mode &= ~bits
            else:
                clear = mask & 0o777 if who else 0o777
                mode = (mode & ~clear) | bits
    return mode


@tool(
    "chmod", kind="write",
    raw_argv=True,
    description="change file mode bits",
    examples=[
        ("make a script executable", "chmod +x run.sh"),
        ("owner read/write only", "chmod 600 secret.txt"),
        ("recursively remove group write", "chmod -R g-w src"),
    ],
    operations=["fs.overwrite"],
)
def chmod(args: Any, ctx: Context) -> int:
    words = [w if isinstance(w, str) else to_text(w) for w in args.positional]
    recursive = verbose = changes = quiet = False
    reference: str | None = None
    mode: str | None = None
    files: list[str] = []
    only_operands = False
    for w in words:
        if only_operands:
            files.append(w)
        elif w == "--":
            only_operands = True
        elif mode is None and reference is None and is_mode(w):
            mode = w
        elif w.startswith("--reference="):
            reference = w.split("=", 1)[1]
        elif w in ("--recursive",):
            recursive = True
        elif w in ("--verbose",):
            verbose = True
        elif w in ("--changes",):
            changes = True
        elif w in ("--silent", "--quiet"):
            quiet = True
        elif w.startswith("-") and len(w) > 1 and not w.startswith("--") and set(w[1:]) <= set(
            "Rvcf"
        ):
            recursive |= "R" in w
            verbose |= "v" in w
            changes |= "c" in w
            quiet |= "f" in w
        elif w.startswith("-") and len(w) > 1 and mode is not None:
            ctx.error(f"invalid option -- '{w.lstrip('-')}'")
            return 1
        elif mode is None and reference is None:
            ctx.error(f"invalid mode: {q(w)}")
            return 1
        else:
            files.append(w)
    if reference is not None:
        try:
            ref_mode = ctx.fs.stat(ctx.path(reference)).mode & 0o7777
        except FsError as e:
            ctx.error(f"failed to get attributes of {q(reference)}: {e.reason}")
            return 1
        mode = format(ref_mode, "o")
    if mode is None:
        ctx.error("missing operand")
        return 1
    if not files:
        ctx.error(f"missing operand after {q(mode)}")
        return 1
    status = 0

    def apply(display: str, path: str) -> None:
        nonlocal status
        try:
            st = ctx.fs.stat(path)
        except FsError as e:
            if not quiet:
                ctx.error(f"cannot access {q(display)}: {e.reason}")
            status = 1
            return
        old = st.mode & 0o7777
        assert mode is not None
        new = parse_mode(mode, old, st.kind == "directory", ctx.shell.umask)
        try:
            if new != old:
                ctx.fs.chmod(path, new)
        except FsError as e:
            if not quiet:
                ctx.error(f"changing permissions of {q(display)}: {e.reason}")
            status = 1
            return
        if verbose or (changes and new != old):
            was, now = f"{old:04o} ({mode_string(old)[1:]})", f"{new:04o} ({mode_string(new)[1:]})"
            if new != old:
                ctx.write(f"mode of {q(display)} changed from {was} to {now}\n")
            else:
                ctx.write(f"mode of {q(display)} retained as {was}\n")
        if recursive and st.kind == "directory":
            try:
                entries = sorted(ctx.fs.list_entries(path))
            except FsError as e:
                ctx.error(f"cannot read directory {q(display)}: {e.reason}")
                status = 1
                return
            for name, kind in entries:
                if kind == "symlink":
                    continue
                apply(display.rstrip("/") + "/" + name, path.rstrip("/") + "/" + name)

    for f in files:
        apply(f, ctx.path(f))
    return status
