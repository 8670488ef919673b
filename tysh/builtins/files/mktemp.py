"""mktemp (GNU coreutils 9.1): create a unique temporary file or directory and print its
name.

The temporary directory is the session's TMPDIR variable (not the process's), else
/tmp; every path goes through ctx.path and ctx.fs, so a confined kernel refuses one
outside its root with the filesystem's usual error."""

from __future__ import annotations

import os

from tysh.builtins._common.fileinfo import q
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
# the bytes below this are spread evenly over _CHARS; larger ones are drawn again
_EVEN = 256 - 256 % len(_CHARS)
_DEFAULT = "tmp.XXXXXXXXXX"
_ATTEMPTS = 100


def random_chars(n: int) -> str:
    """`n` characters of _CHARS, each chosen uniformly from the OS's random source (what
    `secrets.choice` draws on, without the modules `secrets` loads with it)."""
    out: list[str] = []
    while len(out) < n:
        out.extend(_CHARS[b % len(_CHARS)] for b in os.urandom(n - len(out)) if b < _EVEN)
    return "".join(out)


@value_record
class MktempArgs(Record):
    template: tuple[str, ...] = param(
        positional=True, default=(),
        help="TEMPLATE with at least 3 consecutive X's in its last component "
             "(default tmp.XXXXXXXXXX in the temporary directory)")
    directory: bool = param(default=False, aliases=["-d"], help="create a directory, not a file")
    dry_run: bool = param(default=False, aliases=["-u"], help="do not create anything; print a name")
    quiet: bool = param(default=False, aliases=["-q"], help="suppress diagnostics about failure")
    suffix: str | None = param(default=None, help="append SUFF to TEMPLATE (which must end in X)")
    tmpdir: str | None = param(
        default=None, aliases=["-p"],
        help="interpret TEMPLATE relative to DIR (empty: $TMPDIR or /tmp); GNU's bare "
             "--tmpdir is spelled -t here, or --tmpdir= with an empty DIR")
    t: bool = param(default=False, aliases=["-t"],
                    help="interpret TEMPLATE as a name relative to $TMPDIR (or -p DIR)")


def _tmp_root(ctx: Context) -> str:
    try:
        value = ctx.shell.get_var("TMPDIR")
    except Exception:  # noqa: BLE001 - a minimal shell may not know variables
        value = None
    return str(value) if value else "/tmp"


@tool(
    "mktemp", kind="write",
    args=MktempArgs,
    description=(
        "create a temporary file or directory and print its name (GNU mktemp); "
        '--json gives {"path"}'
    ),
    examples=[
        ("a scratch file in $TMPDIR or /tmp", "tmp=$(mktemp)"),
        ("a scratch directory", "work=$(mktemp -d)"),
        ("a named file with a suffix", "mktemp -t report.XXXXXX --suffix=.csv"),
    ],
    operations=["fs.create"],
)
def mktemp(args: MktempArgs, ctx: Context) -> ToolReturn:
    def fail(msg: str) -> int:
        if not args.quiet:
            ctx.error(msg)
        return 1

    tmpdir = args.tmpdir
    names = list(args.template)
    if tmpdir is not None and not names and "XXX" in tmpdir and not args.t:
        # `mktemp --tmpdir foo.XXXXXX`: the binder gave the template to --tmpdir
        names, tmpdir = [tmpdir], ""
    if len(names) > 1:
        ctx.error("too many templates")
        ctx.stderr.write(b"Try 'mktemp --help' for more information.\n")
        return 1
    template = names[0] if names else _DEFAULT
    use_dir = tmpdir is not None or args.t or not names
    if args.suffix is not None:
        if not template.endswith("X"):
            return fail(f"with --suffix, template {q(template)} must end in X")
        base, suffix = template, args.suffix
    else:
        cut = template.rfind("X") + 1
        base, suffix = template[:cut], template[cut:]
    if "/" in suffix:
        return fail(f"invalid suffix {q(suffix)}, contains directory separator")
    xs = len(base) - len(base.rstrip("X"))
    if xs < 3:
        return fail(f"too few X's in template {q(template + (args.suffix or ''))}")
    if use_dir:
        if tmpdir is not None and template.startswith("/"):
            return fail(f"invalid template, {q(template)}; with --tmpdir, it may not be absolute")
        if args.t and "/" in template:
            return fail(f"invalid template, {q(template)}, contains directory separator")
        root = tmpdir or _tmp_root(ctx)
        base = root.rstrip("/") + "/" + base if root != "/" else "/" + base
    stem = base[:-xs]
    last = ""
    for _ in range(_ATTEMPTS):
        name = stem + random_chars(xs) + suffix
        path = ctx.path(name)
        last = name
        try:
            if ctx.fs.exists(path):
                continue
            if not args.dry_run:
                if args.directory:
                    ctx.fs.mkdir(path, mode=0o700)
                else:
                    ctx.fs.open(path, "wb").close()
                    try:
                        ctx.fs.chmod(path, 0o600)
                    except FsError:
                        pass  # a filesystem without modes
        except FsError as e:
            what = "directory" if args.directory else "file"
            return fail(f"failed to create {what} via template {q(base + suffix)}: {e.reason}")
        if ctx.json:
            return Outcome(output=OutputData.text(name + "\n", rich_json={"path": name}))
        ctx.write(name + "\n")
        return Outcome(output=OutputData.value({"path": name}.copy))
    return fail(f"failed to create file via template {q(last)}: File exists")


TOOLS = [mktemp]
