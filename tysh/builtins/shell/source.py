"""source and `.`: run a file's commands in the current shell."""

from __future__ import annotations

from tysh.builtins.shell.common import command_fds, err, missing_reason
from tysh.kernel.base.control import ReturnFromFunction
from tysh.kernel.base.paths import join
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.base.values import encode_text, to_text
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Tool, tool

TYPE_CHECKING = False

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session


@value_record
class SourceArgs(Record):
    file: str = param(positional=True, help="the script to run in this shell")
    args: tuple[str, ...] = param((), positional=True, help="its positional parameters")


def _find_source(sh: Session, name: str) -> str | None:
    """Where `source NAME` reads from: NAME itself when it has a slash, else the first
    file of that name along $PATH, else NAME in the cwd (as bash does)."""
    fs = sh.fs
    if "/" in name:
        p = sh.abspath(name)
        return p if fs.is_file(p) else None
    path = sh.state.get("PATH")
    for d in to_text(path).split(":") if path is not None else ():
        if d:
            p = sh.abspath(join(d, name))
            if fs.is_file(p):
                return p
    p = sh.abspath(name)
    return p if fs.is_file(p) else None


def _source(args: SourceArgs, ctx: Context, sh: Session) -> int:
    from tysh.kernel.base.errors import TyshSyntaxError

    st = sh.state
    path = _find_source(sh, args.file)
    if path is None:
        err(ctx, f"{args.file}: {missing_reason(sh.fs, sh.abspath(args.file))}")
        return 1
    try:
        src = sh.fs.read_bytes(path).decode("utf-8", "surrogateescape")
    except Exception as e:  # noqa: BLE001
        err(ctx, f"{args.file}: {getattr(e, 'reason', e)}")
        return 1
    try:
        script = sh.parse(src)
    except TyshSyntaxError as e:
        ctx.stderr.write(encode_text(f"tysh: {args.file}: " + e.format()[6:] + "\n"))
        return 2
    fds = command_fds(sh, ctx)
    saved = st.positional
    if args.args:
        st.positional = list(args.args)
    sh.source_depth += 1
    # bash's stack gets a "source" frame: $BASH_SOURCE names the file, caller the line
    stmt = st.stmt
    st.calls.append(("source", stmt.pos.line if stmt is not None else 0, args.file))
    try:
        status = sh.run_script(script, fds)
    except ReturnFromFunction as r:
        status = r.status
    finally:
        del st.calls[-1]
        sh.source_depth -= 1
        if args.args:
            st.positional = saved
    if st.traps:
        st.last_status = status
        sh.run_trap("RETURN")
    return status


@tool("source", kind="shell", args=SourceArgs, session=True,
      description="run a file's commands in the current shell",
      examples=[("load functions", "source ./lib.sh")])
def source(args: SourceArgs, ctx: Context, sh: Session) -> int:
    return _source(args, ctx, sh)


@tool(".", kind="shell", args=SourceArgs, session=True,
      description="run a file's commands in the current shell (as source)")
def dot(args: SourceArgs, ctx: Context, sh: Session) -> int:
    return _source(args, ctx, sh)


TOOLS: list[Tool] = [source, dot]
