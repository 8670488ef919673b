"""wait: the end of background jobs (`cmd &`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from tysh.builtins.shell.common import err
from tysh.kernel.base.record import Record
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Tool, tool

if TYPE_CHECKING:
    from tysh.kernel.run.session import Session


@attrs.frozen(repr=False, eq=False)
class WaitArgs(Record):
    ids: tuple[str, ...] = param((), positional=True, help="job ids ($!) to wait for; all by default")


@tool("wait", args=WaitArgs, session=True,
      description="wait for background jobs and return the last one's status")
def wait(args: WaitArgs, ctx: Context, sh: Session) -> int:
    if not args.ids:
        return sh.wait_jobs(None)
    ids: list[int] = []
    for i in args.ids:
        t = i.lstrip("%")
        if not t.isdigit():
            err(ctx, f"`{i}': not a pid or valid job spec")
            return 2
        ids.append(int(t))
    return sh.wait_jobs(ids)


TOOLS: list[Tool] = [wait]
