"""Date strings as GNU's parse-datetime reads them (`date -d`, `touch -d`, `find -newermt`):
calendar dates, times, zones, weekdays and relative items, in a given zone."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta, tzinfo

from tysh.builtins._common.fileinfo import named_zone
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import MutableRecord, mutable


class BadDate(ValueError):
    """A date string this parser does not understand."""


TYPE_CHECKING = False
if TYPE_CHECKING:
    import calendar
    import re
else:  # to read a date string in a named zone or at an offset: `date` and `-d @N` do not
    calendar = LazyModule(globals(), "calendar", "calendar")

def datetime_at(ts: int, zone: tzinfo | None) -> datetime:
    """The aware local time of epoch seconds `ts` in `zone` (None: the host's zone)."""
    return datetime.fromtimestamp(ts, zone) if zone else datetime.fromtimestamp(ts).astimezone()


def _epoch_of_wall(wall: datetime, zone: tzinfo | None) -> int:
    """Seconds since the epoch of a naive wall-clock time in `zone`."""
    if zone is not None:
        return calendar.timegm(wall.replace(tzinfo=zone).utctimetuple())
    return int(time.mktime(wall.timetuple()))


# A token walk over GNU parse-datetime's items: calendar dates (ISO, M/D[/Y], Y/M/D,
# D MONTH [Y], MONTH D[,] [Y], D-MON-Y, YYYYMMDD), times (H:M[:S[.F]] [am|pm] [±zone],
# H am|pm), zones (UTC/GMT/Z and the common US/European names, `UTC+3`), weekdays with
# an ordinal, relative items (`[±N|next|last|this] UNIT [ago]`, now/today/yesterday/
# tomorrow) and bare numbers (GNU's rule: a year after a date, YYYYMMDD, else HHMM).

_UNIT_SECONDS = {"sec": 1, "second": 1, "min": 60, "minute": 60, "hour": 3600}
_UNIT_DAYS = {"day": 1, "week": 7, "fortnight": 14}
_UNIT_MONTHS = {"month": 1, "year": 12}
_ORDINALS = {"last": -1, "this": 0, "next": 1, "first": 1, "third": 3, "fourth": 4,
             "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
             "eleventh": 11, "twelfth": 12}
_ZONES = {"utc": 0, "ut": 0, "gmt": 0, "z": 0, "wet": 0, "west": 1, "bst": 1, "cet": 1,
          "cest": 2, "met": 1, "mest": 2, "eet": 2, "eest": 3, "msk": 3, "ist": 5.5,
          "jst": 9, "kst": 9, "hkt": 8, "sgt": 8, "aest": 10, "aedt": 11, "nzst": 12,
          "nzdt": 13, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6,
          "pst": -8, "pdt": -7, "akst": -9, "akdt": -8, "hst": -10, "ast": -4, "adt": -3}
_WEEKDAYS = {"mon": 0, "monday": 0, "tue": 1, "tues": 1, "tuesday": 1, "wed": 2,
             "wednes": 2, "wednesday": 2, "thu": 3, "thur": 3, "thurs": 3, "thursday": 3,
             "fri": 4, "friday": 4, "sat": 5, "saturday": 5, "sun": 6, "sunday": 6}
_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august",
                "september", "october", "november", "december")
_MONTH_WORDS = {**{m[:3]: i + 1 for i, m in enumerate(_MONTH_NAMES)},
                **{m: i + 1 for i, m in enumerate(_MONTH_NAMES)}, "sept": 9}
_TOKEN = LazyRegex(r"\s*(?:([+-]\s*\d+|\d+)([.,]\d+)?|(a\.?m\.?|p\.?m\.?)(?![a-z])|"
                    r"([a-z]+)\.?|(\S))")


@mutable
class _Tok(MutableRecord):
    """One lexeme: a number (`num`, with its sign shown in `signed`), a word, or a mark."""

    kind: str  # "num", "word", "mark"
    text: str
    num: int = 0
    digits: int = 0
    signed: bool = False
    frac: str = ""


def _tokens(s: str) -> list[_Tok]:
    out: list[_Tok] = []
    pos = 0
    while pos < len(s):
        m = _TOKEN.match(s, pos)
        if not m or m.end() == pos:
            break
        pos = m.end()
        if m[1] is not None:
            text = m[1].replace(" ", "")
            digits = text.lstrip("+-")
            out.append(_Tok("num", text, int(text), len(digits), text[0] in "+-",
                            (m[2] or "")[1:]))
        elif m[3] is not None:
            out.append(_Tok("word", "am" if m[3][0] == "a" else "pm"))
        elif m[4] is not None:
            out.append(_Tok("word", m[4]))
        elif m[5] not in "+-":  # GNU skips a sign that no digit follows
            out.append(_Tok("mark", m[5]))
    return out


@mutable
class _Parsed(MutableRecord):
    """What the items said; None where an item was absent (GNU's *_seen counts)."""

    year: tuple[int, int] | None = None  # (value, digits)
    month: int | None = None
    day: int | None = None
    dates: int = 0
    time: tuple[int, int, int, int] | None = None  # h, m, s, ns
    times: int = 0
    zone: int | None = None  # seconds east of UTC
    zones: int = 0
    weekday: tuple[int, int] | None = None  # (ordinal, day)
    days: int = 0
    rel_months: int = 0
    rel_days: int = 0
    rel_seconds: int = 0
    rels: int = 0


def _meridian(h: int, word: str) -> int:
    if not 1 <= h <= 12:
        raise BadDate(word)
    return (h % 12) + (12 if word == "pm" else 0)


def _zone_offset(tok: _Tok, minutes: _Tok | None) -> int:
    """GNU's ±HH, ±HHMM or ±HH:MM."""
    v = abs(tok.num)
    if minutes is not None:
        h, mi = v, minutes.num
    elif tok.digits <= 2:
        h, mi = v, 0
    else:
        h, mi = divmod(v, 100)
    if h > 24 or mi > 59:
        raise BadDate(tok.text)
    return (-1 if tok.num < 0 else 1) * (h * 3600 + mi * 60)


def _items(toks: list[_Tok]) -> _Parsed:  # noqa: C901, PLR0912, PLR0915 - one grammar
    p = _Parsed()
    i, n = 0, len(toks)

    def at(k: int, kind: str, text: str | None = None) -> bool:
        return k < n and toks[k].kind == kind and (text is None or toks[k].text == text)

    def set_date(y: tuple[int, int] | None, mo: int, d: int) -> None:
        p.dates += 1
        p.year, p.month, p.day = (y if y is not None else p.year), mo, d

    def rel(count: int, unit: str) -> None:
        p.rels += 1
        if unit in _UNIT_SECONDS:
            p.rel_seconds += count * _UNIT_SECONDS[unit]
        elif unit in _UNIT_DAYS:
            p.rel_days += count * _UNIT_DAYS[unit]
        else:
            p.rel_months += count * _UNIT_MONTHS[unit]

    def unit_at(k: int) -> str | None:
        if not at(k, "word"):
            return None
        w = toks[k].text
        base = w[:-1] if w.endswith("s") and w[:-1] in (*_UNIT_SECONDS, *_UNIT_DAYS,
                                                         *_UNIT_MONTHS) else w
        return base if base in (*_UNIT_SECONDS, *_UNIT_DAYS, *_UNIT_MONTHS) else None

    def ago(k: int) -> tuple[int, int]:
        return (-1, k + 1) if at(k, "word", "ago") else (1, k)

    while i < n:
        t = toks[i]
        if t.kind == "mark" and t.text == ",":
            i += 1
            continue
        if t.kind == "num" and not t.signed and at(i + 1, "mark", ":") and at(i + 2, "num"):
            h, mi, se, ns = t.num, toks[i + 2].num, 0, 0
            if toks[i + 2].signed:
                raise BadDate(t.text)
            i += 3
            if at(i, "mark", ":") and at(i + 1, "num") and not toks[i + 1].signed:
                se, ns = toks[i + 1].num, int(toks[i + 1].frac[:9].ljust(9, "0") or 0)
                i += 2
            if at(i, "word") and toks[i].text in ("am", "pm"):
                h = _meridian(h, toks[i].text)
                i += 1
            elif at(i, "num") and toks[i].signed:
                minutes = None
                if at(i + 1, "mark", ":") and at(i + 2, "num"):
                    minutes = toks[i + 2]
                p.zone = _zone_offset(toks[i], minutes)
                p.zones += 1
                i += 3 if minutes is not None else 1
            if h > 23 or mi > 59 or se > 59:
                raise BadDate(t.text)
            p.time = (h, mi, se, ns)
            p.times += 1
            continue
        if t.kind == "num" and not t.signed and at(i + 1, "mark", "/") and at(i + 2, "num"):
            a, b = t, toks[i + 2]
            if at(i + 3, "mark", "/") and at(i + 4, "num"):
                c = toks[i + 4]
                if a.digits >= 3:
                    set_date((a.num, a.digits), b.num, c.num)
                else:
                    set_date((c.num, c.digits), a.num, b.num)
                i += 5
            else:
                set_date(None, a.num, b.num)
                i += 3
            continue
        if (t.kind == "num" and not t.signed and at(i + 1, "num") and at(i + 2, "num")
                and toks[i + 1].text[0] == "-" and toks[i + 2].text[0] == "-"):
            set_date((t.num, t.digits), -toks[i + 1].num, -toks[i + 2].num)
            i += 3
            continue
        if t.kind == "num" and not t.signed and at(i + 1, "word") \
                and toks[i + 1].text in _MONTH_WORDS:
            mo = _MONTH_WORDS[toks[i + 1].text]
            i += 2
            if at(i, "num") and toks[i].text[0] == "-":  # 14-nov-2023 (the dash before nov)
                set_date((-toks[i].num, toks[i].digits), mo, t.num)
                i += 1
            elif at(i, "num") and not toks[i].signed and not at(i + 1, "mark", ":"):
                set_date((toks[i].num, toks[i].digits), mo, t.num)
                i += 1
            else:
                set_date(None, mo, t.num)
            continue
        if t.kind == "word" and t.text in _MONTH_WORDS:
            mo = _MONTH_WORDS[t.text]
            if at(i + 1, "num") and toks[i + 1].text[0] == "-" and at(i + 2, "num") \
                    and toks[i + 2].text[0] == "-":  # jan-05-2020
                set_date((-toks[i + 2].num, toks[i + 2].digits), mo, -toks[i + 1].num)
                i += 3
                continue
            if not (at(i + 1, "num") and not toks[i + 1].signed):
                raise BadDate(t.text)
            d = toks[i + 1].num
            i += 2
            if at(i, "mark", ",") and at(i + 1, "num") and not toks[i + 1].signed:
                set_date((toks[i + 1].num, toks[i + 1].digits), mo, d)
                i += 2
            else:
                set_date(None, mo, d)
            continue
        if t.kind == "num" and not t.signed and at(i + 1, "word") \
                and toks[i + 1].text in ("am", "pm"):
            p.time = (_meridian(t.num, toks[i + 1].text), 0, 0, 0)
            p.times += 1
            i += 2
            continue
        if t.kind == "word" and t.text in _ZONES:
            p.zone = int(_ZONES[t.text] * 3600)
            p.zones += 1
            i += 1
            if at(i, "num") and toks[i].signed and unit_at(i + 1) is None:
                minutes = toks[i + 2] if at(i + 1, "mark", ":") and at(i + 2, "num") else None
                p.zone += _zone_offset(toks[i], minutes)
                i += 3 if minutes is not None else 1
            continue
        if t.kind == "word" and t.text in _WEEKDAYS:
            p.weekday = (0, _WEEKDAYS[t.text])
            p.days += 1
            i += 1
            continue
        count: int | None = None
        if t.kind == "word" and t.text in _ORDINALS:
            count = _ORDINALS[t.text]
        elif t.kind == "num" and not t.frac and (unit_at(i + 1) or at(i + 1, "word")
                                                 and toks[i + 1].text in _WEEKDAYS):
            count = t.num
        if count is not None and at(i + 1, "word") and toks[i + 1].text in _WEEKDAYS:
            p.weekday = (count, _WEEKDAYS[toks[i + 1].text])
            p.days += 1
            i += 2
            continue
        unit = unit_at(i + 1)
        if count is not None and unit is not None:
            sign, i = ago(i + 2)
            rel(sign * count, unit)
            continue
        if unit_at(i):
            sign, k = ago(i + 1)
            rel(sign, str(unit_at(i)))
            i = k
            continue
        if t.kind == "word" and t.text in ("now", "today", "yesterday", "tomorrow"):
            sign, k = ago(i + 1)
            rel(sign * {"now": 0, "today": 0, "yesterday": -1, "tomorrow": 1}[t.text], "day")
            i = k
            continue
        if t.kind == "num" and not t.signed and not t.frac:
            if p.dates and p.year is None and not p.rels and (p.times or t.digits > 2):
                p.year = (t.num, t.digits)
            elif t.digits > 4:
                set_date((t.num // 10000, t.digits - 4), t.num // 100 % 100, t.num % 100)
            else:
                h, mi = (t.num, 0) if t.digits <= 2 else divmod(t.num, 100)
                if h > 23 or mi > 59:
                    raise BadDate(t.text)
                p.time = (h, mi, 0, 0)
                p.times += 1
            i += 1
            continue
        raise BadDate(t.text)
    if p.dates > 1 or p.times > 1 or p.zones > 1 or p.days > 1:
        raise BadDate("repeated item")
    return p



_TZ_PREFIX = LazyRegex(r'TZ="([^"]*)"\s*')
_EPOCH = LazyRegex(r"@([+-]?\d+)(?:[.,](\d{1,9})\d*)?")
_ISO_T = LazyRegex(r"(\d)t(\d)")


def _spaced(m: re.Match[str]) -> str:
    # (a function, not the template r"\1 \2": `_sre` hands a template to `re` to parse)
    return f"{m[1]} {m[2]}"

def parse_date(text: str, now_ns: int, zone: tzinfo | None) -> tuple[int, int]:
    """(epoch seconds, nanoseconds) for a date string read in `zone` (None: the host's)
    at `now_ns`; BadDate for what it cannot read."""
    s = " ".join(text.split())
    tz = _TZ_PREFIX.match(s)
    if tz:  # GNU: the string names its own zone
        zone = named_zone(tz[1]) if tz[1] else UTC
        if zone is None:
            raise BadDate(text)
        s = s[tz.end():]
    s = s.lower()
    if s.startswith("@"):
        m = _EPOCH.fullmatch(s)
        if not m:
            raise BadDate(text)
        frac = int((m.group(2) or "0").ljust(9, "0"))
        secs = int(m.group(1))
        if m.group(1).startswith("-") and frac:
            secs, frac = secs - 1, 1_000_000_000 - frac
        return secs, frac
    s = _ISO_T.sub(_spaced, s)  # ISO 8601's T between the date and the time
    p = _items(_tokens(s))
    now_s, now_frac = divmod(now_ns, 1_000_000_000)
    now = datetime_at(now_s, zone).replace(tzinfo=None)
    year, month, day = now.year, now.month, now.day
    if p.dates:
        assert p.month is not None and p.day is not None
        month, day = p.month, p.day
        if p.year is not None:
            year, digits = p.year
            if digits == 2:
                year += 2000 if year < 69 else 1900
    if p.time is not None:
        hh, mi, ss, ns = p.time
    elif p.rels and not p.dates and not p.weekday:
        hh, mi, ss, ns = now.hour, now.minute, now.second, now_frac
    else:
        hh = mi = ss = ns = 0
    try:
        return _resolve(p, datetime(year, month, day, hh, mi, ss), ns, zone)
    except (ValueError, OverflowError):
        # a year or an offset past what a calendar holds
        raise BadDate(text) from None


def _resolve(p: _Parsed, wall: datetime, ns: int, zone: tzinfo | None) -> tuple[int, int]:
    """The parsed date's weekday and relative items applied to its wall time."""
    if p.weekday is not None and not p.dates:
        ordinal, target = p.weekday
        wd = wall.weekday()
        delta = (target - wd) % 7 + 7 * (ordinal - (1 if ordinal > 0 and wd != target else 0))
        wall += timedelta(days=delta)
    if p.rel_months:
        total = wall.year * 12 + wall.month - 1 + p.rel_months
        y, mo = divmod(total, 12)
        # GNU normalises an overflowing day (Jan 31 + 1 month = Mar 2/3), as mktime does
        wall = wall.replace(year=y, month=mo + 1, day=1) + timedelta(days=wall.day - 1)
    wall += timedelta(days=p.rel_days)
    seconds = p.rel_seconds
    if p.zone is not None:
        return calendar.timegm(wall.timetuple()) - p.zone + seconds, ns
    return _epoch_of_wall(wall, zone) + seconds, ns


