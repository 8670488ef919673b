"""date (GNU coreutils 9.1): print a time in a format, in the session's TZ (its TZ
variable, else the host's zone), `-u` for UTC.

`-d` understands the forms people type: `@EPOCH`, `now`, `today`, `yesterday`,
`tomorrow`, ISO 8601 dates and date-times (with `T` or a space, optional fraction, `Z`
or an offset), weekday names with `next`/`last`, and relative items (`3 days ago`,
`+2 hours`, `-1 week`, `1 month`), which may follow a date. Anything else is GNU's
`invalid date` error. Formats are rendered here (not by the C library) so GNU's
`%N %s %:z %P %-d %_d %^a` and widths work the same on every host."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta, tzinfo

from tysh.builtins._common.dates import BadDate, datetime_at, parse_date
from tysh.builtins._common.fileinfo import named_zone
from tysh.builtins._common.operands import InputStatus, open_input
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import Record, replace, value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]
_ISO_FORMATS = {
    "date": "%Y-%m-%d", "hours": "%Y-%m-%dT%H%:z", "minutes": "%Y-%m-%dT%H:%M%:z",
    "seconds": "%Y-%m-%dT%H:%M:%S%:z", "ns": "%Y-%m-%dT%H:%M:%S,%N%:z",
}
_RFC3339 = {"date": "%Y-%m-%d", "seconds": "%Y-%m-%d %H:%M:%S%:z",
            "ns": "%Y-%m-%d %H:%M:%S.%N%:z"}


@value_record
class DateArgs(Record):
    format: tuple[str, ...] = param(positional=True, default=(), help="+FORMAT (strftime-style)")
    date: str | None = param(default=None, aliases=["-d"],
                             help="display the time described by STRING, not now")
    utc: bool = param(default=False, aliases=["-u", "--universal"],
                      help="print or interpret times in UTC")
    iso: bool = param(default=False, aliases=["-I"], help="ISO 8601 date (YYYY-MM-DD)")
    # GNU's -IFMT attaches an optional value, which the binder has no form for: each
    # spelling is its own flag (a bundle would read -Ihours as -I -h -o -u -r -s)
    iso_hours: bool = param(default=False, aliases=["-Ihours"], help="as --iso-8601=hours")
    iso_minutes: bool = param(default=False, aliases=["-Iminutes"],
                              help="as --iso-8601=minutes")
    iso_seconds: bool = param(default=False, aliases=["-Iseconds"],
                              help="as --iso-8601=seconds")
    iso_ns: bool = param(default=False, aliases=["-Ins"], help="as --iso-8601=ns")
    iso_date: bool = param(default=False, aliases=["-Idate"], help="as --iso-8601=date")
    iso_8601: str | None = param(
        default=None, choices=("date", "hours", "minutes", "seconds", "ns"),
        help="ISO 8601 output with the given precision")
    rfc_email: bool = param(default=False, aliases=["-R"],
                            help="RFC 5322 format: Mon, 14 Aug 2006 02:34:56 -0600")
    rfc_3339: str | None = param(default=None, choices=("date", "seconds", "ns"),
                                 help="RFC 3339 format with the given precision")
    reference: str | None = param(default=None, aliases=["-r"],
                                  help="display the last modification time of FILE")
    file: str | None = param(default=None, aliases=["-f"],
                             help="like -d, once per line of FILE ('-' for stdin)")


# -- the zone -------------------------------------------------------------------------

def _session_zone(ctx: Context, utc: bool) -> tzinfo | None:
    """The zone to render in; None means the host's local zone."""
    if utc:
        return UTC
    try:
        name = ctx.shell.get_var("TZ")
    except Exception:  # noqa: BLE001 - a minimal shell may not know variables
        name = None
    return named_zone(str(name)) if name else None


# -- formatting ---------------------------------------------------------------------

_CONV = LazyRegex(r"%([-_0^#]*)(\d*)(:{0,3}z|[a-zA-Z%+])")
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
            if c == "N":
                # GNU: the fraction's digits cut or zero-extended to the width; `_` turns
                # the trailing zeros into spaces, `-` (with a width) drops them
                text = digits.rjust(9, "0")[:width].ljust(width or 9, "0")
                kept = text.rstrip("0") or "0"
                if "_" in flags:
                    return kept.ljust(len(text))
                return kept if "-" in flags and width is not None else text
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
    "date", kind="shell",
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
    iso_word = next((w for w, on in (("hours", args.iso_hours), ("minutes", args.iso_minutes),
                                      ("seconds", args.iso_seconds), ("ns", args.iso_ns),
                                      ("date", args.iso_date)) if on), None)
    if iso_word is not None:
        args = replace(args, iso_8601=iso_word)
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
    if sum(x is not None for x in (args.date, args.reference, args.file)) > 1:
        ctx.error("the options to specify dates for printing are mutually exclusive")
        ctx.stderr.write(b"Try 'date --help' for more information.\n")
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
    now_ns = time.time_ns()
    if args.file is not None:
        return _date_file(args.file, fmt, now_ns, zone, ctx)
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
    shown = _show(ts, ns, fmt, zone, ctx)
    if shown is None:
        return 1
    text, rich = shown
    if ctx.json:
        return Outcome(output=OutputData.text(text, rich_json=rich))
    ctx.write(text)
    return Outcome(output=OutputData.value(lambda: rich))


def _show(ts: int, ns: int, fmt: str, zone: tzinfo | None,
          ctx: Context) -> tuple[str, dict[str, Any]] | None:
    """The rendered line and its JSON form; None after reporting an out-of-range time."""
    try:
        dt = datetime_at(ts, zone)
    except (OverflowError, OSError, ValueError):
        ctx.error(f"time {ts} is out of range")
        return None
    iso = render("%Y-%m-%dT%H:%M:%S%:z", dt, ts, ns)
    epoch: float | int = ts + ns / 1e9 if ns else ts
    return render(fmt, dt, ts, ns) + "\n", {"epoch": epoch, "iso": iso}


def _date_file(name: str, fmt: str, now_ns: int, zone: tzinfo | None,
               ctx: Context) -> ToolReturn:
    """GNU's -f FILE: one date per line; a bad line is reported and the rest go on."""
    f = open_input(ctx, name, InputStatus())
    if f is None:
        return 1
    try:
        data = f.read()
    except (FsError, OSError) as e:
        ctx.error(f"{name}: {e.reason if isinstance(e, FsError) else e.strerror}")
        return 1
    finally:
        if f is not ctx.stdin:
            f.close()
    status = 0
    texts: list[str] = []
    riches: list[dict[str, Any]] = []
    for raw in data.decode("utf-8", "surrogateescape").splitlines():
        try:
            ts, ns = parse_date(raw, now_ns, zone)
        except (BadDate, OverflowError, ValueError):
            ctx.error(f"invalid date '{raw}'")
            status = 1
            continue
        shown = _show(ts, ns, fmt, zone, ctx)
        if shown is None:
            status = 1
            continue
        if not ctx.json:
            ctx.write(shown[0])
        texts.append(shown[0])
        riches.append(shown[1])
    if status:
        return status
    if ctx.json:
        return Outcome(output=OutputData.text("".join(texts), rich_json=riches))
    return Outcome(output=OutputData.value(lambda: riches))

TOOLS = [date]
