"""The parsed sed script: a flat list of commands with their addresses.

Blocks and branches are jump targets into the list (`Cmd.target`), so the interpreter and
the compiler walk it by index. A command also carries its address-range state, which each
runner resets for its stream.
"""

from __future__ import annotations

from tysh.kernel.base.errors import TyshError
from tysh.kernel.base.record import MutableRecord, mutable

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any


class SedError(TyshError):
    """A script or runtime error; the message is GNU's wording."""


@mutable
class Addr(MutableRecord):
    kind: str  # line last re zero step plus tilde
    num: int = 0
    step: int = 0
    regex: str | None = None  # None for `//` (the last regex used)
    icase: bool = False
    multiline: bool = False
    rx: re.Pattern[str] | None = None  # compiled at parse time; None for `//`


@mutable
class Cmd:
    name: str
    a1: Addr | None = None
    a2: Addr | None = None
    negate: bool = False
    active: bool = False  # inside an address range
    end_line: int = 0
    done: bool = False  # a range from a line number has started (it starts only once)
    text: str = ""  # a/i/c text, label, file name
    target: int = -1  # jump target: the matching `}` for `{`, the label for b/t/T
    num: int = 0  # q/Q exit code, l wrap length
    sub: Sub | None = None
    ytab: dict[int, str] | None = None


@mutable
class Sub(MutableRecord):
    regex: str | None
    icase: bool
    multiline: bool
    parts: list[tuple[str, Any]]  # ("lit", text) ("grp", n) ("case", op)
    template: str | None  # a Python re template when there are no case conversions
    glob: bool
    nth: int
    print_: int
    wfile: str | None
    rx: re.Pattern[str] | None = None
    literal: str | None = None  # the replacement when it has no group or case parts
