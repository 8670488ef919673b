"""cd and pwd: the session's working directory (logical, as bash's $PWD; -P resolves
symbolic links)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from tysh.builtins.shell.common import err, missing_reason
from tysh.kernel.base.record import Record
from tysh.kernel.base.values import to_text
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Tool, tool

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session
    from tysh.kernel.tools.output import OutputData


@attrs.frozen(repr=False, eq=False)
class CdArgs(Record):
    dirs: tuple[str, ...] = param((), positional=True,
                                  help="the directory (default $HOME; - is $OLDPWD)")
    logical: bool = param(False, aliases=["-L"], help="follow symbolic links logically (default)")
    physical: bool = param(False, aliases=["-P"], help="resolve symbolic links")


@tool("cd", args=CdArgs, description="change the working directory",
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
    path = sh.abspath(target)
    fs = sh.fs
    if not fs.is_dir(path):
        reason = "Not a directory" if fs.exists(path) else missing_reason(fs, path)
        err(ctx, f"{target}: {reason}")
        return 1
    if args.physical:
        try:
            path = fs.realpath(path)
        except Exception:  # noqa: BLE001
            pass
    st.set("OLDPWD", st.cwd)
    st.cwd = path
    pwd_var = st.lookup("PWD")
    if pwd_var is not None:
        pwd_var.value = path
    else:
        st.set("PWD", path, export=True)
    if show:
        ctx.write(path + "\n")
    return 0


@attrs.frozen(repr=False, eq=False)
class PwdArgs(Record):
    logical: bool = param(False, aliases=["-L"], help="the logical path (default)")
    physical: bool = param(False, aliases=["-P"], help="the path with symbolic links resolved")


@tool("pwd", args=PwdArgs,
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


TOOLS: list[Tool] = [cd, pwd]
