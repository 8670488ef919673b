"""The variable builtins: declare (typeset), local, export, readonly and unset.

They are typed (their options are bound); an argument `NAME=VALUE` arrives as text, and
when the source wrote an array literal (`declare a=(…)`) the literal comes through the
session's `decl_arrays`, so it is expanded as bash does."""

from __future__ import annotations

from tysh.builtins.shell.common import NAME, err
from tysh.kernel.base.errors import VarError
from tysh.kernel.base.lazyre import DOTALL, LazyRegex
from tysh.kernel.base.limits import SLOT_BYTES, value_size
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.base.values import AssocArray, to_text
from tysh.kernel.expand.declared import attr_letters, declare_value
from tysh.kernel.run.state import READONLY_DYNAMIC, Var, convert_case
from tysh.kernel.syntax.unparse import function_source
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Tool, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from tysh.kernel.run.session import Session
    from tysh.kernel.syntax import ast

_REF_TARGET = LazyRegex(r"[A-Za-z_][A-Za-z0-9_]*(\[.*\])?\Z", DOTALL)
_ASSIGN = LazyRegex(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?(\+?=)(.*)\Z", DOTALL)
_ELEMENT = LazyRegex(r"([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]", DOTALL)


def _attr_flags(v: Var) -> str:
    return attr_letters(v.value, integer=v.integer, case=v.case, readonly=v.readonly,
                        exported=v.exported, nameref=v.nameref) or "-"


def _print_declare(ctx: Context, name: str, v: Var) -> None:
    flags = _attr_flags(v)
    if v.value is None:
        ctx.write(f"declare -{flags} {name}\n")
    else:
        ctx.write(f"declare -{flags} {name}={declare_value(v.value)}\n")


def _print_declares(ctx: Context, sh: Session, which: Callable[[Var], bool]) -> int:
    """`export -p` / `readonly -p`: a declaration for every variable `which` selects."""
    st = sh.state
    for n in st.all_names():
        v = st.lookup(n)
        if v is not None and which(v):
            _print_declare(ctx, n, v)
    return 0


@value_record
class DeclareArgs(Record):
    names: tuple[str, ...] = param((), positional=True, help="NAME or NAME=VALUE")
    array: bool = param(False, aliases=["-a"], help="indexed array")
    assoc: bool = param(False, aliases=["-A"], help="associative array")
    integer: bool = param(False, aliases=["-i"], help="integer: assignments are arithmetic")
    readonly: bool = param(False, aliases=["-r"], help="make read-only")
    export: bool = param(False, aliases=["-x"], help="export to commands' environment")
    global_: bool = param(False, aliases=["-g"], name="global", help="global even in a function")
    print_: bool = param(False, aliases=["-p"], name="print", help="print declarations")
    functions: bool = param(False, aliases=["-f"], help="act on functions")
    function_names: bool = param(False, aliases=["-F"], help="list function names")
    lower: bool = param(False, aliases=["-l"], help="lowercase every value assigned")
    upper: bool = param(False, aliases=["-u"], help="uppercase every value assigned")
    nameref: bool = param(False, aliases=["-n"],
                          help="a name reference: the variable stands for the one it names")


def _declare(ctx: Context, sh: Session, a: DeclareArgs, *, local: bool,
             force_global: bool = False) -> int:
    st = sh.state
    arrays = sh.decl_arrays or {}
    if a.functions or a.function_names:
        names = a.names or tuple(sorted(st.functions))
        status = 0
        for n in names:
            if n in st.functions:
                # bash: `declare -F` lists `declare -f NAME`, `declare -F NAME` prints NAME
                if a.function_names:
                    ctx.write(f"declare -f {n}\n" if not a.names else f"{n}\n")
                else:
                    ctx.write(function_source(n, st.functions[n]) + "\n")
            else:
                status = 1
        return status
    if a.print_ or not a.names:
        names = a.names or tuple(st.all_names())
        status = 0
        for n in names:
            v = st.lookup_raw(n)
            if v is None and a.names and n in st.dynamic_names():
                # a variable bash computes when read ($SHELLOPTS, $UID, …)
                v = Var(st.special(n), readonly=n in READONLY_DYNAMIC)
            if v is None:
                if a.names:
                    err(ctx, f"{n}: not found")
                    status = 1
                continue
            if a.names or _matches_attrs(v, a):
                _print_declare(ctx, n, v)
        return status
    status = 0
    in_func = st.func_depth > 0
    for word in a.names:
        m = _ASSIGN.match(word)
        if m is not None:
            name, index, op, value = m.group(1), m.group(2), m.group(3), m.group(4)
        elif NAME.match(word):
            name, index, op, value = word, None, "", None
        else:
            err(ctx, f"`{word}': not a valid identifier")
            status = 1
            continue
        try:
            found: Var | None
            if a.nameref and value is not None and index is None and not _REF_TARGET.match(
                    value):
                raise VarError(f"`{value}': invalid variable name for name reference")
            if a.nameref and value == name:
                raise VarError(f"{name}: nameref variable self references not allowed")
            if local and in_func and not a.global_ and not force_global:
                seen = st.lookup(name)
                if seen is not None and seen.readonly and seen is st.frames[0].get(name):
                    # bash refuses a local copy of a readonly global (not of a caller's local)
                    raise VarError(f"{name}: readonly variable")
                found = st.declare_local(name)
            else:
                if force_global:
                    found = st.frames[0].get(name)
                elif a.nameref:
                    found = st.lookup_raw(name)
                else:
                    found = st.lookup(name)
                if found is None:
                    found = Var(None)
                    (st.frames[0] if (a.global_ or force_global or not in_func) else
                     st.scope_frame())[name] = found
            var = found
            if var.readonly and value is not None:
                raise VarError(f"{name}: readonly variable")
            if a.assoc and isinstance(var.value, list):
                raise VarError(f"{name}: cannot convert indexed to associative array")
            if a.array and type(var.value) is AssocArray:
                raise VarError(f"{name}: cannot convert associative to indexed array")
            if a.array and not isinstance(var.value, list):
                var.value = [] if var.value is None else [var.value]
            if a.assoc and not isinstance(var.value, dict):
                var.value = AssocArray() if var.value is None else AssocArray({"0": var.value})
            if a.integer:
                var.integer = True
            if a.lower or a.upper:
                var.case = "u" if a.upper else "l"
            if a.export or (value is not None and "allexport" in st.options):
                var.exported = True  # `set -a` exports what declare/local assign too
            if a.nameref:
                var.nameref = True
                st.refs = True
                if value is not None:
                    var.value = value
            elif value is not None:
                _assign_text(sh, var, name, index, op, value, arrays.get(word))
            if a.readonly:
                var.readonly = True
        except VarError as e:
            err(ctx, e.message)
            status = 1
    return status


def _matches_attrs(v: Var, a: DeclareArgs) -> bool:
    if a.export and not v.exported:
        return False
    if a.readonly and not v.readonly:
        return False
    if a.integer and not v.integer:
        return False
    if a.array and not isinstance(v.value, list):
        return False
    if a.assoc and not isinstance(v.value, dict):
        return False
    if a.nameref and not v.nameref:
        return False
    return True


def _assign_text(sh: Session, var: Var, name: str, index: str | None, op: str,
                 value: str, lit: ast.ArrayLit | None = None) -> None:
    """Store `value` (already expanded) into `var`, honouring its attributes; `lit` is the
    array literal when the source said `name=(…)` (a quoted "(…)" is plain text, as in
    bash)."""
    meter = sh.state.meter
    if lit is not None or (index is None and value[:1] == "(" and value[-1:] == ")"
                           and isinstance(var.value, (list, dict))):
        into = False
        if lit is not None:
            # `declare a+=([k]=v)`: keyed elements land in the array as it is
            into = op == "+=" and any(e.key is not None for e in lit.elements)
            got = sh.array_value(name, lit, into)
        else:
            # `declare -a a="(x y)"`: bash reads a quoted list into an array variable; its
            # words are taken as written, never expanded (no code is run from data)
            got = _split_compound(value[1:-1], sh, isinstance(var.value, dict))
        meter.admit(value_size(got), name)
        if isinstance(got, dict):
            if var.case:
                got = {k: x if type(x) is not str else convert_case(var.case, x)
                       for k, x in got.items()}
            if var.integer:
                got = {k: str(sh.eval_arith_text(to_text(x) or "0")) for k, x in got.items()}
            old_d = var.value if op == "+=" and isinstance(var.value, dict) else {}
            var.value = AssocArray({**old_d, **got})
            return
        items = got.copy() if isinstance(got, list) else [got]  # a SparseList stays one
        if var.case:
            items = [x if type(x) is not str else convert_case(var.case, x) for x in items]
        if var.integer:
            items = [None if x is None else str(sh.eval_arith_text(to_text(x) or "0"))
                     for x in items]
        if op != "+=" or var.value is None or into:
            var.value = items
            return
        cur = var.value if isinstance(var.value, list) else [var.value]
        if lit is None or any(e.key is not None for e in lit.elements):
            merged = list(cur) + [None] * max(0, len(items) - len(cur))
            for i, x in enumerate(items):
                if x is not None:
                    merged[i] = x
            var.value = merged
        else:
            var.value = list(cur) + items
        return
    if var.integer:
        v: Any = str(sh.eval_arith_text(value or "0"))
        if op == "+=":
            v = str(sh.eval_arith_text(f"({to_text(var.value) or 0})+({value or 0})"))
    else:
        v = value
        if op == "+=" and index is None and var.value is not None:
            v = to_text(var.value) + value
        if var.case:
            v = convert_case(var.case, v)
    meter.admit(value_size(v), name)
    if index is not None:
        if isinstance(var.value, dict):
            var.value[index] = v
        else:
            if not isinstance(var.value, list):
                var.value = [] if var.value is None else [var.value]
            i = sh.eval_arith_text(index)
            arr2 = var.value
            if i < 0:
                i += len(arr2)
            if i >= len(arr2):
                meter.admit(SLOT_BYTES * (i + 1 - len(arr2)), name)
                arr2.extend([None] * (i + 1 - len(arr2)))
            arr2[i] = v
        return
    if isinstance(var.value, list):
        if var.value:
            var.value[0] = v
        else:
            var.value.append(v)
        return
    var.value = v


_COMPOUND_ITEM = LazyRegex(r"""\s*(?:\[([^\]]*)\]=)?("(?:[^"\\]|\\.)*"|'[^']*'|[^\s]+)""", DOTALL)


def _split_compound(text: str, sh: Session, assoc: bool) -> list[Any] | dict[str, Any]:
    """The elements of the text of `(a "b c" [k]=v)` (quotes removed, nothing expanded)."""
    items: list[tuple[str | None, str]] = []
    pos = 0
    while text[pos:].strip():
        m = _COMPOUND_ITEM.match(text, pos)
        if m is None:
            break
        raw = m.group(2)
        if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'":
            raw = raw[1:-1]
        items.append((m.group(1), raw))
        pos = m.end()
    if assoc:
        if all(k is None for k, _ in items):  # bash 5.1+: k1 v1 k2 v2
            flat = [x for _, x in items]
            return AssocArray({flat[i]: flat[i + 1] if i + 1 < len(flat) else ""
                               for i in range(0, len(flat), 2)})
        return AssocArray({k: x for k, x in items if k is not None})
    arr: list[Any] = []
    i = 0
    for k, x in items:
        if k is not None:
            i = sh.eval_arith_text(k)
        if i >= len(arr):
            arr.extend([None] * (i + 1 - len(arr)))
        arr[i] = x
        i += 1
    return arr


# The declaration builtins, unset and read take variable names (`a[1]`), never globs.
@tool("declare", kind="shell", args=DeclareArgs, description="declare variables and give them attributes",
      examples=[("an associative array", "declare -A m"), ("show a variable", "declare -p x")],
      session=True, glob_passthrough=True)
def declare(args: DeclareArgs, ctx: Context, sh: Session) -> int:
    return _declare(ctx, sh, args, local=True)


@tool("typeset", kind="shell", args=DeclareArgs, description="declare variables (same as declare)", session=True,
      glob_passthrough=True)
def typeset(args: DeclareArgs, ctx: Context, sh: Session) -> int:
    return _declare(ctx, sh, args, local=True)


@value_record
class LocalArgs(Record):
    names: tuple[str, ...] = param((), positional=True, help="NAME or NAME=VALUE")
    array: bool = param(False, aliases=["-a"], help="indexed array")
    assoc: bool = param(False, aliases=["-A"], help="associative array")
    integer: bool = param(False, aliases=["-i"], help="integer")
    readonly: bool = param(False, aliases=["-r"], help="read-only")
    export: bool = param(False, aliases=["-x"], help="exported")
    lower: bool = param(False, aliases=["-l"], help="lowercase every value assigned")
    upper: bool = param(False, aliases=["-u"], help="uppercase every value assigned")
    nameref: bool = param(False, aliases=["-n"], help="a name reference")


@tool("local", kind="shell", args=LocalArgs, description="declare variables local to the current function",
      examples=[("a local counter", "local i=0")], session=True, glob_passthrough=True)
def local(args: LocalArgs, ctx: Context, sh: Session) -> int:
    if sh.state.func_depth == 0:
        err(ctx, "can only be used in a function")
        return 1
    d = DeclareArgs(names=args.names, array=args.array, assoc=args.assoc, integer=args.integer,
                    readonly=args.readonly, export=args.export, lower=args.lower,
                    upper=args.upper, nameref=args.nameref)
    if not args.names:
        return 0
    return _declare(ctx, sh, d, local=True)


@value_record
class ExportArgs(Record):
    names: tuple[str, ...] = param((), positional=True, help="NAME or NAME=VALUE")
    unexport: bool = param(False, aliases=["-n"], help="remove the export attribute")
    print_: bool = param(False, aliases=["-p"], name="print", help="list exported variables")
    functions: bool = param(False, aliases=["-f"], help="accepted for bash compatibility")


@tool("export", kind="shell", args=ExportArgs, description="mark variables for the environment of commands",
      examples=[("export a value", "export PATH=\"$HOME/bin:$PATH\"")], session=True,
      glob_passthrough=True)
def export(args: ExportArgs, ctx: Context, sh: Session) -> int:
    st = sh.state
    if args.print_ or not args.names:
        return _print_declares(ctx, sh, lambda v: v.exported)
    status = 0
    arrays = sh.decl_arrays or {}
    for word in args.names:
        m = _ASSIGN.match(word)
        name = m.group(1) if m else word
        if not NAME.match(name):
            err(ctx, f"`{word}': not a valid identifier")
            status = 1
            continue
        var = st.lookup(name)
        if var is None:
            var = Var(None)
            st.frames[0][name] = var
        try:
            if m is not None:
                if var.readonly:
                    raise VarError(f"{name}: readonly variable")
                _assign_text(sh, var, name, m.group(2), m.group(3), m.group(4),
                             arrays.get(word))
        except VarError as e:
            err(ctx, e.message)
            status = 1
            continue
        var.exported = not args.unexport
    return status


@value_record
class ReadonlyArgs(Record):
    names: tuple[str, ...] = param((), positional=True, help="NAME or NAME=VALUE")
    array: bool = param(False, aliases=["-a"], help="indexed array")
    assoc: bool = param(False, aliases=["-A"], help="associative array")
    print_: bool = param(False, aliases=["-p"], name="print", help="list read-only variables")
    functions: bool = param(False, aliases=["-f"], help="accepted for bash compatibility")


@tool("readonly", kind="shell", args=ReadonlyArgs, description="make variables read-only", session=True,
      glob_passthrough=True)
def readonly(args: ReadonlyArgs, ctx: Context, sh: Session) -> int:
    if args.print_ or not args.names:
        return _print_declares(ctx, sh, lambda v: v.readonly)
    d = DeclareArgs(names=args.names, array=args.array, assoc=args.assoc, readonly=True)
    return _declare(ctx, sh, d, local=False)


@value_record
class UnsetArgs(Record):
    names: tuple[str, ...] = param((), positional=True, help="variables (or NAME[KEY]) to unset")
    variables: bool = param(False, aliases=["-v"], help="names are variables (the default)")
    functions: bool = param(False, aliases=["-f"], help="names are functions")
    nameref: bool = param(False, aliases=["-n"], help="unset a nameref itself, not what it names")


@tool("unset", kind="shell", args=UnsetArgs, description="remove variables, array elements or functions",
      examples=[("remove an element", "unset 'a[1]'")], session=True, glob_passthrough=True)
def unset(args: UnsetArgs, ctx: Context, sh: Session) -> int:
    st = sh.state
    status = 0
    for n in args.names:
        if args.functions:
            st.functions.pop(n, None)
            continue
        m = _ELEMENT.fullmatch(n)
        try:
            if m is not None:
                cur = st.get(m.group(1))
                key: Any = m.group(2)
                if key in ("@", "*"):
                    st.unset(m.group(1))
                    continue
                if not isinstance(cur, dict):
                    key = sh.eval_arith_text(key)
                elif any(c in key for c in "\"'$\\`"):
                    key = sh.expand_source_word(key)  # `unset 'm["k"]'`, `'m[$key]'`
                st.unset_index(m.group(1), key)
            elif NAME.match(n):
                if st.lookup(n) is None and not args.variables and n in st.functions:
                    st.functions.pop(n, None)
                else:
                    st.unset(n, ref=args.nameref)
            else:
                err(ctx, f"`{n}': not a valid identifier")
                status = 1
        except VarError as e:
            err(ctx, e.message)
            status = 1
    return status


TOOLS: list[Tool] = [declare, typeset, local, export, readonly, unset]
