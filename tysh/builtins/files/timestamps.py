"""Time words for `touch -d` / `touch -t`: the forms people actually type, in the session's
time zone (its TZ variable, not the process's)."""

from __future__ import annotations

import time

from tysh.builtins._common.fileinfo import local_time
from tysh.kernel.base.lazyre import IGNORECASE, LazyRegex
from tysh.kernel.tools.context import Context

TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime

_AGO = LazyRegex(
    r"(\d+)\s*(sec|second|min|minute|hour|day|week|month|year)s?(\s+ago)?", IGNORECASE
)
_ISO_SPACE = LazyRegex(r"\d{4}-\d\d-\d\d \d")
_STAMP = LazyRegex(r"(\d{8}|\d{10}|\d{12})(?:\.(\d\d))?")
_UNIT = {"sec": 1, "second": 1, "min": 60, "minute": 60, "hour": 3600, "day": 86400,
         "week": 7 * 86400, "month": 30 * 86400, "year": 365 * 86400}


def _zone_now(ctx: Context) -> datetime:
    return local_time(ctx, time.time())


def parse_date(text: str, ctx: Context) -> float:
    """`@1700000000`, `now`, `today`, `yesterday`, `tomorrow`, `N units [ago]`, ISO dates
    and times (`2024-01-31`, `2024-01-31 12:00[:00]`, `…T…Z`, offsets)."""
    s = text.strip()
    low = s.lower()
    if s.startswith("@"):
        try:
            return float(s[1:])
        except ValueError:
            pass
    elif low in ("now", "today", ""):
        return time.time()
    elif low in ("yesterday", "tomorrow"):
        return time.time() + (-86400 if low == "yesterday" else 86400)
    else:
        m = _AGO.fullmatch(s)
        if m:
            delta = int(m.group(1)) * _UNIT[m.group(2).lower()]
            return time.time() + (-delta if m.group(3) else delta)
        from datetime import datetime  # (touch -d and find -newermt only)

        iso = s.replace(" ", "T", 1) if _ISO_SPACE.match(s) else s
        if iso.endswith(("Z", "z")):
            iso = iso[:-1] + "+00:00"
        try:
            dt = datetime.fromisoformat(iso)
        except ValueError:
            dt = None
        if dt is not None:
            if dt.tzinfo is None:
                dt = dt.replace(tzinfo=_zone_now(ctx).tzinfo)
            return dt.timestamp()
    return _gnu_date(text, ctx)


def _gnu_date(text: str, ctx: Context) -> float:
    """What the quick forms above miss (`Jan 2 2020`, `01/02/2020`, `-1 day`, `next
    monday`, `yesterday 12:00`): `date -d`'s full GNU grammar, in the session's zone."""
    from tysh.builtins._common.dates import parse_date as gnu_parse
    from tysh.builtins._common.fileinfo import named_zone

    try:
        name = ctx.shell.get_var("TZ")
    except Exception:  # noqa: BLE001 - a minimal shell may not know variables
        name = None
    try:
        sec, ns = gnu_parse(text, time.time_ns(), named_zone(str(name)) if name else None)
    except ValueError:
        raise ValueError(f"invalid date format '{text}'") from None
    return sec + ns / 1e9


def parse_stamp(text: str, ctx: Context) -> float:
    """`touch -t [[CC]YY]MMDDhhmm[.ss]`."""
    from datetime import datetime  # (touch -t only)

    m = _STAMP.fullmatch(text)
    if not m:
        raise ValueError(f"invalid date format '{text}'")
    digits, secs = m.group(1), int(m.group(2) or 0)
    now = _zone_now(ctx)
    if len(digits) == 12:
        year, rest = int(digits[:4]), digits[4:]
    elif len(digits) == 10:
        yy = int(digits[:2])
        year, rest = (1900 + yy if yy >= 69 else 2000 + yy), digits[2:]
    else:
        year, rest = now.year, digits
    try:
        dt = datetime(year, int(rest[0:2]), int(rest[2:4]), int(rest[4:6]), int(rest[6:8]),
                      secs, tzinfo=now.tzinfo)
    except ValueError:
        raise ValueError(f"invalid date format '{text}'") from None
    return dt.timestamp()
