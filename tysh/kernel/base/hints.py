"""The names from `typing` that start-up modules use at run time, without importing
`typing`: its import is a tenth of a `tysh -c 'echo hi'`.

A type checker sees typing's own names. At run time `Any` is `object` (it only fills
aliases such as `tuple[str, Any]`), `Protocol` is a plain base class (tysh's protocols
are never checked with isinstance), and `cast` hands back the value it is given. Other typing names stay in `if TYPE_CHECKING:` blocks: with postponed annotations
nothing evaluates them. A module that is not on the start-up path imports `typing`."""

from __future__ import annotations

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any as Any
    from typing import Protocol as Protocol
    from typing import cast as cast
else:
    Any = object

    class Protocol:
        __slots__ = ()

    def cast(_type, value):
        return value
