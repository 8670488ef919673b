"""tr (GNU coreutils 9.1): translate, delete and squeeze bytes.

GNU tr works on bytes, and so does this one: the sets are expanded once into a
256-entry table, so the work per chunk is `bytes.translate` plus, for -s, one regex."""

from __future__ import annotations

from tysh.builtins._common.args import by_args
from tysh.builtins._common.lines import BIG, lines_json
from tysh.kernel.base.lazyre import DOTALL, compile_pattern
from tysh.kernel.base.record import Record, frozen, value_record
from tysh.kernel.text.literal import escape, lazy_bytes
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re


_CLASS = lazy_bytes(rb"\[:([a-z]+):\]")
_EQUIVALENT = lazy_bytes(rb"\[=(.)=\]", DOTALL)
_REPEAT = lazy_bytes(rb"\*(\d*)\]")


class SetError(Exception):
    pass


def _class_bytes() -> dict[str, list[int]]:
    rng = range(128)
    up = [c for c in rng if 65 <= c <= 90]
    lo = [c for c in rng if 97 <= c <= 122]
    dg = list(range(48, 58))
    graph = list(range(33, 127))
    alnum = sorted(up + lo + dg)
    return {
        "alnum": alnum,
        "alpha": sorted(up + lo),
        "blank": [9, 32],
        "cntrl": [*range(32), 127],
        "digit": dg,
        "graph": graph,
        "lower": lo,
        "print": list(range(32, 127)),
        "punct": [c for c in graph if c not in alnum],
        "space": [9, 10, 11, 12, 13, 32],
        "upper": up,
        "xdigit": sorted(dg + list(range(65, 71)) + list(range(97, 103))),
    }


CLASSES = _class_bytes()
_ESCAPES = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92}


def _unescape(text: str) -> list[int | tuple[str, str]]:
    """Bytes of a set with escapes resolved; `[:class:]`, `[=c=]` and `[c*n]` kept as
    markers. A marker is ("class", name), ("repeat", "c,n") or ("range", "-")."""
    raw = text.encode("utf-8", "surrogateescape")
    out: list[int | tuple[str, str]] = []
    i = 0
    n = len(raw)

    def one(j: int) -> tuple[int, int]:
        """The byte at j (escape-aware) and the index after it."""
        c = raw[j]
        if c != 92 or j + 1 >= n:
            return c, j + 1
        d = chr(raw[j + 1])
        if d in "01234567":
            k = j + 1
            v = 0
            while k < n and k < j + 4 and chr(raw[k]) in "01234567" and v * 8 + raw[k] - 48 < 256:
                v = v * 8 + raw[k] - 48
                k += 1
            return v, k
        return _ESCAPES.get(d, raw[j + 1]), j + 2

    while i < n:
        if raw[i] == 91:  # '['
            m = _CLASS.match(raw[i:])
            if m is not None:
                name = m.group(1).decode()
                if name not in CLASSES:
                    raise SetError(f"invalid character class '{name}'")
                out.append(("class", name))
                i += m.end()
                continue
            m = _EQUIVALENT.match(raw[i:])
            if m is not None:
                out.append(m.group(1)[0])
                i += m.end()
                continue
            if i + 1 < n:
                c, j = one(i + 1)
                m = _REPEAT.match(raw[j:])
                if m is not None:
                    digits = m.group(1).decode()
                    count = int(digits, 8 if digits.startswith("0") else 10) if digits else 0
                    out.append(("repeat", f"{c},{count}"))
                    i = j + m.end()
                    continue
        c, j = one(i)
        if raw[i] == 45 and out and j < n and not isinstance(out[-1], tuple):  # '-'
            out.append(("range", "-"))
            i = j
            continue
        out.append(c)
        i = j
    return out


def expand(
    text: str, allow_repeat: bool, limit: int = 1 << 20, case_starts: list[int] | None = None
) -> tuple[list[int], list[int]]:
    """A set's bytes in order, and the positions of `[c*]` fills (filled later).
    A `[c*n]` repeat is capped at `limit`: SET2 beyond SET1's length is never used.
    `case_starts` collects where each [:upper:] or [:lower:] begins."""
    items = _unescape(text)
    out: list[int] = []
    fills: list[int] = []
    k = 0
    while k < len(items):
        it = items[k]
        if isinstance(it, tuple):
            kind, val = it
            if kind == "class":
                if case_starts is not None and val in ("upper", "lower"):
                    case_starts.append(len(out))
                out.extend(CLASSES[val])
            elif kind == "repeat":
                if not allow_repeat:
                    raise SetError("the [c*] repeat construct may not appear in string1")
                c_s, n_s = val.split(",")
                if int(n_s) == 0:
                    fills.append(len(out))
                    out.append(int(c_s))
                else:
                    out.extend([int(c_s)] * min(int(n_s), limit))
            elif kind == "range":
                nxt = items[k + 1] if k + 1 < len(items) else None
                if isinstance(nxt, int):
                    lo = out[-1]
                    if nxt < lo:
                        raise SetError(
                            f"range-endpoints of '{chr(lo)}-{chr(nxt)}' are in reverse "
                            "collating sequence order"
                        )
                    out.extend(range(lo + 1, nxt + 1))
                    k += 2
                    continue
                out.append(45)
        else:
            out.append(it)
        k += 1
    return out, fills


@value_record
class TrArgs(Record):
    sets: tuple[str, ...] = param(positional=True, default=(), help="SET1 [SET2]")
    complement: bool = param(default=False, aliases=["-c", "-C"], help="use the complement of SET1")
    delete: bool = param(default=False, aliases=["-d"], help="delete characters in SET1")
    squeeze_repeats: bool = param(
        default=False, aliases=["-s"], help="replace each run of a repeated character by one"
    )
    truncate_set1: bool = param(
        default=False, aliases=["-t"], help="first truncate SET1 to the length of SET2"
    )


@frozen
class _Plan(Record):
    table: bytes | None
    delete: bytes
    squeeze: frozenset[int]
    squeeze_re: re.Pattern[bytes] | None


def _squeeze_re(members: list[int]) -> re.Pattern[bytes] | None:
    if not members:
        return None
    cls = b"".join(escape(bytes([b])) for b in sorted(set(members)))
    rx: re.Pattern[bytes] = compile_pattern(b"([" + cls + b"])\\1+")
    return rx


def _plan(a: TrArgs) -> _Plan | str:
    """The translation plan, or an error message."""
    sets = a.sets
    if not sets:
        return "missing operand"
    translating = not a.delete and not a.squeeze_repeats
    need = 2 if translating or (a.delete and a.squeeze_repeats) else 1
    if len(sets) < need:
        if translating:
            return f"missing operand after '{sets[0]}'\nTwo strings must be given when translating."
        return (f"missing operand after '{sets[0]}'\n"
                "Two strings must be given when both deleting and squeezing repeats.")
    maxn = 1 if a.delete and not a.squeeze_repeats else 2
    if len(sets) > maxn:
        extra = f"extra operand '{sets[maxn]}'"
        if maxn == 1:
            extra += "\nOnly one string may be given when deleting without squeezing repeats."
        return extra
    try:
        starts1: list[int] = []
        starts2: list[int] = []
        s1, _ = expand(sets[0], False, case_starts=starts1)
        s2, fills = expand(sets[1], True, len(s1) + 1, starts2) if len(sets) > 1 else ([], [])
    except SetError as e:
        return str(e)
    if len(sets) == 2 and not a.delete:
        classes2 = _classes(sets[1])
        if classes2 - {"upper", "lower"}:
            return ("when translating, the only character classes that may appear in\n"
                    "string2 are 'upper' and 'lower'")
        if fills:  # a [c*] fill before a class moves the class's start
            grow = max(len(s1) - (len(s2) - 1), 0) - 1
            starts2 = [p + grow if p > fills[0] else p for p in starts2]
        err = _translation_error(a, s1, s2, set(starts1), starts2)
        if err:
            return err
    if a.complement:
        present = set(s1)
        s1 = [b for b in range(256) if b not in present]
    table: bytes | None = None
    delete = b""
    squeeze: list[int] = []
    if a.delete:
        delete = bytes(sorted(set(s1)))
        if a.squeeze_repeats:
            squeeze = s2
    elif len(sets) == 2:
        if fills:
            pos = fills[0]
            fill = len(s1) - (len(s2) - 1)
            s2 = s2[:pos] + [s2[pos]] * max(fill, 0) + s2[pos + 1:]
        if a.truncate_set1:
            s1 = s1[: len(s2)]
        elif not s2 and s1:
            return "when not truncating set1, string2 must be non-empty"
        elif len(s2) < len(s1):
            s2 = s2 + [s2[-1]] * (len(s1) - len(s2))
        t = list(range(256))
        for x, y in zip(s1, s2, strict=False):
            t[x] = y
        table = bytes(t)
        if a.squeeze_repeats:
            squeeze = s2  # GNU squeezes every character of SET2, used or not
    else:
        squeeze = s1
    return _Plan(table, delete, frozenset(squeeze), _squeeze_re(squeeze))


def _translation_error(
    a: TrArgs, s1: list[int], s2: list[int], starts1: set[int],
    starts2: list[int],
) -> str:
    """GNU's checks of a translation, in its order: [:upper:]/[:lower:] in SET2 must
    start where one starts in SET1 (not checked under -c), a shorter SET2 may not end
    with a class, a complemented SET1 with classes needs one target character."""
    if not a.complement and any(p not in starts1 for p in starts2):
        return "misaligned [:upper:] and/or [:lower:] construct"
    len1 = 256 - len(set(s1)) if a.complement else len(s1)
    if not a.truncate_set1 and s2 and len1 > len(s2) and _ends_with_class(a.sets[1]):
        return ("when translating with string1 longer than string2,\n"
                "the latter string must not end with a character class")
    if a.complement and s2 and _classes(a.sets[0]) and len(set(s2)) > 1:
        return ("when translating with complemented character classes,\n"
                "string2 must map all characters in the domain to one")
    return ""


def _ends_with_class(text: str) -> bool:
    try:
        items = _unescape(text)
    except SetError:
        return False
    return bool(items) and isinstance(items[-1], tuple) and items[-1][0] == "class"


def _classes(text: str) -> set[str]:
    """The `[:class:]` names a set uses."""
    try:
        items = _unescape(text)
    except SetError:
        return set()
    return {it[1] for it in items if isinstance(it, tuple) and it[0] == "class"}


# (sets, options) → the plan or the error: a plan is immutable and costs far more to
# work out than a small input costs to translate (`… | tr a-z A-Z` in a loop)
_PLANS: dict[tuple[object, ...], _Plan | str] = {}


def _plan_of(a: TrArgs) -> _Plan | str:
    key = (a.sets, a.complement, a.delete, a.squeeze_repeats, a.truncate_set1)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _plan(a)
        if len(_PLANS) >= 256:
            _PLANS.clear()
        _PLANS[key] = plan
    return plan


# each args object's plan: its sets are looked up once
_plan_by_args = by_args(_plan_of)


def _tr_body(a: TrArgs, ctx: Context) -> int:
    plan = _plan_by_args(a)
    if isinstance(plan, str):
        ctx.error(plan)
        return 1
    out = ctx.stdout
    stdin = ctx.stdin
    read = getattr(stdin, "read1", None) or stdin.read  # (`chunks`, without a generator)
    if plan.squeeze_re is None:  # each chunk on its own: no squeeze carries across
        table, delete = plan.table, plan.delete
        while True:
            chunk = read(BIG)
            if not chunk:
                return 0
            if table is not None or delete:
                chunk = chunk.translate(table, delete)
                if not chunk:
                    continue
            out.write(chunk)
    last = -1
    while True:
        chunk = read(BIG)
        if not chunk:
            break
        if plan.table is not None or plan.delete:
            chunk = chunk.translate(plan.table, plan.delete)
        if plan.squeeze_re is not None and chunk:
            # each run becomes its one captured byte, as sub(rb"\1") would give; split
            # needs no template, which `re` would be imported to parse
            chunk = b"".join(plan.squeeze_re.split(chunk))
            if last in plan.squeeze and chunk[0] == last:
                chunk = chunk.lstrip(bytes([last]))
        if chunk:
            out.write(chunk)
            last = chunk[-1]
    return 0


def _tr_filter(a: TrArgs, data: bytes) -> bytes | None:
    """ToolFilter: `_tr_body` of an input it reads in one chunk (at most BIG)."""
    plan = _plan_by_args(a)
    if isinstance(plan, str) or len(data) > BIG:
        return None
    if plan.table is not None or plan.delete:
        data = data.translate(plan.table, plan.delete)
    if plan.squeeze_re is not None and data:
        data = b"".join(plan.squeeze_re.split(data))
    return data


@tool(
    "tr", kind="read",
    args=TrArgs,
    description="translate, squeeze or delete characters of standard input; --json gives an array of lines",
    examples=[
        ("upper-case", "tr a-z A-Z < notes.txt"),
        ("delete digits", "tr -d '[:digit:]'"),
        ("squeeze spaces", "tr -s ' '"),
        ("one word per line", "tr -cs '[:alnum:]' '\\n'"),
    ],
    # tr's operands are character sets, never file names: `tr [:upper:] [:lower:]`
    # unquoted must reach tr as typed, not fail as a glob matching nothing
    glob_passthrough=True,
    filter=_tr_filter,
)
def tr(args: TrArgs, ctx: Context) -> ToolReturn:
    return lines_json(ctx, _tr_body, args)


TOOLS = [tr]
