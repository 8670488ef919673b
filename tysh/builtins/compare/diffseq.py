"""The line-matching core of diff, following GNU diffutils step for step so that the
hunks it finds are the ones GNU prints (a minimal diff is not unique; GNU's choice among
equal-cost ones comes from its algorithm).

The steps, each named after its GNU counterpart:
- `_window`: find_identical_ends — the common prefix and suffix lines are set aside,
  keeping `horizon` lines of each (the context width) inside the analysed window;
- `_discard`: discard_confusing_lines — lines with no match in the other file are
  changes for sure and leave the comparison; very common lines are provisionally
  discarded inside runs of such lines;
- `_Seq.compare` / `_Seq.diag`: compareseq and diag, Myers' O(ND) search for the middle
  snake from both ends (without GNU's too-expensive heuristic, so always minimal);
- `_shift`: shift_boundaries — slide each run of changes to merge with neighbours and to
  line up with a run of changes in the other file;
- `_script`: build_script — the changed-line flags as (line0, line1, deleted, inserted)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


Change = tuple[int, int, int, int]  # line0, line1, deleted, inserted (0-based starts)


def diff_changes(a: Sequence[bytes], b: Sequence[bytes], ka: Sequence[object],
                 kb: Sequence[object], horizon: int = 0) -> list[Change]:
    """The changes turning `a` into `b`: raw lines `a`/`b` decide the identical ends,
    comparison keys `ka`/`kb` (the lines as -i/-w/-b see them) decide equality."""
    lo, sa, sb = _window(a, b, horizon)
    ea_end, eb_end = len(a) - sa, len(b) - sb
    classes: dict[object, int] = {}
    eq0 = [classes.setdefault(k, len(classes) + 1) for k in ka[lo:ea_end]]
    eq1 = [classes.setdefault(k, len(classes) + 1) for k in kb[lo:eb_end]]
    ch0 = bytearray(len(eq0) + 2)  # changed flags with a 0 sentinel at each end
    ch1 = bytearray(len(eq1) + 2)
    un0, real0, un1, real1 = _discard(eq0, eq1, ch0, ch1, len(classes) + 1)
    _Seq(un0, un1, real0, real1, ch0, ch1).compare(0, len(un0), 0, len(un1))
    _shift(eq0, ch0, ch1)
    _shift(eq1, ch1, ch0)
    return [(l0 + lo, l1 + lo, d, i) for l0, l1, d, i in _script(ch0, ch1, len(eq0), len(eq1))]


def _window(a: Sequence[bytes], b: Sequence[bytes], horizon: int) -> tuple[int, int, int]:
    """(first analysed line, lines of a set aside at the end, of b at the end)."""
    n = min(len(a), len(b))
    p = 0
    while p < n and a[p] == b[p]:
        p += 1
    s = 0
    while s < n - p and a[-1 - s] == b[-1 - s]:
        s += 1
    keep_s = max(0, s - horizon)
    return max(0, p - horizon), keep_s, keep_s


def _discard(eq0: list[int], eq1: list[int], ch0: bytearray, ch1: bytearray,
             nclasses: int) -> tuple[list[int], list[int], list[int], list[int]]:
    counts = ([0] * nclasses, [0] * nclasses)
    for e in eq0:
        counts[0][e] += 1
    for e in eq1:
        counts[1][e] += 1
    marks: list[bytearray] = []
    for f, eqs in enumerate((eq0, eq1)):
        other = counts[1 - f]
        many = 5
        tem = len(eqs) // 64
        tem >>= 2
        while tem > 0:
            many *= 2
            tem >>= 2
        d = bytearray(len(eqs))
        for i, e in enumerate(eqs):
            nm = other[e]
            if nm == 0:
                d[i] = 1
            elif nm > many:
                d[i] = 2
        _settle(d)
        marks.append(d)
    out: list[list[int]] = []
    for eqs, d, ch in ((eq0, marks[0], ch0), (eq1, marks[1], ch1)):
        un: list[int] = []
        real: list[int] = []
        for i, e in enumerate(eqs):
            if d[i] == 0:
                un.append(e)
                real.append(i)
            else:
                ch[i + 1] = 1
        out += [un, real]
    return out[0], out[1], out[2], out[3]


def _settle(d: bytearray) -> None:
    """Keep a provisional discard (2) only inside a run of discards, GNU's rules."""
    end = len(d)
    i = 0
    while i < end:
        if d[i] == 2:
            d[i] = 0
        elif d[i] != 0:
            provisional = 0
            j = i
            while j < end and d[j] != 0:
                if d[j] == 2:
                    provisional += 1
                j += 1
            while j > i and d[j - 1] == 2:
                j -= 1
                d[j] = 0
                provisional -= 1
            length = j - i
            if provisional * 4 > length:
                while j > i:
                    j -= 1
                    if d[j] == 2:
                        d[j] = 0
            else:
                minimum = 1
                tem = length >> 2
                tem >>= 2
                while tem > 0:
                    minimum <<= 1
                    tem >>= 2
                minimum += 1
                j = consec = 0
                while j < length:
                    if d[i + j] != 2:
                        consec = 0
                    else:
                        consec += 1
                        if consec == minimum:
                            j -= consec
                        elif consec > minimum:
                            d[i + j] = 0
                    j += 1
                _trim_edge(d, i, length, 1)
                i += length - 1
                _trim_edge(d, i, length, -1)
        i += 1


def _trim_edge(d: bytearray, i: int, length: int, step: int) -> None:
    consec = 0
    for j in range(length):
        k = i + j * step
        if j >= 8 and d[k] == 1:
            break
        if d[k] == 2:
            consec = 0
            d[k] = 0
        elif d[k] == 0:
            consec = 0
        else:
            consec += 1
        if consec == 3:
            break


class _Seq:
    """compareseq/diag over the undiscarded lines, marking changes in ch0/ch1."""

    def __init__(self, xv: list[int], yv: list[int], rx: list[int], ry: list[int],
                 ch0: bytearray, ch1: bytearray) -> None:
        self.xv, self.yv, self.rx, self.ry = xv, yv, rx, ry
        self.ch0, self.ch1 = ch0, ch1
        size = len(xv) + len(yv) + 3
        self.off = len(yv) + 1
        self.fd = [0] * size
        self.bd = [0] * size

    def compare(self, xoff: int, xlim: int, yoff: int, ylim: int) -> None:
        xv, yv = self.xv, self.yv
        stack = [(xoff, xlim, yoff, ylim)]
        while stack:
            xoff, xlim, yoff, ylim = stack.pop()
            while xoff < xlim and yoff < ylim and xv[xoff] == yv[yoff]:
                xoff += 1
                yoff += 1
            while xoff < xlim and yoff < ylim and xv[xlim - 1] == yv[ylim - 1]:
                xlim -= 1
                ylim -= 1
            if xoff == xlim:
                for y in range(yoff, ylim):
                    self.ch1[self.ry[y] + 1] = 1
            elif yoff == ylim:
                for x in range(xoff, xlim):
                    self.ch0[self.rx[x] + 1] = 1
            else:
                xmid, ymid = self.diag(xoff, xlim, yoff, ylim)
                stack.append((xmid, xlim, ymid, ylim))
                stack.append((xoff, xmid, yoff, ymid))

    def diag(self, xoff: int, xlim: int, yoff: int, ylim: int) -> tuple[int, int]:
        fd, bd, xv, yv, o = self.fd, self.bd, self.xv, self.yv, self.off
        dmin, dmax = xoff - ylim, xlim - yoff
        fmid, bmid = xoff - yoff, xlim - ylim
        fmin = fmax = fmid
        bmin = bmax = bmid
        odd = (fmid - bmid) & 1
        fd[fmid + o] = xoff
        bd[bmid + o] = xlim
        big = 1 << 62
        while True:
            if fmin > dmin:
                fmin -= 1
                fd[fmin - 1 + o] = -1
            else:
                fmin += 1
            if fmax < dmax:
                fmax += 1
                fd[fmax + 1 + o] = -1
            else:
                fmax -= 1
            for d in range(fmax, fmin - 1, -2):
                tlo, thi = fd[d - 1 + o], fd[d + 1 + o]
                x = thi if tlo < thi else tlo + 1
                y = x - d
                while x < xlim and y < ylim and xv[x] == yv[y]:
                    x += 1
                    y += 1
                fd[d + o] = x
                if odd and bmin <= d <= bmax and bd[d + o] <= x:
                    return x, y
            if bmin > dmin:
                bmin -= 1
                bd[bmin - 1 + o] = big
            else:
                bmin += 1
            if bmax < dmax:
                bmax += 1
                bd[bmax + 1 + o] = big
            else:
                bmax -= 1
            for d in range(bmax, bmin - 1, -2):
                tlo, thi = bd[d - 1 + o], bd[d + 1 + o]
                x = tlo if tlo < thi else thi - 1
                y = x - d
                while xoff < x and yoff < y and xv[x - 1] == yv[y - 1]:
                    x -= 1
                    y -= 1
                bd[d + o] = x
                if not odd and fmin <= d <= fmax and x <= fd[d + o]:
                    return x, y


def _shift(eqs: list[int], ch: bytearray, other: bytearray) -> None:
    """shift_boundaries for one file; `ch`/`other` are offset by one (sentinels)."""
    i_end = len(eqs)
    i = j = 0
    while True:
        while i < i_end and not ch[i + 1]:
            while other[j + 1]:
                j += 1
            j += 1
            i += 1
        if i == i_end:
            break
        start = i
        i += 1
        while ch[i + 1]:
            i += 1
        while other[j + 1]:
            j += 1
        while True:
            runlength = i - start
            while start and eqs[start - 1] == eqs[i - 1]:
                start -= 1
                ch[start + 1] = 1
                i -= 1
                ch[i + 1] = 0
                while ch[start]:
                    start -= 1
                j -= 1
                while other[j + 1]:
                    j -= 1
            corresponding = i if other[j] else i_end
            while i != i_end and eqs[start] == eqs[i]:
                ch[start + 1] = 0
                start += 1
                ch[i + 1] = 1
                i += 1
                while ch[i + 1]:
                    i += 1
                j += 1
                while other[j + 1]:
                    j += 1
                    corresponding = i
            if runlength == i - start:
                break
        while corresponding < i:
            start -= 1
            ch[start + 1] = 1
            i -= 1
            ch[i + 1] = 0
            j -= 1
            while other[j + 1]:
                j -= 1


def _script(ch0: bytearray, ch1: bytearray, n0: int, n1: int) -> list[Change]:
    out: list[Change] = []
    i0 = i1 = 0
    while i0 < n0 or i1 < n1:
        if ch0[i0 + 1] or ch1[i1 + 1]:
            l0, l1 = i0, i1
            while ch0[i0 + 1]:
                i0 += 1
            while ch1[i1 + 1]:
                i1 += 1
            out.append((l0, l1, i0 - l0, i1 - l1))
        i0 += 1
        i1 += 1
    return out
