"""The session builtins: they read and change the shell itself (variables, cwd, options,
positional parameters, functions, jobs, control flow).

They reach the interpreter through `ctx.shell` (the Interpreter implements ShellAPI and
more). Builtins whose operands are position-sensitive or look like options (`set`,
`exit`, `command`, `getopts`) are raw_argv; the rest are typed. `eval`, `trap`, `let`
and `exec` are loud usage errors naming what to write instead (DESIGN §2.1)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

import attrs

from tysh.builtins._common.names import describe as describe_kind
from tysh.builtins._common.names import quote_alias
from tysh.kernel.base.control import BreakLoop, ContinueLoop, ExitShell, ReturnFromFunction
from tysh.kernel.base.errors import VarError
from tysh.kernel.base.record import Record
from tysh.kernel.base.values import to_text
from tysh.kernel.run.state import ALL_OPTIONS, LETTER_OPTIONS, Var, convert_case
from tysh.kernel.syntax.unparse import function_source
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Tool, tool

if TYPE_CHECKING:
    from tysh.kernel.run.interpreter import Interpreter
    from tysh.kernel.syntax import ast
    from tysh.kernel.tools.output import OutputData


class RawArgs(Protocol):
    positional: list[Any]


def _interp(ctx: Context) -> Interpreter:
    return cast("Interpreter", ctx.shell)


def _texts(values: list[Any]) -> list[str]:
    return [v if type(v) is str else to_text(v) for v in values]


def _err(ctx: Context, msg: str) -> None:
    ctx.stderr.write(f"tysh: {ctx.name}: {msg}\n".encode("utf-8", "surrogateescape"))


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_SUBSCRIPTED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\[(.+)\]\Z", re.S)


def _set_element(interp: Interpreter, name: str, value: str) -> None:
    """`read 'a[i]'`: assign one element (an arithmetic index unless `a` is associative)."""
    m = _SUBSCRIPTED.match(name)
    assert m is not None
    base, index = m.group(1), m.group(2)
    var = interp.state.lookup(base)
    key: Any = index if var is not None and isinstance(var.value, dict) else (
        interp.eval_arith_text(index))
    interp.state.set_index(base, key, value)


def assign_word(ctx: Context, name: str, value: str) -> bool:
    """Assign `name` or `name[index]` as `read` does (for `printf -v`); False when the
    word is not a variable name. Raises VarError (a readonly variable)."""
    if _NAME.match(name):
        _interp(ctx).state.set(name, value)
        return True
    if _SUBSCRIPTED.match(name):
        _set_element(_interp(ctx), name, value)
        return True
    return False


_ASSIGN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?(\+?=)(.*)\Z", re.S)


def _int_arg(ctx: Context, text: str) -> int | None:
    t = text.strip()
    if re.fullmatch(r"[-+]?[0-9]+", t):
        return int(t)
    _err(ctx, f"{text}: numeric argument required")
    return None


# ---------------------------------------------------------------- exit/return/break


@tool("exit", raw_argv=True, description="exit the shell (or subshell) with status N")
def exit_(args: RawArgs, ctx: Context) -> int:
    interp = _interp(ctx)
    words = _texts(args.positional)
    if not words:
        raise ExitShell(interp.state.last_status)
    n = _int_arg(ctx, words[0])
    if n is None:
        raise ExitShell(2)
    if len(words) > 1:
        _err(ctx, "too many arguments")
        raise ExitShell(1)  # as bash: the script ends
    raise ExitShell(n & 0xFF)


@tool("return", raw_argv=True, description="return from a function or sourced script with status N")
def return_(args: RawArgs, ctx: Context) -> int:
    interp = _interp(ctx)
    st = interp.state
    if st.func_depth == 0 and interp.source_depth == 0:
        _err(ctx, "can only `return' from a function or sourced script")
        return 2
    words = _texts(args.positional)
    if not words:
        raise ReturnFromFunction(st.last_status)
    n = _int_arg(ctx, words[0])
    if n is None:
        raise ReturnFromFunction(2)
    if len(words) > 1:
        _err(ctx, "too many arguments")
        raise ExitShell(1)  # as bash: the script ends
    raise ReturnFromFunction(n & 0xFF)


def _leave_loops(args: RawArgs, ctx: Context, jump: type[BreakLoop | ContinueLoop]) -> int:
    """break/continue: raise `jump` for N levels (capped at the loop depth); outside a
    loop bash only complains, with status 0."""
    depth = _interp(ctx).state.loop_depth
    if depth == 0:
        _err(ctx, "only meaningful in a `for', `while', or `until' loop")
        return 0
    words = _texts(args.positional)
    n = 1
    if words:
        v = _int_arg(ctx, words[0])
        if v is None:
            raise ExitShell(2)
        if v < 1:
            _err(ctx, f"{words[0]}: loop count out of range")
            return 1
        n = v
    raise jump(min(n, depth))


@tool("break", raw_argv=True, description="leave N enclosing loops (default 1)")
def break_(args: RawArgs, ctx: Context) -> int:
    return _leave_loops(args, ctx, BreakLoop)


@tool("continue", raw_argv=True, description="go to the next iteration of the Nth enclosing loop")
def continue_(args: RawArgs, ctx: Context) -> int:
    return _leave_loops(args, ctx, ContinueLoop)


@tool("shift", raw_argv=True, description="drop the first N positional parameters (default 1)")
def shift(args: RawArgs, ctx: Context) -> int:
    st = _interp(ctx).state
    words = _texts(args.positional)
    n = 1
    if words:
        v = _int_arg(ctx, words[0])
        if v is None:
            return 1
        if len(words) > 1:
            _err(ctx, "too many arguments")
            raise ExitShell(1)  # as bash: the script ends
        n = v
    if n < 0:
        _err(ctx, f"{n}: shift count out of range")
        return 1
    if n > len(st.positional):
        return 1
    st.positional = st.positional[n:]
    return 0


# ---------------------------------------------------------------- set


@tool(
    "set",
    raw_argv=True,
    description="set options (-e -u -x, -o pipefail; + turns off) or the positional parameters",
    examples=[("stop at the first failure", "set -euo pipefail"), ("set $1 $2", "set -- a b")],
)
def set_(args: RawArgs, ctx: Context) -> int:
    interp = _interp(ctx)
    st = interp.state
    words = _texts(args.positional)
    if not words:
        for name in st.all_names():
            v = st.lookup(name)
            if v is None or v.value is None:
                continue
            ctx.write(f"{name}={_declare_value(v.value)}\n")
        return 0
    i = 0
    while i < len(words):
        w = words[i]
        if w == "--":
            st.positional = words[i + 1 :]
            return 0
        if w == "-":
            st.positional = words[i + 1 :]
            return 0
        if len(w) >= 2 and w[0] in "-+" and w[1:].isalpha():
            on = w[0] == "-"
            for c in w[1:]:
                if c == "o":
                    i += 1
                    if i >= len(words):
                        _print_options(ctx, st.options, on)
                        return 0
                    name = words[i]
                    if name not in ALL_OPTIONS:
                        _err(ctx, f"{name}: invalid option name")
                        return 2
                    (st.options.add if on else st.options.discard)(name)
                    continue
                opt = LETTER_OPTIONS.get(c)
                if opt is None:
                    _err(ctx, f"{w[0]}{c}: invalid option")
                    return 2
                (st.options.add if on else st.options.discard)(opt)
            i += 1
            continue
        st.positional = words[i:]
        return 0
    return 0


def _print_options(ctx: Context, options: set[str], on: bool) -> None:
    for name in sorted(ALL_OPTIONS):
        if on:
            ctx.write(f"{name:<15} {'on' if name in options else 'off'}\n")
        else:
            ctx.write(f"set {'-' if name in options else '+'}o {name}\n")


# ---------------------------------------------------------------- variables


def _declare_value(v: Any) -> str:
    if isinstance(v, list):
        inner = " ".join(f"[{i}]={_dq(to_text(x))}" for i, x in enumerate(v) if x is not None)
        return f"({inner})"
    if isinstance(v, dict):
        inner = "".join(f"[{_dq_key(str(k))}]={_dq(to_text(x))} " for k, x in v.items())
        return f"({inner})"
    return _dq(to_text(v))


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_ANSI_OUT = {"\a": "\\a", "\b": "\\b", "\x1b": "\\E", "\f": "\\f", "\n": "\\n", "\r": "\\r",
             "\t": "\\t", "\v": "\\v", "\\": "\\\\", "'": "\\'"}


def _dq(s: str) -> str:
    """A value quoted as bash's `declare -p` does: "…", or $'…' when it holds control
    characters (so the output can be read back)."""
    if _CONTROL.search(s):
        return "$'" + re.sub(r"[\x00-\x1f\x7f\\']",
                             lambda m: _ANSI_OUT.get(m.group(), f"\\{ord(m.group()):03o}"),
                             s) + "'"
    return '"' + re.sub(r'(["\\$`])', r"\\\1", s) + '"'


def _dq_key(k: str) -> str:
    """An associative array key as `declare -p` shows it: bare when safe, else quoted."""
    return k if re.fullmatch(r"[A-Za-z0-9_.@%+=:,/-]+", k) else _dq(k)


def _attr_flags(v: Var) -> str:
    f = ""
    if isinstance(v.value, list):
        f += "a"
    elif isinstance(v.value, dict):
        f += "A"
    if v.integer:
        f += "i"
    if v.case:
        f += v.case
    if v.readonly:
        f += "r"
    if v.exported:
        f += "x"
    return f or "-"


def _print_declare(ctx: Context, name: str, v: Var) -> None:
    flags = _attr_flags(v)
    if v.value is None:
        ctx.write(f"declare -{flags} {name}\n")
    else:
        ctx.write(f"declare -{flags} {name}={_declare_value(v.value)}\n")


def _print_declares(ctx: Context, which: Callable[[Var], bool]) -> int:
    """`export -p` / `readonly -p`: a declaration for every variable `which` selects."""
    st = _interp(ctx).state
    for n in st.all_names():
        v = st.lookup(n)
        if v is not None and which(v):
            _print_declare(ctx, n, v)
    return 0


@attrs.frozen(repr=False, eq=False)
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


def _declare(ctx: Context, a: DeclareArgs, *, local: bool, force_global: bool = False) -> int:
    interp = _interp(ctx)
    st = interp.state
    arrays = interp.decl_arrays or {}
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
            v = st.lookup(n)
            if v is None:
                if a.names:
                    _err(ctx, f"{n}: not found")
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
        elif _NAME.match(word):
            name, index, op, value = word, None, "", None
        else:
            _err(ctx, f"`{word}': not a valid identifier")
            status = 1
            continue
        try:
            found: Var | None
            if local and in_func and not a.global_ and not force_global:
                seen = st.lookup(name)
                if seen is not None and seen.readonly and seen is st.frames[0].get(name):
                    # bash refuses a local copy of a readonly global (not of a caller's local)
                    raise VarError(f"{name}: readonly variable")
                found = st.declare_local(name)
            else:
                found = st.lookup(name) if not force_global else st.frames[0].get(name)
                if found is None:
                    found = Var(None)
                    (st.frames[0] if (a.global_ or force_global or not in_func) else
                     st.frames[-1])[name] = found
            var = found
            if var.readonly and value is not None:
                raise VarError(f"{name}: readonly variable")
            if a.array and not isinstance(var.value, list):
                var.value = [] if var.value is None else [var.value]
            if a.assoc and not isinstance(var.value, dict):
                var.value = {} if var.value is None else {"0": var.value}
            if a.integer:
                var.integer = True
            if a.lower or a.upper:
                var.case = "u" if a.upper else "l"
            if a.export:
                var.exported = True
            if value is not None:
                _assign_text(interp, var, name, index, op, value, arrays.get(word))
            if a.readonly:
                var.readonly = True
        except VarError as e:
            _err(ctx, e.message)
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
    return True


def _assign_text(interp: Interpreter, var: Var, name: str, index: str | None, op: str,
                 value: str, lit: ast.ArrayLit | None = None) -> None:
    """Store `value` (already expanded) into `var`, honouring its attributes; `lit` is the
    array literal when the source said `name=(…)` (a quoted "(…)" is plain text, as in
    bash)."""
    if lit is not None or (index is None and value[:1] == "(" and value[-1:] == ")"
                           and isinstance(var.value, (list, dict))):
        if lit is not None:
            from tysh.kernel.run.simple_command import array_value

            got = array_value(interp, name, lit)
        else:
            # `declare -a a="(x y)"`: bash reads a quoted list into an array variable; its
            # words are taken as written, never expanded (no code is run from data)
            got = _split_compound(value[1:-1], interp, isinstance(var.value, dict))
        if isinstance(got, dict):
            if var.case:
                got = {k: x if type(x) is not str else convert_case(var.case, x)
                       for k, x in got.items()}
            if var.integer:
                got = {k: str(interp.eval_arith_text(to_text(x) or "0")) for k, x in got.items()}
            old_d = var.value if op == "+=" and isinstance(var.value, dict) else {}
            var.value = {**old_d, **got}
            return
        items = list(got) if isinstance(got, list) else [got]
        if var.case:
            items = [x if type(x) is not str else convert_case(var.case, x) for x in items]
        if var.integer:
            items = [None if x is None else str(interp.eval_arith_text(to_text(x) or "0"))
                     for x in items]
        if op != "+=" or var.value is None:
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
        v: Any = str(interp.eval_arith_text(value or "0"))
        if op == "+=":
            v = str(interp.eval_arith_text(f"({to_text(var.value) or 0})+({value or 0})"))
    else:
        v = value
        if op == "+=" and index is None and var.value is not None:
            v = to_text(var.value) + value
        if var.case:
            v = convert_case(var.case, v)
    if index is not None:
        if isinstance(var.value, dict):
            var.value[index] = v
        else:
            if not isinstance(var.value, list):
                var.value = [] if var.value is None else [var.value]
            i = interp.eval_arith_text(index)
            arr2 = var.value
            if i < 0:
                i += len(arr2)
            if i >= len(arr2):
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


_COMPOUND_ITEM = re.compile(r"""\s*(?:\[([^\]]*)\]=)?("(?:[^"\\]|\\.)*"|'[^']*'|[^\s]+)""", re.S)


def _split_compound(text: str, interp: Interpreter, assoc: bool) -> list[Any] | dict[str, Any]:
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
            return {flat[i]: flat[i + 1] if i + 1 < len(flat) else ""
                    for i in range(0, len(flat), 2)}
        return {k: x for k, x in items if k is not None}
    arr: list[Any] = []
    i = 0
    for k, x in items:
        if k is not None:
            i = interp.eval_arith_text(k)
        if i >= len(arr):
            arr.extend([None] * (i + 1 - len(arr)))
        arr[i] = x
        i += 1
    return arr


@tool("declare", args=DeclareArgs, description="declare variables and give them attributes",
      examples=[("an associative array", "declare -A m"), ("show a variable", "declare -p x")])
def declare(args: DeclareArgs, ctx: Context) -> int:
    return _declare(ctx, args, local=True)


@tool("typeset", args=DeclareArgs, description="declare variables (same as declare)")
def typeset(args: DeclareArgs, ctx: Context) -> int:
    return _declare(ctx, args, local=True)


@attrs.frozen(repr=False, eq=False)
class LocalArgs(Record):
    names: tuple[str, ...] = param((), positional=True, help="NAME or NAME=VALUE")
    array: bool = param(False, aliases=["-a"], help="indexed array")
    assoc: bool = param(False, aliases=["-A"], help="associative array")
    integer: bool = param(False, aliases=["-i"], help="integer")
    readonly: bool = param(False, aliases=["-r"], help="read-only")
    export: bool = param(False, aliases=["-x"], help="exported")
    lower: bool = param(False, aliases=["-l"], help="lowercase every value assigned")
    upper: bool = param(False, aliases=["-u"], help="uppercase every value assigned")


@tool("local", args=LocalArgs, description="declare variables local to the current function",
      examples=[("a local counter", "local i=0")])
def local(args: LocalArgs, ctx: Context) -> int:
    if _interp(ctx).state.func_depth == 0:
        _err(ctx, "can only be used in a function")
        return 1
    d = DeclareArgs(names=args.names, array=args.array, assoc=args.assoc, integer=args.integer,
                    readonly=args.readonly, export=args.export, lower=args.lower,
                    upper=args.upper)
    if not args.names:
        return 0
    return _declare(ctx, d, local=True)


@attrs.frozen(repr=False, eq=False)
class ExportArgs(Record):
    names: tuple[str, ...] = param((), positional=True, help="NAME or NAME=VALUE")
    unexport: bool = param(False, aliases=["-n"], help="remove the export attribute")
    print_: bool = param(False, aliases=["-p"], name="print", help="list exported variables")
    functions: bool = param(False, aliases=["-f"], help="accepted for bash compatibility")


@tool("export", args=ExportArgs, description="mark variables for the environment of commands",
      examples=[("export a value", "export PATH=\"$HOME/bin:$PATH\"")])
def export(args: ExportArgs, ctx: Context) -> int:
    interp = _interp(ctx)
    st = interp.state
    if args.print_ or not args.names:
        return _print_declares(ctx, lambda v: v.exported)
    status = 0
    arrays = interp.decl_arrays or {}
    for word in args.names:
        m = _ASSIGN.match(word)
        name = m.group(1) if m else word
        if not _NAME.match(name):
            _err(ctx, f"`{word}': not a valid identifier")
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
                _assign_text(interp, var, name, m.group(2), m.group(3), m.group(4),
                             arrays.get(word))
        except VarError as e:
            _err(ctx, e.message)
            status = 1
            continue
        var.exported = not args.unexport
    return status


@attrs.frozen(repr=False, eq=False)
class ReadonlyArgs(Record):
    names: tuple[str, ...] = param((), positional=True, help="NAME or NAME=VALUE")
    array: bool = param(False, aliases=["-a"], help="indexed array")
    assoc: bool = param(False, aliases=["-A"], help="associative array")
    print_: bool = param(False, aliases=["-p"], name="print", help="list read-only variables")
    functions: bool = param(False, aliases=["-f"], help="accepted for bash compatibility")


@tool("readonly", args=ReadonlyArgs, description="make variables read-only")
def readonly(args: ReadonlyArgs, ctx: Context) -> int:
    if args.print_ or not args.names:
        return _print_declares(ctx, lambda v: v.readonly)
    d = DeclareArgs(names=args.names, array=args.array, assoc=args.assoc, readonly=True)
    return _declare(ctx, d, local=False)


@attrs.frozen(repr=False, eq=False)
class UnsetArgs(Record):
    names: tuple[str, ...] = param((), positional=True, help="variables (or NAME[KEY]) to unset")
    variables: bool = param(False, aliases=["-v"], help="names are variables (the default)")
    functions: bool = param(False, aliases=["-f"], help="names are functions")
    nameref: bool = param(False, aliases=["-n"], help="accepted for bash compatibility")


@tool("unset", args=UnsetArgs, description="remove variables, array elements or functions",
      examples=[("remove an element", "unset 'a[1]'")])
def unset(args: UnsetArgs, ctx: Context) -> int:
    interp = _interp(ctx)
    st = interp.state
    status = 0
    for n in args.names:
        if args.functions:
            st.functions.pop(n, None)
            continue
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]", n, re.S)
        try:
            if m is not None:
                cur = st.get(m.group(1))
                key: Any = m.group(2)
                if key in ("@", "*"):
                    st.unset(m.group(1))
                    continue
                if not isinstance(cur, dict):
                    key = interp.eval_arith_text(key)
                st.unset_index(m.group(1), key)
            elif _NAME.match(n):
                if st.lookup(n) is None and not args.variables and n in st.functions:
                    st.functions.pop(n, None)
                else:
                    st.unset(n)
            else:
                _err(ctx, f"`{n}': not a valid identifier")
                status = 1
        except VarError as e:
            _err(ctx, e.message)
            status = 1
    return status


# ---------------------------------------------------------------- read


@attrs.frozen(repr=False, eq=False)
class ReadArgs(Record):
    names: tuple[str, ...] = param((), positional=True, help="variables to fill (default REPLY)")
    raw: bool = param(False, aliases=["-r"], help="backslashes are literal")
    prompt: str | None = param(None, aliases=["-p"], help="prompt written to stderr")
    array: str | None = param(None, aliases=["-a"], help="read the fields into this array")
    delim: str | None = param(None, aliases=["-d"], help="end at this character, not newline")
    nchars: int | None = param(None, aliases=["-n"], help="read at most N characters")
    exact: int | None = param(None, aliases=["-N"], help="read exactly N characters")
    silent: bool = param(False, aliases=["-s"], help="accepted (no echo to switch off)")
    readline: bool = param(False, aliases=["-e"], help="accepted (no line editing here)")
    timeout: float | None = param(None, aliases=["-t"], help="accepted; input never blocks here")
    fd: int | None = param(None, aliases=["-u"], help="read from this file descriptor")


def _read_record(stream: Any, delim: bytes, limit: int | None) -> tuple[bytes, bool]:
    """Bytes up to (not including) the delimiter; the flag says the delimiter was seen."""
    if limit is None and delim == b"\n" and hasattr(stream, "readline"):
        line = stream.readline()
        if line.endswith(b"\n"):
            return line[:-1], True
        return line, False
    buf = bytearray()
    while limit is None or len(buf) < limit:
        c = stream.read(1)
        if not c:
            return bytes(buf), False
        if c == delim and limit is None or (c == delim and delim != b""):
            return bytes(buf), True
        buf += c
    return bytes(buf), True


def split_fields(line: str, ifs: str, count: int) -> list[str]:
    """bash's `read` splitting: at most `count` fields, the last keeping the rest of the line."""
    ws = "".join(c for c in ifs if c in " \t\n")
    other = "".join(c for c in ifs if c not in " \t\n")
    s = line.strip(ws) if ws else line
    fields: list[str] = []
    if not ifs:
        return [line]
    i = 0
    n = len(s)
    while i < n and len(fields) < count - 1:
        j = i
        while j < n and s[j] not in ifs:
            j += 1
        fields.append(s[i:j])
        # consume the separator: whitespace, at most one non-ws char, whitespace
        while j < n and s[j] in ws:
            j += 1
        if j < n and s[j] in other:
            j += 1
            while j < n and s[j] in ws:
                j += 1
        i = j
    if i < n:
        rest = s[i:]
        # a single trailing delimiter after the last field is dropped ("1,2," → "2")
        if len(rest) > 1 and rest[-1] in other and not any(c in other for c in rest[:-1]):
            rest = rest[:-1].rstrip(ws) if ws else rest[:-1]
        elif rest in tuple(other):
            rest = ""
        fields.append(rest)
    return fields


def _input_fd(ctx: Context, interp: Interpreter, fd: int | None) -> Any:
    """The stream `-u FD` names (stdin without it); None, after saying so, if FD is not open."""
    if fd is None:
        return ctx.stdin
    stream = interp.cur_fds.get(fd)
    if stream is None:
        _err(ctx, f"{fd}: invalid file descriptor: Bad file descriptor")
    return stream


@tool("read", args=ReadArgs, description="read a line from stdin into variables, split on IFS",
      examples=[("read two fields", "read -r first rest"), ("read a whole line", "IFS= read -r line")])
def read(args: ReadArgs, ctx: Context) -> int:
    interp = _interp(ctx)
    st = interp.state
    stream = _input_fd(ctx, interp, args.fd)
    if stream is None:
        return 1
    if args.prompt:
        ctx.stderr.write(args.prompt.encode("utf-8", "surrogateescape"))
    delim = b"\n"
    if args.delim is not None:
        # `-d ''` ends each record at a NUL (`find -print0 | while read -d '' f`)
        delim = args.delim.encode("utf-8", "surrogateescape")[:1] or b"\x00"
    limit = args.exact if args.exact is not None else args.nchars
    if args.exact is not None:
        delim = b"\x00\x00"  # never matches a single byte
    ok = True
    parts: list[bytes] = []
    while True:
        chunk, seen = _read_record(stream, delim if delim != b"\x00\x00" else b"", limit)
        if args.exact is not None:
            seen = len(chunk) == limit
        if not args.raw and seen and chunk.endswith(b"\\") and not chunk.endswith(b"\\\\") \
                and delim == b"\n":
            parts.append(chunk[:-1])
            continue
        parts.append(chunk)
        ok = seen
        break
    text = b"".join(parts).decode("utf-8", "surrogateescape")
    if not args.raw:
        text = re.sub(r"\\(.)", r"\1", text, flags=re.S)
        if text.endswith("\\"):
            text = text[:-1]
    ifs_v = st.get("IFS")
    ifs = " \t\n" if ifs_v is None else to_text(ifs_v)
    if args.array is not None and not _NAME.match(args.array):
        _err(ctx, f"`{args.array}': not a valid identifier")
        return 1
    try:
        if args.array is not None:
            ws = "".join(c for c in ifs if c in " \t\n")
            fields = split_fields(text, ifs, 1 << 30) if text.strip(ws) else []
            st.set(args.array, fields)
        elif not args.names:
            st.set("REPLY", text)
        else:
            # -N reads exactly N characters and does not split them (as bash)
            fields = [text] if args.exact is not None else split_fields(text, ifs,
                                                                         len(args.names))
            for i, name in enumerate(args.names):
                field = fields[i] if i < len(fields) else ""
                if _NAME.match(name):
                    st.set(name, field)
                elif _SUBSCRIPTED.match(name):
                    _set_element(interp, name, field)
                else:  # as bash: the names before it are assigned
                    _err(ctx, f"`{name}': not a valid identifier")
                    return 1
    except VarError as e:
        _err(ctx, e.message)
        return 1
    return 0 if ok else 1


# ---------------------------------------------------------------- mapfile / readarray


@attrs.frozen(repr=False, eq=False)
class MapfileArgs(Record):
    array: str = param("MAPFILE", positional=True, help="the array to fill (default MAPFILE)")
    strip: bool = param(False, aliases=["-t"], help="remove the delimiter from each line")
    delim: str | None = param(None, aliases=["-d"],
                              help="lines end at this character, not newline ('' is NUL)")
    count: int = param(0, aliases=["-n"], help="read at most N lines (0: all)")
    skip: int = param(0, aliases=["-s"], help="discard the first N lines")
    origin: int | None = param(None, aliases=["-O"],
                               help="store from this index on, keeping the array's other elements")
    fd: int | None = param(None, aliases=["-u"], help="read from this file descriptor")
    callback: str | None = param(None, aliases=["-C"], help="not supported in tysh")
    quantum: int | None = param(None, aliases=["-c"], help="not supported in tysh")


def _mapfile(args: MapfileArgs, ctx: Context) -> int:
    interp = _interp(ctx)
    if args.callback is not None or args.quantum is not None:
        _err(ctx, "-C/-c: callbacks are not supported in tysh; loop over the array instead")
        return 2
    if args.count < 0 or args.skip < 0 or (args.origin is not None and args.origin < 0):
        _err(ctx, "a count, skip or origin cannot be negative")
        return 1
    stream = _input_fd(ctx, interp, args.fd)
    if stream is None:
        return 1
    delim = b"\n" if args.delim is None else (
        args.delim.encode("utf-8", "surrogateescape")[:1] or b"\0")
    want = args.skip + args.count if args.count else None
    data = bytearray()
    seen = 0
    # read in blocks, but stop once enough lines are in (the rest stays for the next reader
    # only on a seekable stream, as bash: a pipe's extra block is gone either way)
    while True:
        block = stream.read1(1 << 16) if hasattr(stream, "read1") else stream.read(1 << 16)
        if not block:
            break
        data += block
        seen += block.count(delim)
        if want is not None and seen >= want:
            break
    parts = bytes(data).split(delim)
    lines = [p + delim for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    lines = lines[args.skip:]
    if args.count:
        lines = lines[: args.count]
    if args.strip:
        lines = [ln[:-1] if ln.endswith(delim) else ln for ln in lines]
    values = [ln.decode("utf-8", "surrogateescape") for ln in lines]
    st = interp.state
    try:
        if args.origin is None:
            st.set(args.array, values)
        else:
            for i, v in enumerate(values):
                st.set_index(args.array, args.origin + i, v)
    except VarError as e:
        _err(ctx, e.message)
        return 1
    return 0


@tool("mapfile", args=MapfileArgs, description="read lines from stdin into an indexed array",
      examples=[("every line of a file, without newlines", "mapfile -t lines < notes.txt"),
                ("the first 10 lines after a header", "mapfile -t -s 1 -n 10 rows < data.csv")])
def mapfile(args: MapfileArgs, ctx: Context) -> int:
    return _mapfile(args, ctx)


@tool("readarray", args=MapfileArgs, description="the same as mapfile",
      examples=[("every line of a file, without newlines", "readarray -t lines < notes.txt")])
def readarray(args: MapfileArgs, ctx: Context) -> int:
    return _mapfile(args, ctx)


# ---------------------------------------------------------------- cd / pwd


@attrs.frozen(repr=False, eq=False)
class CdArgs(Record):
    dirs: tuple[str, ...] = param((), positional=True,
                                  help="the directory (default $HOME; - is $OLDPWD)")
    logical: bool = param(False, aliases=["-L"], help="follow symbolic links logically (default)")
    physical: bool = param(False, aliases=["-P"], help="resolve symbolic links")


@tool("cd", args=CdArgs, description="change the working directory",
      examples=[("go home", "cd"), ("back to the previous directory", "cd -")])
def cd(args: CdArgs, ctx: Context) -> int:
    interp = _interp(ctx)
    st = interp.state
    if len(args.dirs) > 1:
        _err(ctx, "too many arguments")
        return 1
    target = args.dirs[0] if args.dirs else None
    show = False
    if target == "":
        return 0  # bash: `cd ""` stays where it is
    if target is None:
        home = st.get("HOME")
        if home is None:
            _err(ctx, "HOME not set")
            return 1
        target = to_text(home)
    elif target == "-":
        old = st.get("OLDPWD")
        if old is None:
            _err(ctx, "OLDPWD not set")
            return 1
        target = to_text(old)
        show = True
    path = interp.abspath(target)
    fs = interp.fs
    if not fs.is_dir(path):
        reason = "Not a directory" if fs.exists(path) else _missing_reason(fs, path)
        _err(ctx, f"{target}: {reason}")
        return 1
    if args.physical:
        try:
            path = fs.realpath(path)
        except Exception:  # noqa: BLE001
            pass
    st.set("OLDPWD", st.cwd)
    st.cwd = path
    pwd_var = st.lookup("PWD")
    if pwd_var is not None:
        pwd_var.value = path
    else:
        st.set("PWD", path, export=True)
    if show:
        ctx.write(path + "\n")
    return 0


@attrs.frozen(repr=False, eq=False)
class PwdArgs(Record):
    logical: bool = param(False, aliases=["-L"], help="the logical path (default)")
    physical: bool = param(False, aliases=["-P"], help="the path with symbolic links resolved")


@tool("pwd", args=PwdArgs,
      description="print the working directory; --json gives it as a string")
def pwd(args: PwdArgs, ctx: Context) -> int | OutputData:
    from tysh.kernel.tools.output import OutputData

    interp = _interp(ctx)
    path = interp.state.cwd
    if args.physical:
        try:
            path = interp.fs.realpath(path)
        except Exception:  # noqa: BLE001
            pass
    if ctx.json:
        return OutputData.text(path + "\n", rich_json=path)
    ctx.write(path + "\n")
    return 0


# ---------------------------------------------------------------- source


@attrs.frozen(repr=False, eq=False)
class SourceArgs(Record):
    file: str = param(positional=True, help="the script to run in this shell")
    args: tuple[str, ...] = param((), positional=True, help="its positional parameters")


def _missing_reason(fs: Any, path: str) -> str:
    """Why a path cannot be used: a sandbox denial says so rather than "No such file"."""
    try:
        fs.stat(path)
    except Exception as e:  # noqa: BLE001
        return str(getattr(e, "reason", "No such file or directory"))
    return "No such file or directory"


def _find_source(interp: Interpreter, name: str) -> str | None:
    fs = interp.fs
    if "/" in name:
        p = interp.abspath(name)
        return p if fs.is_file(p) else None
    path = interp.state.get("PATH")
    for d in to_text(path).split(":") if path is not None else ():
        if d:
            p = interp.abspath(d.rstrip("/") + "/" + name)
            if fs.is_file(p):
                return p
    p = interp.abspath(name)
    return p if fs.is_file(p) else None


def _fds(interp: Interpreter, ctx: Context) -> dict[int, Any]:
    """The shell's open descriptors with 0-2 the ones this builtin was given."""
    fds = dict(interp.cur_fds)
    fds[0], fds[1], fds[2] = ctx.stdin, ctx.stdout, ctx.stderr
    return fds


def _source(args: SourceArgs, ctx: Context) -> int:
    from tysh.kernel.base.errors import TyshSyntaxError

    interp = _interp(ctx)
    st = interp.state
    path = _find_source(interp, args.file)
    if path is None:
        _err(ctx, f"{args.file}: {_missing_reason(interp.fs, interp.abspath(args.file))}")
        return 1
    try:
        src = interp.fs.read_bytes(path).decode("utf-8", "surrogateescape")
    except Exception as e:  # noqa: BLE001
        _err(ctx, f"{args.file}: {getattr(e, 'reason', e)}")
        return 1
    try:
        script = interp.parse(src)
    except TyshSyntaxError as e:
        ctx.stderr.write((f"tysh: {args.file}: " + e.format()[6:] + "\n").encode())
        return 2
    fds = _fds(interp, ctx)
    saved = st.positional
    if args.args:
        st.positional = list(args.args)
    interp.source_depth += 1
    try:
        return interp.run_script(script, fds)
    except ReturnFromFunction as r:
        return r.status
    finally:
        interp.source_depth -= 1
        if args.args:
            st.positional = saved


@tool("source", args=SourceArgs, description="run a file's commands in the current shell",
      examples=[("load functions", "source ./lib.sh")])
def source(args: SourceArgs, ctx: Context) -> int:
    return _source(args, ctx)


@tool(".", args=SourceArgs, description="run a file's commands in the current shell (as source)")
def dot(args: SourceArgs, ctx: Context) -> int:
    return _source(args, ctx)


# ---------------------------------------------------------------- jobs


@attrs.frozen(repr=False, eq=False)
class WaitArgs(Record):
    ids: tuple[str, ...] = param((), positional=True, help="job ids ($!) to wait for; all by default")


@tool("wait", args=WaitArgs, description="wait for background jobs and return the last one's status")
def wait(args: WaitArgs, ctx: Context) -> int:
    interp = _interp(ctx)
    if not args.ids:
        return interp.wait_jobs(None)
    ids: list[int] = []
    for i in args.ids:
        t = i.lstrip("%")
        if not t.isdigit():
            _err(ctx, f"`{i}': not a pid or valid job spec")
            return 2
        ids.append(int(t))
    return interp.wait_jobs(ids)


# ---------------------------------------------------------------- unsupported


def _unsupported(name: str, alternative: str) -> Tool:
    @tool(name, raw_argv=True, description=f"not supported in tysh: {alternative}")
    def fn(args: RawArgs, ctx: Context) -> int:
        ctx.stderr.write(
            f"tysh: {name}: not supported in tysh; {alternative}\n".encode()
        )
        return 2

    return fn


eval_ = _unsupported("eval", "run the command directly, or put the code in a function")
trap = _unsupported("trap", "run cleanup explicitly at the end of the script, or use `cmd || handler`")
let = _unsupported("let", "use (( … )) for arithmetic, e.g. (( x += 1 ))")
exec_ = _unsupported("exec", "run the command directly; for redirections use { …; } > file")


# ---------------------------------------------------------------- getopts


# ---------------------------------------------------------------- shopt

# bash's shopt names; tysh has one of them, always on
_SHOPT_NAMES = frozenset(
    "autocd assoc_expand_once cdable_vars cdspell checkhash checkjobs checkwinsize cmdhist "
    "compat31 compat32 compat40 compat41 compat42 compat43 compat44 complete_fullquote "
    "direxpand dirspell dotglob execfail expand_aliases extdebug extglob extquote failglob "
    "force_fignore globasciiranges globskipdots globstar gnu_errfmt histappend histreedit "
    "histverify hostcomplete huponexit inherit_errexit interactive_comments lastpipe lithist "
    "localvar_inherit localvar_unset login_shell mailwarn no_empty_cmd_completion nocaseglob "
    "nocasematch noexpand_translation nullglob patsub_replacement progcomp "
    "progcomp_alias promptvars restricted_shell shift_verbose sourcepath varredir_close "
    "xpg_echo".split())
_SHOPT_ON = frozenset({"globstar"})
_SHOPT_WHY = {
    "globstar": "** is always recursive in tysh",
    "nullglob": "a glob that matches nothing is an error in tysh; test with [ -e ] first",
    "failglob": "a glob that matches nothing is always an error in tysh",
    "extglob": "extended patterns are not part of tysh's language",
    "dotglob": "a glob matches a hidden name only when its segment starts with '.'",
}


@tool("shopt", raw_argv=True,
      description="shell options: globstar is always on in tysh; the others are bash's only",
      examples=[("recursive globs (on already)", "shopt -s globstar"),
                ("is an option on?", "shopt -q globstar && echo on")])
def shopt(args: RawArgs, ctx: Context) -> int:
    words = [to_text(w) for w in args.positional]
    flags = ""
    while words and words[0].startswith("-") and len(words[0]) > 1:
        flags += words.pop(0)[1:]
    bad = [f for f in flags if f not in "supqo"]
    if bad:
        _err(ctx, f"-{bad[0]}: invalid option")
        ctx.error("usage: shopt [-pqsu] [-o] [optname ...]")
        return 2
    if "o" in flags:
        _err(ctx, "-o: use set -o to see and change tysh's set options")
        return 1
    for name in words:
        if name not in _SHOPT_NAMES:
            _err(ctx, f"{name}: invalid shell option name")
            return 1
    names = words or sorted(_SHOPT_NAMES)
    if "s" in flags or "u" in flags:
        on = "s" in flags
        for name in words:
            if (name in _SHOPT_ON) != on:
                why = _SHOPT_WHY.get(name, "tysh does not have this bash option")
                _err(ctx, f"{name}: cannot be turned {'on' if on else 'off'}: {why}")
                return 1
        return 0
    if "q" in flags:
        return 0 if all(n in _SHOPT_ON for n in names) else 1
    for name in names:
        if "p" in flags:
            ctx.write(f"shopt {'-s' if name in _SHOPT_ON else '-u'} {name}\n")
        else:
            ctx.write(f"{name:<15}\t{'on' if name in _SHOPT_ON else 'off'}\n")
    return 0 if not words or all(n in _SHOPT_ON for n in words) else 1


@tool("getopts", raw_argv=True, description="parse options in a script: getopts OPTSTRING NAME [ARGS…]")
def getopts(args: RawArgs, ctx: Context) -> int:
    interp = _interp(ctx)
    st = interp.state
    words = _texts(args.positional)
    if len(words) < 2:
        _err(ctx, "usage: getopts optstring name [arg ...]")
        return 2
    spec, name = words[0], words[1]
    argv = words[2:] if len(words) > 2 else list(st.positional)
    silent = spec.startswith(":")
    if silent:
        spec = spec[1:]
    try:
        optind = int(to_text(st.get("OPTIND") or "1"))
    except ValueError:
        optind = 1
    if optind < 1:
        optind = 1  # OPTIND=0 restarts, as OPTIND=1 does
    if optind != st.getopts_ind:
        st.getopts_pos = 0
    pos = st.getopts_pos

    def done() -> int:
        st.set(name, "?")
        st.set("OPTIND", str(optind))
        st.getopts_ind, st.getopts_pos = optind, 0
        return 1

    if optind > len(argv):
        optind = len(argv) + 1  # as bash: past the end is just after the last argument
        return done()
    arg = argv[optind - 1]
    if pos == 0:
        if arg == "--":
            optind += 1
            return done()
        if len(arg) < 2 or not arg.startswith("-"):
            return done()
        pos = 1
    c = arg[pos]
    pos += 1
    at_end = pos >= len(arg)
    idx = spec.find(c)
    optarg: str | None = None
    result = c
    if idx < 0 or c == ":":
        if silent:
            optarg = c
        else:
            ctx.stderr.write(f"tysh: illegal option -- {c}\n".encode("utf-8", "surrogateescape"))
        result = "?"
    elif idx + 1 < len(spec) and spec[idx + 1] == ":":
        if not at_end:
            optarg = arg[pos:]
            at_end = True
        elif optind < len(argv):
            optarg = argv[optind]
            optind += 1
        else:
            if silent:
                result, optarg = ":", c
            else:
                ctx.stderr.write(
                    f"tysh: option requires an argument -- {c}\n".encode("utf-8", "surrogateescape")
                )
                result = "?"
    if at_end:
        optind += 1
        pos = 0
    st.getopts_ind, st.getopts_pos = optind, pos
    st.set("OPTIND", str(optind))
    if optarg is None:
        st.unset("OPTARG")
    else:
        st.set("OPTARG", optarg)
    st.set(name, result)
    return 0


# ---------------------------------------------------------------- alias


@tool("alias", raw_argv=True, description="define or list aliases (expanded in the REPL only)")
def alias(args: RawArgs, ctx: Context) -> int:
    st = _interp(ctx).state
    words = _texts(args.positional)
    if not words or words == ["-p"]:
        for k in sorted(st.aliases):
            ctx.write(f"alias {k}={quote_alias(st.aliases[k])}\n")
        return 0
    status = 0
    for w in words:
        if "=" in w:
            k, _, v = w.partition("=")
            st.aliases[k] = v
        elif w in st.aliases:
            ctx.write(f"alias {w}={quote_alias(st.aliases[w])}\n")
        else:
            _err(ctx, f"{w}: not found")
            status = 1
    return status


@tool("unalias", raw_argv=True, description="remove aliases (-a: all)")
def unalias(args: RawArgs, ctx: Context) -> int:
    st = _interp(ctx).state
    status = 0
    for w in _texts(args.positional):
        if w == "-a":
            st.aliases.clear()
        elif st.aliases.pop(w, None) is None:
            _err(ctx, f"{w}: not found")
            status = 1
    return status


# ---------------------------------------------------------------- command / builtin


def _run_named(ctx: Context, words: list[Any], *, builtin_only: bool) -> int:
    from tysh.kernel.base.argv import Operand, classify
    from tysh.kernel.run.simple_command import call_tool, invoke

    interp = _interp(ctx)
    texts = _texts(words)
    name = texts[0]
    args = classify(texts[1:])
    # keep typed values that came through as operands
    args = [Operand(w, True) if type(a) is Operand and type(w) is not str else a
            for a, w in zip(args, words[1:], strict=False)]
    fds = _fds(interp, ctx)
    if builtin_only:
        t = interp.registry.builtin(name)
        if t is None:
            _err(ctx, f"{name}: not a shell builtin")
            return 1
        return call_tool(interp, t, name, args, fds)
    return invoke(interp, name, args, fds, None, functions=False)


@tool("command", raw_argv=True, operations=["proc.exec"],
      description="run a command skipping functions; -v/-V say how a name would run")
def command(args: RawArgs, ctx: Context) -> int:
    interp = _interp(ctx)
    words = list(args.positional)
    describe = ""
    while words and isinstance(words[0], str) and words[0] in ("-v", "-V", "-p", "--"):
        w = words.pop(0)
        if w == "--":
            break
        if w in ("-v", "-V"):
            describe = w
    if not words:
        return 0
    if describe:
        status = 0
        for n in _texts(words):
            kind, detail = interp.resolve(n)
            if not kind:
                if describe == "-V":
                    _err(ctx, f"{n}: not found")
                status = 1
            elif describe == "-v":
                ctx.write((detail if kind == "file" else
                           f"alias {n}={quote_alias(detail)}" if kind == "alias" else n) + "\n")
            else:
                ctx.write(describe_kind(n, kind, detail) + "\n")
        return status
    return _run_named(ctx, words, builtin_only=False)


@tool("builtin", raw_argv=True, description="run a builtin, even when a function has its name")
def builtin(args: RawArgs, ctx: Context) -> int:
    words = list(args.positional)
    if not words:
        return 0
    return _run_named(ctx, words, builtin_only=True)


TOOLS: list[Tool] = [
    read, mapfile, readarray, cd, pwd, export, unset, local, declare, typeset, readonly, shift, set_, exit_,
    return_, break_, continue_, source, dot, wait, eval_, trap, let, getopts, alias, unalias,
    exec_, command, builtin, shopt,
]
