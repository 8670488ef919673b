"""date (GNU coreutils 9.1): print a time in a format, in the session's TZ (its TZ
variable, else the host's zone), `-u` for UTC.

`-d` understands the forms people type: `@EPOCH`, `now`, `today`, `yesterday`,
`tomorrow`, ISO 8601 dates and date-times (with `T` or a space, optional fraction, `Z`
or an offset), weekday names with `next`/`last`, and relative items (`3 days ago`,
`+2 hours`, `-1 week`, `1 month`), which may follow a date. Anything else is GNU's
`invalid date` error. Formats are rendered here (not by the C library) so GNU's
`%N %s %:z %P %-d %_d %^a` and widths work the same on every host."""

from __future__ import annotations

import calendar
import re
import time
from datetime import UTC, datetime, timedelta, tzinfo

import attrs

from tysh.builtins.files_common import _zone
from tysh.kernel.context import Context
from tysh.kernel.fs import FsError
from tysh.kernel.output import OutputData
from tysh.kernel.record import Record
from tysh.kernel.tooldef import Outcome, ToolReturn, tool
from tysh.kernel.typed_args import param

_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]
_ISO_FORMATS = {
    "date": "%Y-%m-%d", "hours": "%Y-%m-%dT%H%:z", "minutes": "%Y-%m-%dT%H:%M%:z",
    "seconds": "%Y-%m-%dT%H:%M:%S%:z", "ns": "%Y-%m-%dT%H:%M:%S,%N%:z",
}
_RFC3339 = {"date": "%Y-%m-%d", "seconds": "%Y-%m-%d %H:%M:%S%:z",
            "ns": "%Y-%m-%d %H:%M:%S.%N%:z"}


@attrs.frozen(repr=False, eq=False)
class DateArgs(Record):
    format: tuple[str, ...] = param(positional=True, default=(), help="+FORMAT (strftime-style)")
    date: str | None = param(default=None, aliases=["-d"],
                             help="display the time described by STRING, not now")
    utc: bool = param(default=False, aliases=["-u", "--universal"],
                      help="print or interpret times in UTC")
    iso: bool = param(default=False, aliases=["-I"], help="ISO 8601 date (YYYY-MM-DD)")
    iso_8601: str | None = param(
        default=None, choices=("date", "hours", "minutes", "seconds", "ns"),
        help="ISO 8601 output with the given precision")
    rfc_email: bool = param(default=False, aliases=["-R"],
                            help="RFC 5322 format: Mon, 14 Aug 2006 02:34:56 -0600")
    rfc_3339: str | None = param(default=None, choices=("date", "seconds", "ns"),
                                 help="RFC 3339 format with the given precision")
    reference: str | None = param(default=None, aliases=["-r"],
                                  help="display the last modification time of FILE")


class BadDate(ValueError):
    """A -d string this parser does not understand."""


# -- the zone -------------------------------------------------------------------------

def _session_zone(ctx: Context, utc: bool) -> tzinfo | None:
    """The zone to render in; None means the host's local zone."""
    if utc:
        return UTC
    try:
        name = ctx.shell.get_var("TZ")
    except Exception:  # noqa: BLE001 - a minimal shell may not know variables
        name = None
    return _zone(str(name)) if name else None


def _at(ts: int, zone: tzinfo | None) -> datetime:
    return datetime.fromtimestamp(ts, zone) if zone else datetime.fromtimestamp(ts).astimezone()


def _epoch_of_wall(wall: datetime, zone: tzinfo | None) -> int:
    """Seconds since the epoch of a naive wall-clock time in `zone`."""
    if zone is not None:
        return calendar.timegm(wall.replace(tzinfo=zone).utctimetuple())
    return int(time.mktime(wall.timetuple()))


# -- parsing -d ---------------------------------------------------------------------

_UNITS = {"sec": "s", "second": "s", "min": "m", "minute": "m", "hour": "h", "day": "d",
          "week": "w", "fortnight": "f", "month": "M", "year": "y"}
_ISO = re.compile(
    r"(\d{4})-(\d\d?)-(\d\d?)"
    r"(?:[T ](\d\d?):(\d\d)(?::(\d\d)(?:[.,](\d+))?)?"
    r"(\s*(?:Z|UTC)\b|[+-]\d\d(?::?\d\d)?)?)?", re.IGNORECASE)
_REL = re.compile(r"([+-]?\s*\d+)?\s*(sec|second|min|minute|hour|day|week|fortnight|month|"
                  r"year)s?\b(\s+ago\b)?", re.IGNORECASE)
_WORD = re.compile(r"(next|last|this)?\s*(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?", re.IGNORECASE)


def parse_date(text: str, now_ns: int, zone: tzinfo | None) -> tuple[int, int]:
    """(epoch seconds, nanoseconds) for a -d STRING; BadDate for what it cannot read."""
    s = " ".join(text.split()).lower()
    if s.startswith("@"):
        m = re.fullmatch(r"@([+-]?\d+)(?:[.,](\d{1,9})\d*)?", s)
        if not m:
            raise BadDate(text)
        frac = int((m.group(2) or "0").ljust(9, "0"))
        secs = int(m.group(1))
        if m.group(1).startswith("-") and frac:
            secs, frac = secs - 1, 1_000_000_000 - frac
        return secs, frac
    secs, ns = divmod(now_ns, 1_000_000_000)
    wall = _at(secs, zone).replace(tzinfo=None)
    fixed_off: int | None = None
    rest = s
    if not s:  # GNU: the empty string is the start of today
        return _epoch_of_wall(wall.replace(hour=0, minute=0, second=0), zone), 0
    m = _ISO.match(rest)
    if m:
        y, mo, d = int(m[1]), int(m[2]), int(m[3])
        hh, mi, ss = int(m[4] or 0), int(m[5] or 0), int(m[6] or 0)
        ns = int((m[7] or "0")[:9].ljust(9, "0"))
        try:
            wall = datetime(y, mo, d, hh, mi, ss)
        except ValueError:
            raise BadDate(text) from None
        if m[8]:
            zone_word = m[8].strip()
            off = 0 if zone_word in ("z", "utc") else _offset(zone_word)
            fixed_off = off
        rest = rest[m.end():].strip()
    elif rest.startswith(("now", "today", "yesterday", "tomorrow")):
        word = rest.split(" ", 1)[0]
        if word not in ("now", "today", "yesterday", "tomorrow"):
            raise BadDate(text)
        if word in ("yesterday", "tomorrow"):
            wall += timedelta(days=-1 if word == "yesterday" else 1)
        rest = rest[len(word):].strip()
    else:
        wm = _WORD.match(rest)
        if wm and wm.end() == len(rest) or (wm and rest[wm.end()] == " "):
            assert wm is not None
            target = [d[:3].lower() for d in _DAYS].index(wm[2])
            delta = (target - wall.weekday()) % 7
            if wm[1] == "next" and delta == 0:
                delta = 7
            elif wm[1] == "last":
                delta = delta - 7 if delta else -7
            wall = (wall + timedelta(days=delta)).replace(hour=0, minute=0, second=0)
            ns = 0
            rest = rest[wm.end():].strip()
    return _relative(text, rest, wall, ns, zone, fixed_off)


def _offset(text: str) -> int:
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    return sign * (int(digits[:2]) * 3600 + int(digits[2:4] or 0) * 60)


def _relative(text: str, rest: str, wall: datetime, ns: int, zone: tzinfo | None,
              fixed_off: int | None) -> tuple[int, int]:
    months = days = seconds = 0
    while rest:
        m = _REL.match(rest)
        if not m or m.end() == 0:
            raise BadDate(text)
        n = int(m[1].replace(" ", "")) if m[1] else 1
        if m[3]:
            n = -n
        unit = _UNITS[m[2].lower()]
        if unit == "M":
            months += n
        elif unit == "y":
            months += 12 * n
        elif unit in "dwf":
            days += n * {"d": 1, "w": 7, "f": 14}[unit]
        else:
            seconds += n * {"s": 1, "m": 60, "h": 3600}[unit]
        rest = rest[m.end():].strip()
    if months:
        total = wall.year * 12 + wall.month - 1 + months
        y, mo = divmod(total, 12)
        # GNU normalises an overflowing day (Jan 31 + 1 month = Mar 2/3), as mktime does
        extra = wall.day - 1
        wall = wall.replace(year=y, month=mo + 1, day=1) + timedelta(days=extra)
    wall += timedelta(days=days)
    if fixed_off is not None:
        return calendar.timegm(wall.timetuple()) - fixed_off + seconds, ns
    return _epoch_of_wall(wall, zone) + seconds, ns


# -- formatting ---------------------------------------------------------------------

_CONV = re.compile(r"%([-_0^#]*)(\d*)(:{0,3}z|[a-zA-Z%+])")
_NUMERIC = {"C": 2, "d": 2, "e": 2, "g": 2, "G": 4, "H": 2, "I": 2, "j": 3, "k": 2, "l": 2,
            "m": 2, "M": 2, "N": 9, "s": 1, "S": 2, "u": 1, "U": 2, "V": 2, "w": 1, "W": 2,
            "y": 2, "Y": 4}
_SPACE_PADDED = frozenset("ekl")


def _zone_text(dt: datetime, colons: int) -> str:
    off = dt.utcoffset() or timedelta(0)
    total = int(off.total_seconds())
    sign = "-" if total < 0 else "+"
    total = abs(total)
    h, rem = divmod(total, 3600)
    mi, se = divmod(rem, 60)
    if colons == 0:
        return f"{sign}{h:02d}{mi:02d}"
    if colons == 1:
        return f"{sign}{h:02d}:{mi:02d}"
    if colons == 2:
        return f"{sign}{h:02d}:{mi:02d}:{se:02d}"
    if se:
        return f"{sign}{h:02d}:{mi:02d}:{se:02d}"
    return f"{sign}{h:02d}" + (f":{mi:02d}" if mi else "")


def _value(c: str, dt: datetime, ts: int, ns: int) -> str | int:
    iso_y, iso_w, _ = dt.isocalendar()
    table: dict[str, str | int] = {}
    if c in _NUMERIC:
        table = {
            "C": dt.year // 100, "d": dt.day, "e": dt.day, "g": iso_y % 100, "G": iso_y,
            "H": dt.hour, "I": dt.hour % 12 or 12, "j": dt.timetuple().tm_yday,
            "k": dt.hour, "l": dt.hour % 12 or 12, "m": dt.month, "M": dt.minute, "N": ns,
            "s": ts, "S": dt.second, "u": dt.isoweekday(),
            "U": int(dt.strftime("%U")), "V": iso_w, "w": dt.isoweekday() % 7,
            "W": int(dt.strftime("%W")), "y": dt.year % 100, "Y": dt.year,
        }
        return table[c]
    if c == "a":
        return _DAYS[dt.weekday()][:3]
    if c == "A":
        return _DAYS[dt.weekday()]
    if c in "bh":
        return _MONTHS[dt.month - 1][:3]
    if c == "B":
        return _MONTHS[dt.month - 1]
    if c == "p":
        return "AM" if dt.hour < 12 else "PM"
    if c == "P":
        return "am" if dt.hour < 12 else "pm"
    if c == "Z":
        return dt.tzname() or ""
    if c.endswith("z"):
        return _zone_text(dt, len(c) - 1)
    compound = {"c": "%a %b %e %H:%M:%S %Y", "D": "%m/%d/%y", "F": "%Y-%m-%d",
                "r": "%I:%M:%S %p", "R": "%H:%M", "T": "%H:%M:%S", "x": "%m/%d/%y",
                "X": "%H:%M:%S", "+": "%a %b %e %H:%M:%S %Z %Y"}
    if c in compound:
        return render(compound[c], dt, ts, ns)
    return {"n": "\n", "t": "\t", "%": "%"}.get(c, "")


def render(fmt: str, dt: datetime, ts: int, ns: int) -> str:
    """GNU date's format language: conversions with `-` (no pad), `_` (spaces), `0`,
    `^` (upper case), `#` (swap case) flags and a width."""

    def one(m: re.Match[str]) -> str:
        flags, width_s, c = m.group(1), m.group(2), m.group(3)
        if c not in _NUMERIC and c not in "aAbBhpPZcDFrRTxXnt%+" and not c.endswith("z"):
            return m.group(0)
        v = _value(c, dt, ts, ns)
        width = int(width_s) if width_s else None
        if isinstance(v, int):
            neg = v < 0
            digits = str(abs(v))
            if c == "N" and width is not None:
                return digits.rjust(9, "0")[:width] if "-" not in flags else digits[:width]
            default = _NUMERIC[c]
            pad = " " if c in _SPACE_PADDED else "0"
            if "_" in flags:
                pad = " "
            elif "0" in flags:
                pad = "0"
            if "-" in flags:
                text = digits
            else:
                w = width if width is not None else default
                text = digits.rjust(w - neg, pad) if pad == "0" else digits.rjust(w - neg)
            return ("-" + text) if neg else text
        text = v
        if "^" in flags or ("#" in flags and c in "aAbBhZ"):
            text = text.upper() if not ("#" in flags and c == "Z") else text.lower()
        elif "#" in flags and c == "p":
            text = text.lower()
        if width is not None and "-" not in flags:
            text = text.rjust(width, "0" if "0" in flags else " ")
        return text

    return _CONV.sub(one, fmt)


# -- the tool -----------------------------------------------------------------------

@tool(
    "date",
    args=DateArgs,
    description=(
        "print the date and time, now or as described by -d, in +FORMAT (GNU date); "
        '--json gives {"epoch","iso"}'
    ),
    examples=[
        ("an ISO timestamp", "date +%Y-%m-%dT%H:%M:%S"),
        ("seconds since the epoch", "date +%s"),
        ("a date a week ago, in UTC", "date -u -d '7 days ago' +%F"),
    ],
)
def date(args: DateArgs, ctx: Context) -> ToolReturn:
    zone = _session_zone(ctx, args.utc)
    fmts = list(args.format)
    if len(fmts) > 1 or (fmts and not fmts[0].startswith("+")):
        bad = fmts[1] if len(fmts) > 1 and fmts[0].startswith("+") else fmts[0]
        if len(fmts) == 1:
            ctx.error(f"invalid date '{bad}'")
        else:
            ctx.error(f"extra operand '{bad}'")
            ctx.stderr.write(b"Try 'date --help' for more information.\n")
        return 1
    chosen = [x for x in (fmts, args.iso or args.iso_8601, args.rfc_email, args.rfc_3339) if x]
    if len(chosen) > 1:
        ctx.error("multiple output formats specified")
        return 1
    if args.date is not None and args.reference is not None:
        ctx.error("the options to specify dates for printing are mutually exclusive")
        ctx.stderr.write(b"Try 'date --help' for more information.\n")
        return 1
    now_ns = time.time_ns()
    if args.reference is not None:
        try:
            mtime = ctx.fs.stat(ctx.path(args.reference)).mtime
        except FsError as e:
            ctx.error(f"{args.reference}: {e.reason}")
            return 1
        ts, ns = int(mtime // 1), round((mtime % 1) * 1e9) % 1_000_000_000
    elif args.date is not None:
        try:
            ts, ns = parse_date(args.date, now_ns, zone)
        except (BadDate, OverflowError, ValueError):
            ctx.error(f"invalid date '{args.date}'")
            return 1
    else:
        ts, ns = divmod(now_ns, 1_000_000_000)
    try:
        dt = _at(ts, zone)
    except (OverflowError, OSError, ValueError):
        ctx.error(f"time {ts} is out of range")
        return 1
    if fmts:
        fmt = fmts[0][1:]
    elif args.iso or args.iso_8601:
        fmt = _ISO_FORMATS[args.iso_8601 or "date"]
    elif args.rfc_email:
        fmt = "%a, %d %b %Y %H:%M:%S %z"
    elif args.rfc_3339:
        fmt = _RFC3339[args.rfc_3339]
    else:
        fmt = "%a %b %e %H:%M:%S %Z %Y"
    text = render(fmt, dt, ts, ns) + "\n"
    if ctx.json:
        iso = render("%Y-%m-%dT%H:%M:%S%:z", dt, ts, ns)
        epoch: float | int = ts + ns / 1e9 if ns else ts
        return Outcome(output=OutputData.text(text, rich_json={"epoch": epoch, "iso": iso}))
    ctx.write(text)
    return 0


TOOLS = [date]
