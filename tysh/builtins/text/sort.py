"""sort (GNU coreutils 9.1, LC_ALL=C.UTF-8 so text compares by code point = byte order).

All inputs are read, split into lines and sorted with `list.sort` and a key built once
(sort_keys); the plain case sorts the byte strings themselves."""

from __future__ import annotations

import hashlib
import heapq
import itertools
import os
from collections.abc import Callable
from typing import Any

import attrs

from tysh.builtins._common.lines import lines_json, read_all
from tysh.builtins._common.operands import (
    InputStatus,
    iter_inputs,
    open_output,
    rewrites_input,
)
from tysh.builtins.text.sort_keys import (
    KeyOpts,
    KeySpec,
    SortKeyError,
    bytes_key,
    check_compatible,
    key_letters,
    key_passes,
    make_converter,
    make_sort_key,
    numeric_value,
    numeric_values,
    parse_key,
)
from tysh.kernel.base.record import Record
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import ToolReturn, tool


@attrs.frozen(repr=False, eq=False)
class SortArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="files to sort; - is stdin")
    numeric_sort: bool = param(default=False, aliases=["-n"], help="compare by numeric value")
    general_numeric_sort: bool = param(
        default=False, aliases=["-g"], help="compare as floating point numbers (1e3, inf, nan)"
    )
    human_numeric_sort: bool = param(
        default=False, aliases=["-h"], help="compare human-readable sizes (2K, 1G)"
    )
    version_sort: bool = param(default=False, aliases=["-V"], help="natural sort of version numbers")
    month_sort: bool = param(default=False, aliases=["-M"], help="compare month names (JAN < DEC)")
    reverse: bool = param(default=False, aliases=["-r"], help="reverse the result")
    unique: bool = param(default=False, aliases=["-u"], help="output only the first of equal lines")
    ignore_case: bool = param(default=False, aliases=["-f"], help="fold lower case to upper case")
    ignore_leading_blanks: bool = param(default=False, aliases=["-b"], help="ignore leading blanks")
    dictionary_order: bool = param(
        default=False, aliases=["-d"], help="consider only blanks and alphanumerics"
    )
    ignore_nonprinting: bool = param(
        default=False, aliases=["-i"], help="consider only printable characters"
    )
    stable: bool = param(
        default=False, aliases=["-s"], help="keep input order of equal lines (no last-resort compare)"
    )
    field_separator: str | None = param(
        default=None, aliases=["-t"], help="fields are separated by this character"
    )
    key: tuple[str, ...] = param(
        default=(), aliases=["-k"], help="sort by a key: F[.C][OPTS][,F[.C][OPTS]]; repeatable"
    )
    output: str | None = param(default=None, aliases=["-o"], help="write the result to FILE")
    merge: bool = param(
        default=False, aliases=["-m"], help="merge already sorted files; do not sort"
    )
    random_sort: bool = param(
        default=False, aliases=["-R"], help="shuffle, but group identical keys"
    )
    check: bool = param(default=False, aliases=["-c"], help="check whether input is sorted")
    check_quiet: bool = param(default=False, aliases=["-C"], help="like -c, but report nothing")
    zero_terminated: bool = param(default=False, aliases=["-z"], help="lines end with NUL")
    buffer_size: str | None = param(default=None, aliases=["-S"], help="accepted and ignored")
    temporary_directory: str | None = param(
        default=None, aliases=["-T"], help="accepted and ignored"
    )
    parallel: int | None = param(default=None, help="accepted and ignored")


def _global_letters(a: SortArgs) -> str:
    """The global ordering options as -k letters, for GNU's compatibility check."""
    return "".join(c for flag, c in (
        (a.ignore_leading_blanks, "b"), (a.dictionary_order, "d"), (a.ignore_case, "f"),
        (a.general_numeric_sort, "g"), (a.human_numeric_sort, "h"), (a.ignore_nonprinting, "i"),
        (a.month_sort, "M"), (a.numeric_sort, "n"), (a.random_sort, "R"), (a.reverse, "r"),
        (a.version_sort, "V"),
    ) if flag)


def _global_opts(a: SortArgs) -> KeyOpts:
    letters = _global_letters(a)
    if not a.key:
        check_compatible(letters)
    for spec in a.key:
        check_compatible(key_letters(spec) or letters)
    kind = next((c for c in letters if c in "nghMV"), "")
    return KeyOpts(
        kind=kind,
        fold=a.ignore_case,
        dictionary=a.dictionary_order,
        nonprinting=a.ignore_nonprinting,
        reverse=a.reverse,
        skip_start_blanks=a.ignore_leading_blanks,
        skip_end_blanks=a.ignore_leading_blanks,
    )


def _tab(sep: str | None) -> bytes | None:
    if sep is None:
        return None
    if sep == "\\0":
        return b"\0"
    raw = sep.encode("utf-8", "surrogateescape")
    if len(sep) != 1:
        raise SortKeyError(f"multi-character tab '{sep}'")
    return raw


@attrs.frozen(repr=False, eq=False)
class _Plan(Record):
    """How to order lines: a key function (None: the bytes themselves), the direction,
    and the key that defines equality for -u and -c."""

    key: Callable[[bytes], Any] | None
    reverse: bool
    eq_key: Callable[[bytes], Any] | None
    # the keys as one bytes string, when they allow it (text keys in the sort's direction)
    bkey: Callable[[bytes], bytes] | None = None
    last_resort: bool = True
    passes: tuple[tuple[Callable[[bytes], Any], bool], ...] = ()


def _plan(a: SortArgs) -> _Plan:
    gopts = _global_opts(a)
    tab = _tab(a.field_separator)
    keys: list[KeySpec] = [parse_key(k, gopts) for k in a.key]
    rev = a.reverse
    last_resort = not (a.stable or a.unique)
    if not keys:
        whole = attrs.evolve(gopts, reverse=rev)
        if whole == KeyOpts(reverse=rev):
            return _Plan(None, rev, None)
        keys = [KeySpec(0, 0, None, 0, whole)]
    if len(keys) == 1 and keys[0].start_field == 0 and keys[0].start_char == 0 \
            and keys[0].end_field is None and not keys[0].opts.skip_start_blanks \
            and keys[0].opts.reverse == rev:
        conv = make_converter(keys[0].opts)
        if conv is None:
            return _Plan(None, rev, None)
        c = conv
        key = (lambda line: (c(line), line)) if last_resort else c
        return _Plan(key, rev, c, bytes_key(keys, tab, rev), last_resort, ((c, rev),))
    return _Plan(
        make_sort_key(keys, tab, rev, last_resort), rev, make_sort_key(keys, tab, rev, False),
        bytes_key(keys, tab, rev), last_resort, tuple(key_passes(keys, tab)),
    )


def _read_inputs(
    ctx: Context, files: tuple[str, ...], sep: bytes
) -> tuple[list[list[bytes]], bool, bool]:
    """The lines of each input, whether an input failed, and whether any holds a NUL."""
    status = InputStatus()
    inputs: list[list[bytes]] = []
    has_nul = False
    for _name, f in iter_inputs(ctx, files, status):
        data = read_all(f)
        if not data:
            continue
        has_nul = has_nul or b"\0" in data
        part = data.split(sep)
        if part[-1] == b"":
            part.pop()
        inputs.append(part)
    return inputs, status.failed, has_nul


def _merge(inputs: list[list[bytes]], plan: _Plan) -> list[bytes]:
    """-m: interleave the inputs as GNU does, taking the earlier input on ties, without
    sorting within an input (unsorted input stays out of order, as with GNU)."""
    return list(heapq.merge(*inputs, key=plan.key, reverse=plan.reverse))


def _shuffle(lines: list[bytes], plan: _Plan) -> None:
    """-R: order by a salted hash of each line's key, so equal keys stay together."""
    salt = os.urandom(16)
    eq = plan.eq_key or (lambda b: b)

    def digest(line: bytes) -> bytes:
        k = eq(line)
        raw = k if isinstance(k, bytes) else repr(k).encode("utf-8", "surrogateescape")
        return hashlib.blake2b(raw, digest_size=8, key=salt).digest()

    if plan.last_resort:
        lines.sort(key=lambda line: (digest(line), line))
    else:
        lines.sort(key=digest)


def _unique(lines: list[bytes], eq_key: Callable[[bytes], Any] | None) -> list[bytes]:
    out: list[bytes] = []
    prev: Any = object()
    for line in lines:
        k = eq_key(line) if eq_key is not None else line
        if k != prev:
            out.append(line)
            prev = k
    return out


def _check(ctx: Context, a: SortArgs, plan: _Plan, lines: list[bytes], name: str) -> int:
    key = plan.key or (lambda b: b)
    eq = plan.eq_key or (lambda b: b)
    for i in range(1, len(lines)):
        x, y = key(lines[i - 1]), key(lines[i])
        bad = (y > x) if plan.reverse else (y < x)
        if not bad and a.unique and eq(lines[i - 1]) == eq(lines[i]):
            bad = True
        if bad:
            if not a.check_quiet:
                text = lines[i].decode("utf-8", "surrogateescape")
                ctx.error(f"{name}:{i + 1}: disorder: {text}")
            return 1
    return 0


def _order(lines: list[bytes], plan: _Plan, has_nul: bool) -> None:
    """Sort in place. Text keys go through one bytes string per line (`key NUL line`,
    compared in C) when no line holds a NUL; otherwise through the tuple key."""
    if plan.key is None:
        lines.sort(reverse=plan.reverse)
        return
    bk = plan.bkey
    if bk is not None and not plan.last_resort:
        lines.sort(key=bk, reverse=plan.reverse)
        return
    if bk is not None and not has_nul:
        dec = [bk(ln) + b"\0" + ln for ln in lines]
        dec.sort(reverse=plan.reverse)
        lines[:] = [d.rpartition(b"\0")[2] for d in dec]
        return
    # stable passes: the whole line (last resort) first, then the keys from last to first
    if plan.last_resort:
        lines.sort(reverse=plan.reverse)
    for fn, descending in reversed(plan.passes):
        if fn is numeric_value:
            keys = numeric_values(lines)
            order = sorted(range(len(lines)), key=keys.__getitem__, reverse=descending)
            lines[:] = map(lines.__getitem__, order)
        else:
            lines.sort(key=fn, reverse=descending)


def _own_ordering(spec: str) -> bool:
    """Whether a -k spec carries ordering letters of its own (then global -R is not
    inherited by it, as in GNU)."""
    return any(c.isalpha() and c not in "b" for c in spec)


def _sort_body(a: SortArgs, ctx: Context) -> int:
    try:
        plan = _plan(a)
    except SortKeyError as e:
        ctx.error(str(e))
        return 2
    sep = b"\0" if a.zero_terminated else b"\n"
    if (a.check or a.check_quiet) and len(a.files) > 1:
        ctx.error(f"extra operand '{a.files[1]}' not allowed with -c")
        return 2
    inputs, failed, has_nul = _read_inputs(ctx, a.files, sep)
    if failed:
        return 2
    if a.check or a.check_quiet:
        lines = inputs[0] if inputs else []
        return _check(ctx, a, plan, lines, a.files[0] if a.files else "-")
    if a.merge:
        lines = _merge(inputs, plan)
    else:
        lines = inputs[0] if len(inputs) == 1 else list(itertools.chain.from_iterable(inputs))
        if a.random_sort and not any(_own_ordering(k) for k in a.key):
            _shuffle(lines, plan)
        else:
            _order(lines, plan, has_nul)
    if a.unique:
        lines = _unique(lines, plan.eq_key)
    data = sep.join(lines) + sep if lines else b""
    if a.output is not None:
        try:
            if rewrites_input(ctx, a.output, a.files):
                with ctx.fs.replace(ctx.path(a.output)) as f:
                    f.write(data)
            else:
                with open_output(ctx, a.output) as f:
                    f.write(data)
        except FsError as e:
            ctx.error(f"open failed: {a.output}: {e.reason}")
            return 2
        return 0
    if data:
        ctx.stdout.write(data)
    return 0


@tool(
    "sort",
    args=SortArgs,
    description="sort lines of text files; --json gives the sorted lines as an array",
    examples=[
        ("sort numerically, largest first", "sort -rn counts.txt"),
        ("sort a CSV by its second column as numbers", "sort -t, -k2,2n data.csv"),
        ("unique sorted lines", "sort -u names.txt"),
        ("human sizes", "du -h | sort -h"),
    ],
    operations=["fs.overwrite"],
)
def sort(args: SortArgs, ctx: Context) -> ToolReturn:
    return lines_json(ctx, lambda c: _sort_body(args, c))


TOOLS = [sort]
