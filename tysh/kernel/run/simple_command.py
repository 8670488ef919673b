"""Simple commands: prefix assignments, resolution, binding and running a tool,
a function or an external command.

This is the interpreter's hot path (`Kernel.execute("echo hi")` goes through it once),
so the common case — a literal command name, no assignments, no redirections — takes
no detour: no temporary frame, no copy of the fd table, no thread."""

from __future__ import annotations

import io

from tysh.kernel.base import stop
from tysh.kernel.base.argv import Arg, DoubleDash, Flag, Operand, word_value
from tysh.kernel.base.control import ExitShell, ReturnFromFunction
from tysh.kernel.base.errors import ExpansionError, VarError
from tysh.kernel.base.hints import cast
from tysh.kernel.base.limits import (
    NO_CHARGES,
    UNBOUNDED,
    Charges,
    LimitExceeded,
    MemoryLimitExceeded,
)
from tysh.kernel.base.streams import ABANDONED, NOT_TERMINALS, CheckedBytesIO, Fds
from tysh.kernel.base.values import (
    FAR_GAP,
    AssocArray,
    SparseList,
    array_end,
    array_get,
    encode_text,
    mend,
    starts_mid_character,
    to_text,
)
from tysh.kernel.expand.words import eval_arith_word, expand_args
from tysh.kernel.fs.api import FsError
from tysh.kernel.run.redirects import RedirectError, apply_redirects, close_all
from tysh.kernel.run.state import CallFrame, TempFrame, Var
from tysh.kernel.syntax import ast
from tysh.kernel.tools.context import new_context
from tysh.kernel.tools.output import STREAMED, OutputData
from tysh.kernel.tools.tool import Outcome, Tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import IO, Any

    from tysh.kernel.bind import binder, fast
    from tysh.kernel.run.interpreter import Interpreter
    from tysh.kernel.run.plan import Plan
    from tysh.kernel.tools.schema import ToolSchema

    # a constant command's binding, kept to be handed out again: (the tool it was bound
    # for, the leaf, its args instance, `--json`, the subcommand path)
    Bound = tuple[Tool, Tool, Any, bool, tuple[str, ...]]
    # (name, arguments, `$_`, a one-slot memo of its Bound)
    Known = tuple[str, tuple[Arg, ...], str, list[Bound | None]]
else:  # loaded by the first tool that binds its words: `echo`, `[`, `cd` never do
    from tysh.kernel.base.lazymod import LazyModule

    binder = LazyModule(globals(), "binder", "tysh.kernel.bind.binder")
    fast = LazyModule(globals(), "fast", "tysh.kernel.bind.fast")

_SPECIAL_NAME_CHARS = frozenset("*?[{~")
_NO_WORDS: frozenset[int] = frozenset()


def _literal_name(word: ast.Word) -> str | None:
    """The command name when the first word is plain text with nothing to expand."""
    parts = word.parts
    if len(parts) == 1:
        p = parts[0]
        if type(p) is ast.Lit:
            t = p.text
            # (a lone `[` is a name: an unclosed bracket globs nothing)
            return t if _SPECIAL_NAME_CHARS.isdisjoint(t) or t == "[" else None
        if type(p) is ast.Quoted:
            return p.text
    return None


def arg_text(a: Arg) -> str:
    if type(a) is Operand:
        return to_text(a.value)
    if type(a) is Flag:
        if a.value is not None:
            return a.text + "=" + to_text(a.value)
        return a.text
    return "--"


# syntax tree node id → (node, its command name, arguments, `$_` and binding memo when
# every word is constant text, else None); the entry holds the node, so an id is not
# reused while it lives
_CONSTANT: dict[int, tuple[ast.SimpleCommand, Known | None]] = {}
# the characters that make a literal word more than its text (expand_args' rule)
_LIVE = frozenset("{*?[(~\\")


# whether a constant command keeps its binding for its next run (`call_tool`'s memo);
# tests turn it off to compare with binding every run
REUSE_BINDINGS = True


def constant_words(interp: Interpreter, cmd: ast.SimpleCommand) -> Known | None:
    """The command name, arguments and `$_` of a command whose words are all constant
    text (plain or quoted, nothing to expand, no assignment, redirection or declaration
    argument): they never change, so they are worked out once per syntax node, and so
    is their binding when a later run may be handed it again (`call_tool`'s memo)."""
    hit = _CONSTANT.get(id(cmd))
    if hit is not None and hit[0] is cmd:
        return hit[1]
    words = cmd.words
    got: Known | None = None
    first = words[0].parts if words else ()
    if len(first) == 1 and not cmd.assigns and not cmd.redirects and not cmd.arg_assigns and (
            type(first[0]) is ast.Quoted or type(first[0]) is ast.Lit and (
                _LIVE.isdisjoint(first[0].text) or first[0].text == "[")) and all(
            _constant_word(w) for w in words[1:]):
        name = cast("ast.Lit | ast.Quoted", words[0].parts[0]).text
        args = tuple(expand_args(words[1:], interp))
        got = (name, args, arg_text(args[-1]) if args else name, [None])
    if len(_CONSTANT) >= 4096:
        _CONSTANT.clear()
    _CONSTANT[id(cmd)] = (cmd, got)
    return got


def _constant_word(w: ast.Word) -> bool:
    """Whether a word is constant text: quoted pieces (`'…'`, `"…"` with nothing to
    expand) and plain text with nothing to expand (`-d' '`, `-d" "`), or a lone `[`."""
    parts = w.parts
    if len(parts) == 1 and type(parts[0]) is ast.Lit and parts[0].text == "[":
        return True
    for p in parts:
        if type(p) is ast.Lit:
            if not _LIVE.isdisjoint(p.text):
                return False
        elif type(p) is ast.DQ:
            if not all(type(q) is ast.Quoted for q in p.parts):
                return False
        elif type(p) is not ast.Quoted:
            return False
    return True


def run_simple(interp: Interpreter, cmd: ast.SimpleCommand, fds: Fds) -> int:
    interp.last_typed = False
    interp.last_data = None
    interp.cmdsub_status = None
    st = interp.state
    known = constant_words(interp, cmd)
    if known is not None:
        name, fixed, last, memo = known
        fn = st.functions.get(name)
        tool: Tool | None = None
        if fn is None:
            tool = interp.registry.tool(name)
            if st.disabled and name in st.disabled:  # `enable -n NAME`
                tool = interp.registry.registered.get(name)
        if interp.events is None and "xtrace" not in st.options:
            # nothing to declare, redirect, assign, trace or report
            st.last_arg = last
            if fn is not None:
                return call_function(interp, fn, name, list(fixed), fds)
            if tool is not None:
                if prepared(known, tool):  # (so memo[0] holds its binding)
                    return call_leaf(interp, memo[0], name, fds)  # type: ignore[arg-type]
                return call_tool(interp, tool, name, list(fixed), fds, memo)
        args = list(fixed)
    else:
        words = cmd.words
        try:
            if not words:
                return _assignments_only(interp, cmd, fds)
            # the command name: the first word that expands to something
            i = 0
            n = len(words)
            pre: list[Arg] = []
            name_: str | None = None
            while i < n:
                w = words[i]
                i += 1
                lit = _literal_name(w)
                if lit is not None:
                    name_ = lit
                    break
                got = expand_args((w,), interp)
                if got:
                    name_ = arg_text(got[0])
                    pre = list(got[1:])
                    break
            if name_ is None:
                # every word expanded to nothing: like an assignment-only command
                return _assignments_only(interp, cmd, fds)
            name = name_
            fn = st.functions.get(name)
            tool = None
            if fn is None:
                tool = interp.registry.tool(name)
                if st.disabled and name in st.disabled:  # `enable -n NAME`
                    tool = interp.registry.registered.get(name)
            rest = words[i:]
            if rest:
                assign_words = _shifted(cmd.arg_assigns, i) if cmd.arg_assigns else _NO_WORDS
                if tool is None:
                    more = expand_args(rest, interp, assign_words=assign_words)
                elif tool.schema.glob_passthrough:
                    more = expand_args(rest, interp, glob_passthrough=True,
                                       assign_words=assign_words)
                else:
                    patterns = _unglobbed(tool.schema)
                    more = (_expand_with_patterns(rest, interp, patterns, assign_words)
                            if patterns else expand_args(rest, interp,
                                                         assign_words=assign_words))
                args = pre + more if pre else more
            else:
                args = pre
        except ExpansionError as e:
            return interp.fail_expansion(e, fds)
        last = arg_text(args[-1]) if args else name

    st.last_arg = last
    if "xtrace" in st.options:
        _trace(interp, cmd, name, args, fds)
    if interp.events is not None:
        from tysh.kernel.run.events import observed

        return observed(interp, cmd, name, fn, tool, args, fds,
                        _dispatcher(interp, cmd, name, fn, tool, args))
    if known is not None:  # no declaration, redirection or assignment to apply
        if fn is not None:
            return call_function(interp, fn, name, args, fds)
        if tool is not None:
            return call_tool(interp, tool, name, args, fds)
    return _dispatch(interp, cmd, name, fn, tool, args, fds)


# (run_simple makes its closures here: a function that makes one pays for a cell per
# variable it captures on every call, whether or not the closure is made)
def _shifted(arg_assigns: Sequence[tuple[int, Any]], i: int) -> frozenset[int]:
    """The indexes of the assignment words among the words from `i` on, counted from
    there."""
    return frozenset(k - i for k, _ in arg_assigns if k >= i)


def _dispatcher(interp: Interpreter, cmd: ast.SimpleCommand, name: str, fn: Any,
                tool: Tool | None, args: list[Arg]) -> Callable[[Fds], int]:
    """`_dispatch` of this command, given the descriptors to run it on."""
    return lambda f: _dispatch(interp, cmd, name, fn, tool, args, f)


def prepared(known: Known, tool: Tool) -> bool:
    """Whether the constant command `known` may run as `tool` with the binding an
    earlier run kept for that tool (`call_tool`'s memo, in `known[3][0]`), straight
    through `call_leaf`. The caller has found that its name means `tool` now (no
    function, not turned off), and that the shell reports no events and traces
    nothing."""
    bound = known[3][0]
    return bound is not None and bound[0] is tool and REUSE_BINDINGS


def _dispatch(interp: Interpreter, cmd: ast.SimpleCommand, name: str, fn: Any,
              tool: Tool | None, args: list[Arg], fds: Fds) -> int:
    """Run a resolved command: a declaration, redirections, prefix assignments, then the
    function, tool or external program."""
    if cmd.arg_assigns and fn is None and tool is not None:
        return _declaration(interp, cmd, name, tool, args, fds)
    if cmd.redirects:
        if name == "exec" and fn is None and (not args or (
                len(args) == 1 and type(args[0]) is DoubleDash)):  # `exec -- 3>&1` too
            return exec_redirects(interp, cmd, fds)
        return _redirected(interp, cmd, name, fn, tool, args, fds)
    if cmd.assigns:
        return _with_assignments(interp, cmd, name, fn, tool, args, fds)
    if fn is not None:
        return call_function(interp, fn, name, args, fds)
    if tool is not None:
        return call_tool(interp, tool, name, args, fds)
    return run_external_cmd(interp, name, args, fds, None)


# schema → the option spellings whose value is never globbed, by id(schema); the entry
# holds its schema, so an id is never reused while its entry lives
_UNGLOBBED: dict[int, tuple[ToolSchema, frozenset[str]]] = {}


def _unglobbed(schema: ToolSchema) -> frozenset[str]:
    """`schema.unglobbed_options()`, remembered per schema (it is asked for on every
    command, and schemas are immutable)."""
    hit = _UNGLOBBED.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    got = schema.unglobbed_options()
    if len(_UNGLOBBED) > 4096:
        _UNGLOBBED.clear()
    _UNGLOBBED[id(schema)] = (schema, got)
    return got


def _expand_with_patterns(words: Sequence[ast.Word], interp: Interpreter,
                          options: frozenset[str], assign_words: frozenset[int]) -> list[Arg]:
    """A tool's words when some options take a pattern (`grep --include=*.py`, `find
    -name *.py`): the value of such an option, attached after `=` or as the next word,
    is passed as written instead of globbed against the files here."""
    out: list[Arg] = []
    after_option = False
    for k, w in enumerate(words):
        passthrough = after_option or _attached_pattern(w, options)
        got = expand_args((w,), interp, glob_passthrough=passthrough,
                          assign_words=frozenset({0}) if k in assign_words else frozenset())
        out.extend(got)
        after_option = (not passthrough and len(got) == 1 and type(got[0]) is Flag
                        and got[0].text in options)
    return out


def _attached_pattern(w: ast.Word, options: frozenset[str]) -> bool:
    """Whether the word is `--option=VALUE` for one of `options`, spelled literally."""
    first = w.parts[0] if w.parts else None
    if type(first) is not ast.Lit:
        return False
    text = first.text
    eq = text.find("=")
    return eq > 0 and text.startswith("-") and text[:eq] in options


def _trace(interp: Interpreter, cmd: ast.SimpleCommand, name: str, args: list[Arg],
           fds: Fds) -> None:
    """`set -x`: the prefix assignments (one line each, as bash), then the command."""
    from tysh.kernel.run.xtrace import trace

    for a in cmd.assigns:
        try:
            value = to_text(assignment_value(interp, a))
        except ExpansionError:
            continue
        trace(interp, fds, [f"{a.name}={value}"])
    trace(interp, fds, [name, *(arg_text(a) for a in args)])


def _declaration(
    interp: Interpreter, cmd: ast.SimpleCommand, name: str, tool: Tool, args: list[Arg],
    fds: Fds,
) -> int:
    """`declare a=(…)`, `local m=([k]=v)`: the builtin sees each argument as text; the
    array literals written in the source ride along so it can expand them as bash does
    (a quoted `"(…)"` stays a plain string)."""
    arrays: dict[str, ast.ArrayLit] = {}
    for i, a in cmd.arg_assigns:
        if isinstance(a.value, ast.ArrayLit):
            part = cmd.words[i].parts[0]
            if type(part) is ast.Quoted:
                arrays[part.text] = a.value
    saved = interp.decl_arrays
    interp.decl_arrays = arrays or None
    try:
        if cmd.redirects:
            return _redirected(interp, cmd, name, None, tool, args, fds)
        if cmd.assigns:
            return _with_assignments(interp, cmd, name, None, tool, args, fds)
        return call_tool(interp, tool, name, args, fds)
    finally:
        interp.decl_arrays = saved


def exec_redirects(interp: Interpreter, cmd: ast.SimpleCommand, fds: Fds) -> int:
    """`exec 3>f`, `exec >log 2>&1`, `exec <f`, `exec 3>&-`: the redirections change the
    shell's own descriptors (the table the rest of the script runs with). Files they
    open stay open until the shell ends or a later `exec` replaces or closes them."""
    try:
        new, opened = apply_redirects(interp, cmd.redirects, fds)
    except RedirectError as e:
        interp.error(fds, e.message)
        return 1
    except ExpansionError as e:
        return interp.fail_expansion(e, fds)
    for a in cmd.assigns:  # `X=1 exec 3>f`: bash keeps the assignment
        try:
            do_assign(interp, a)
        except VarError as e:
            interp.error(fds, "tysh: " + e.message)
    fds.clear()
    fds.update(new)
    held = interp.exec_opened
    held.extend(opened)
    live = {id(s) for s in fds.values()}
    keep = [s for s in held if id(s) in live]
    if len(keep) != len(held):
        close_all([s for s in held if id(s) not in live], interp.reporter(fds))
        held[:] = keep
    interp.cur_fds = fds
    return 0


def _redirected(
    interp: Interpreter,
    cmd: ast.SimpleCommand,
    name: str,
    fn: Any,
    tool: Tool | None,
    args: list[Arg],
    outer: Fds,
) -> int:
    try:
        fds, opened = apply_redirects(interp, cmd.redirects, outer)
    except RedirectError as e:
        interp.error(outer, e.message)
        return 1
    except ExpansionError as e:
        return interp.fail_expansion(e, outer)
    interp.cur_fds = fds
    status = 1
    try:
        if cmd.assigns:
            status = _with_assignments(interp, cmd, name, fn, tool, args, fds)
        elif fn is not None:
            status = call_function(interp, fn, name, args, fds)
        elif tool is not None:
            status = call_tool(interp, tool, name, args, fds)
        else:
            status = run_external_cmd(interp, name, args, fds, None)
    finally:
        if opened and close_all(opened, interp.reporter(outer)):
            status = status or 1
    return status


def invoke(
    interp: Interpreter,
    name: str,
    args: list[Arg],
    fds: Fds,
    extra_env: dict[str, str] | None,
    *,
    functions: bool = True,
    exact_env: bool = False,
) -> int:
    """Run a command by name with already expanded arguments (run_argv, `command`)."""
    fn = interp.state.functions.get(name) if functions else None
    tool = None
    if fn is None:
        tool = interp.registry.tool(name)
        disabled = interp.state.disabled
        if disabled and name in disabled:
            tool = interp.registry.registered.get(name)
    if interp.events is not None:
        from tysh.kernel.run.events import observed

        return observed(interp, None, name, fn, tool, args, fds,
                        _invoker(interp, name, fn, tool, args, extra_env, exact_env))
    return _invoke(interp, name, fn, tool, args, fds, extra_env, exact_env)


def _invoker(interp: Interpreter, name: str, fn: Any, tool: Tool | None, args: list[Arg],
             extra_env: dict[str, str] | None, exact_env: bool) -> Callable[[Fds], int]:
    """`_invoke` of this command, given the descriptors to run it on (made here: a
    closure made in `invoke` would cost it a cell per variable on every call)."""
    return lambda f: _invoke(interp, name, fn, tool, args, f, extra_env, exact_env)


def _invoke(interp: Interpreter, name: str, fn: Any, tool: Tool | None, args: list[Arg],
            fds: Fds, extra_env: dict[str, str] | None, exact_env: bool) -> int:
    if fn is not None:
        return call_function(interp, fn, name, args, fds)
    if tool is not None:
        return call_tool(interp, tool, name, args, fds)
    return run_external_cmd(interp, name, args, fds, extra_env, exact_env=exact_env)


# ---------------------------------------------------------------- assignments


def assignment_value(interp: Interpreter, a: ast.Assign) -> Any:
    """The value an assignment stores: a scalar (text or typed) or a list/dict."""
    v = a.value
    if isinstance(v, ast.ArrayLit):
        return array_value(interp, a.name, v, _merges(a, v))
    return interp.expand_value(v)


def _merges(a: ast.Assign, lit: ast.ArrayLit) -> bool:
    """`a+=([k]=v …)`: keyed elements land in the array as it is (not after its end)."""
    return a.append and any(e.key is not None for e in lit.elements)


def array_value(interp: Interpreter, name: str, lit: ast.ArrayLit, merge: bool = False) -> Any:
    """The list or dict an array literal makes; `merge`: the array's current elements
    with the literal's assigned into them (`a+=([k]=v)`). `[k]+=v` adds to element k."""
    cur = interp.state.get(name)
    keyed = any(e.key is not None for e in lit.elements)
    if isinstance(cur, dict):
        out: dict[str, Any] = AssocArray(cur) if merge else AssocArray()
        if not keyed:
            # bash 5.1+: `m=(k1 v1 k2 v2)` pairs keys and values
            flat = [to_text(x) for x in interp.expand_list(tuple(e.value for e in lit.elements))]
            for k in range(0, len(flat), 2):
                out[flat[k]] = flat[k + 1] if k + 1 < len(flat) else ""
            return out
        for e in lit.elements:
            if e.key is not None:
                key = interp.expand_word_text(e.key)
                val = interp.expand_value(e.value)
                if e.append:
                    val = to_text(out.get(key, "")) + to_text(val)
                out[key] = val
            else:
                for item in interp.expand_list((e.value,)):
                    out[str(len(out))] = item
        return out
    if not keyed:
        return interp.expand_list(tuple(e.value for e in lit.elements))
    base = cur if isinstance(cur, list) else [] if cur is None else [cur]
    arr: list[Any] = base.copy() if merge else []
    idx = array_end(arr)
    if not merge:
        idx = 0
    for e in lit.elements:
        if e.key is not None:
            idx = interp.eval_arith(e.key)
            if idx < 0:
                idx += array_end(arr)
            val = interp.expand_value(e.value)
            if e.append:
                old = array_get(arr, idx) if idx >= 0 else None
                val = (to_text(old) if old is not None else "") + to_text(val)
            vals = [val]
        else:
            vals = interp.expand_list((e.value,))
        for val in vals:
            if idx < 0:
                raise VarError(f"{name}[{idx}]: bad array subscript")
            if idx < len(arr):
                arr[idx] = val
            elif type(arr) is SparseList or idx - len(arr) > FAR_GAP:
                if type(arr) is not SparseList:  # far past the end: kept by index
                    arr = SparseList(arr)
                arr.far[idx] = val
            else:
                arr.extend([None] * (idx + 1 - len(arr)))
                arr[idx] = val
            idx += 1
    return arr


def _plain_value(interp: Interpreter, a: ast.Assign) -> str | None:
    """The value of `name=text` or `name=$((…))` (one literal or arithmetic part, no
    index, no `+=`) computed directly, as expand_value would; None for anything else."""
    if a.index is not None or a.append:
        return None
    v = a.value
    if type(v) is not ast.Word:
        return None
    parts = v.parts
    if len(parts) != 1:
        return None
    p = parts[0]
    tp = type(p)
    if tp is ast.ArithSub:
        try:
            return str(eval_arith_word(p.expr, interp))  # type: ignore[union-attr]
        except ExpansionError as e:
            e.fatal = True  # as a `$((…))` anywhere else
            raise
    if tp is ast.Quoted:
        return p.text  # type: ignore[union-attr]
    if tp is ast.Lit:
        t: str = p.text  # type: ignore[union-attr]
        if "~" not in t:
            return t
    return None


def do_assign(interp: Interpreter, a: ast.Assign, pre: Any = None) -> None:
    """Perform one assignment in the current scope (errors raise VarError); `pre` is
    the value when the caller expanded it already."""
    st = interp.state
    name = a.name
    if pre is not None and a.index is None and not a.append and type(a.value) is ast.Word:
        value: Any = pre
    elif pre is not None:
        value = None
    else:
        value = _plain_value(interp, a)
    if value is not None:
        var = st.lookup(name)
        if var is None:
            st.set(name, value)
            return
        if not var.integer and not var.readonly and not var.case and not isinstance(
                var.value, list) and type(var.value) is not AssocArray:
            var.value = value  # what st.set does to the variable lookup found
            return
    else:
        value = assignment_value(interp, a) if pre is None else pre
        var = st.lookup(name)
    if a.index is not None:
        cur = var.value if var is not None else None
        if isinstance(cur, dict):
            key: Any = interp.expand_word_text(a.index)
        else:
            key = interp.eval_arith(a.index)
        if var is not None and var.integer:
            value = interp.eval_arith_text(to_text(value))
        if a.append:
            old = _get_index(cur, key)
            tail = to_text(value)
            value = (to_text(old) if old is not None else "") + tail
            if starts_mid_character(tail):
                value = mend(value)  # the rest of a character cut apart in the C locale
        st.set_index(name, key, value)
        return
    if isinstance(value, (list, dict)) and isinstance(a.value, ast.ArrayLit):
        if a.append and not _merges(a, a.value):
            st.append_values(name, value)
        else:
            st.set(name, value)
        return
    if var is not None and var.integer:
        if a.append:
            value = interp.eval_arith_text(
                f"({to_text(var.value) or 0})+({to_text(value) or 0})"
            )
        else:
            value = interp.eval_arith_text(to_text(value) or "0")
        st.set(name, value if isinstance(value, str) else str(value))
        return
    if a.append and var is not None and var.value is not None:
        cur = var.value
        if isinstance(cur, list):
            if cur:
                cur[0] = to_text(cur[0]) + to_text(value)
            else:
                cur.append(to_text(value))
            return
        tail = to_text(value)
        value = to_text(cur) + tail
        if "\udc80" <= tail[:1] <= "\udcbf":  # starts_mid_character, inlined: hot path
            value = mend(value)  # the rest of a character cut apart in the C locale
    if var is not None and isinstance(var.value, list) and not isinstance(value, list):
        if var.readonly:
            raise VarError(f"{name}: readonly variable")
        if var.value:
            var.value[0] = value
        else:
            var.value.append(value)
        return
    if var is not None and type(var.value) is AssocArray and not isinstance(value, dict):
        st.set_index(name, "0", value)  # bash: `A=x` is `A[0]=x`
        return
    st.set(name, value)


def _get_index(cur: Any, key: Any) -> Any:
    if isinstance(cur, dict):
        return cur.get(str(key))
    if isinstance(cur, list):
        try:
            return cur[int(key)]
        except (IndexError, ValueError):
            return None
    return cur if key in (0, "0") else None


def _assignments_only(interp: Interpreter, cmd: ast.SimpleCommand, fds: Fds) -> int:
    opened: list[IO[bytes]] = []
    if cmd.redirects:
        try:
            fds, opened = apply_redirects(interp, cmd.redirects, fds)
        except RedirectError as e:
            interp.error(fds, e.message)
            return 1
    outer = fds
    interp.state.last_arg = ""
    traced = "xtrace" in interp.state.options
    try:
        for a in cmd.assigns:
            try:
                if traced:
                    _trace_assign(interp, a, fds)
                else:
                    do_assign(interp, a)
            except VarError as e:
                # bash abandons the rest of the line (the shell goes on with the next)
                interp.error(fds, "tysh: " + e.message)
                raise ExitShell(1, expansion=True) from None
    except ExpansionError as e:
        return interp.fail_expansion(e, fds)
    finally:
        if opened and close_all(opened, interp.reporter(outer)):
            interp.cmdsub_status = 1
    s = interp.cmdsub_status
    return s if s is not None else 0


def _trace_assign(interp: Interpreter, a: ast.Assign, fds: Fds) -> None:
    """`set -x` on `x=v`: bash shows `$PS4` as it was before the assignment and the
    value as expanded (after any `$(…)` in it has run), an array literal as written
    (before its elements expand)."""
    from tysh.kernel.run.xtrace import prefix, quote, trace_line
    from tysh.kernel.syntax.unparse import assign_head, assign_source

    lead = prefix(interp)
    if isinstance(a.value, ast.ArrayLit):
        trace_line(interp, fds, assign_source(a), lead)
        do_assign(interp, a)
        return
    value = assignment_value(interp, a)
    text = to_text(value)
    trace_line(interp, fds, assign_head(a) + (quote(text) if text else ""), lead)
    do_assign(interp, a, value)


def _with_assignments(
    interp: Interpreter,
    cmd: ast.SimpleCommand,
    name: str,
    fn: Any,
    tool: Tool | None,
    args: list[Arg],
    fds: Fds,
) -> int:
    """`A=1 cmd`: the assignments hold for the command only (exported to it)."""
    st = interp.state
    if fn is None and tool is None:
        # each value sees the ones before it (`A=1 B=$A cmd`), as in bash
        env: dict[str, str] = {}
        scratch: dict[str, Var] = {}
        st.frames.append(scratch)
        try:
            for a in cmd.assigns:
                text = to_text(assignment_value(interp, a))
                env[a.name] = text
                scratch[a.name] = Var(text, exported=True)
        except ExpansionError as e:
            return interp.fail_expansion(e, fds)
        finally:
            for k in range(len(st.frames) - 1, 0, -1):
                if st.frames[k] is scratch:
                    del st.frames[k]
                    break
        return run_external_cmd(interp, name, args, fds, env)
    frame = TempFrame() if fn is None else CallFrame()
    st.frames.append(frame)
    try:
        try:
            for a in cmd.assigns:
                frame[a.name] = Var(assignment_value(interp, a), exported=True)
        except ExpansionError as e:
            return interp.fail_expansion(e, fds)
        if fn is not None:
            return call_function(interp, fn, name, args, fds)
        assert tool is not None
        return call_tool(interp, tool, name, args, fds)
    finally:
        # the frame may not be the last any more only if a builtin pushed one and
        # failed to pop it; remove ours wherever it is
        for k in range(len(st.frames) - 1, 0, -1):
            if st.frames[k] is frame:
                del st.frames[k]
                break


# ---------------------------------------------------------------- functions


def call_function(
    interp: Interpreter, fn: ast.FunctionDef, name: str, args: list[Arg], fds: Fds
) -> int:
    return run_function(interp, fn, name, [arg_text(a) for a in args], fds)


def run_function(
    interp: Interpreter, fn: ast.FunctionDef, name: str, argv: list[str], fds: Fds,
    steps: Plan | None = None,
) -> int:
    """Call a shell function with `argv` as its positional parameters: a new scope, the
    call stack (`FUNCNAME`, `BASH_LINENO`, `BASH_SOURCE`) grown by one frame; `$_` is
    the call's last argument (or the name) in the body and after it. `steps`: the
    planned statements of the body, a `{ …; }` without redirections, when the caller
    holds them (run/plan.py) and has made `fds` the current ones (`interp.cur_fds`)."""
    st = interp.state
    last = st.last_arg = argv[-1] if argv else name
    depth = st.func_depth
    if depth >= interp.limits.max_function_depth:
        raise LimitExceeded(
            f"tysh: {name}: maximum function nesting exceeded "
            f"({interp.limits.max_function_depth})"
        )
    saved_pos = st.positional
    saved_loop = st.loop_depth
    stmt = st.stmt
    st.positional = argv
    frames = st.frames
    frames.append({})
    st.func_depth = depth + 1
    calls = st.calls
    files = st.func_files
    calls.append((name, stmt.pos.line if stmt is not None else 0,
                  files.get(name, "environment") if files else "environment"))
    st.loop_depth = 0
    try:
        if steps is not None:  # _run_group and run_steps of the planned body, inlined
            procsubs = interp.procsubs
            mark = len(procsubs)
            control = interp.control
            status = 0
            try:
                for s, step in steps:
                    st.stmt = s  # for $LINENO
                    if control.cancelled or interp.deadline is not None or control.pending:
                        interp.check_boundary()
                    if step is not None:
                        status = step(interp, s, fds)
                    elif s.background:
                        status = st.last_status = interp.start_job(s, fds)
                    else:
                        status = interp.run_andor(s.body, fds)
            except ExpansionError as e:
                status = interp.fail_expansion(e, fds)
            finally:
                if len(procsubs) > mark:
                    from tysh.kernel.run.procsub import finish

                    finish(interp, mark)
        elif type(fn.body) is ast.BraceGroup and not fn.body.redirects:
            status = _run_group(interp, fn.body, None, fds)
        else:
            status = interp.run_command(fn.body, fds)
    except ReturnFromFunction as r:
        status = r.status
    finally:
        st.positional = saved_pos
        st.loop_depth = saved_loop
        st.stmt = stmt
        st.last_arg = last
        st.func_depth = depth
        calls.pop()
        frames.pop()
    return status


def _run_group(interp: Interpreter, group: ast.Command, steps: Plan | None,
               fds: Fds) -> int:
    """`interp.run_command` of a `{ …; }` without redirections (a function's usual
    body), without the command layer's dispatch; `steps`: its statements planned."""
    interp.cur_fds = fds
    mark = len(interp.procsubs)
    try:
        if steps is not None:
            return interp.run_steps(steps, fds)
        assert type(group) is ast.BraceGroup
        return interp.run_script(group.body, fds)
    except ExpansionError as e:
        return interp.fail_expansion(e, fds)
    finally:
        if len(interp.procsubs) > mark:
            from tysh.kernel.run.procsub import finish

            finish(interp, mark)


# ---------------------------------------------------------------- tools


def call_tool(interp: Interpreter, tool: Tool, name: str, args: list[Arg], fds: Fds,
              memo: list[Bound | None] | None = None) -> int:
    """Bind the words and run the tool. `memo` (a constant command's) keeps the binding
    for the next run of the same words, when it may be handed out again (`reusable`:
    the tool can change nothing of it) and no direct answer or writer could take the
    words first."""
    direct = tool.direct
    if direct is not None:  # `[ $i -lt 10 ]`: no binding, no Context (see ToolDirect)
        got = direct([v if type(v) is str else to_text(v) for v in map(word_value, args)])
        if got is not None:
            return got
    writer = tool.writer
    if writer is not None:  # `echo hi`: no binding, no Context (see ToolWriter)
        stdout = fds.get(1)
        if stdout is not None:
            words = [a.value for a in args if type(a) is Operand]
            if len(words) == len(args):
                try:
                    code = writer(words, stdout)
                except _TOOL_FAILURES as e:
                    return _tool_failed(interp, name, e, fds, stdout)
                if code is not None:  # (None: it wrote nothing, the tool runs)
                    if tool.schema.typed_substitution:
                        interp.last_typed = False
                    return _flushed(interp, name, stdout, fds, code)
    try:
        targs, leaf, inst = fast.bind_and_convert(tool, args)
    except binder.BindError as e:
        interp.error(fds, str(e))
        return e.status
    if targs.help or leaf.func is None:
        from tysh.kernel.tools.help import render_help

        text = render_help(tool.schema, list(targs.path))
        _write(fds.get(1), text if text.endswith("\n") else text + "\n")
        return 0
    bound = (tool, leaf, inst, targs.json, tuple(targs.path) if targs.path else ())
    if memo is not None and REUSE_BINDINGS and direct is None and writer is None and (
            fast.reusable(targs, inst)):
        memo[0] = bound
    return call_leaf(interp, bound, name, fds)


def call_leaf(interp: Interpreter, bound: Bound, name: str, fds: Fds) -> int:
    """Run a bound tool's leaf, `func(inst, ctx)` (`func(inst, ctx, session)` for the
    shell's own builtins), with a Context on the command's descriptors, and turn what it
    returns or raises into the command's status, its typed value and its output."""
    tool, leaf, inst, as_json, path = bound
    stdout = fds.get(1)
    state = interp.state
    meter = state.meter
    capture: CheckedBytesIO | None = None
    err_tee: _ErrorTee | None = None
    stderr: IO[bytes] = fds.get(2) or io.BytesIO()
    if as_json and not tool.schema.owns_output:
        # what a tool prints under --json is kept to be reshaped (charged to the
        # budget), and a failure becomes {"error", "code"}, so its message is kept as
        # well as shown
        capture = CheckedBytesIO(interp, meter if meter.cap < UNBOUNDED else None, name,
                                 tool=True)
        out: IO[bytes] = capture
        err_tee = _ErrorTee(stderr)
        stderr = cast("IO[bytes]", err_tee)
    else:
        out = stdout if stdout is not None else io.BytesIO()
    stdin = fds.get(0)
    ctx = new_context(
        name,
        stdin if stdin is not None else io.BytesIO(),
        out,
        stderr,
        (interp.fs if state.umask is None else interp.files()) if (
            not interp.procsubs and len(fds) <= 3) else _procsub_fs(interp, fds),
        interp,
        as_json,
        False if type(stdout) in NOT_TERMINALS else _isatty(stdout),
        path,
        Charges(meter) if meter.cap < UNBOUNDED else NO_CHARGES,
        interp.keeps_value,
    )
    # code deep in the tool (a regex engine's slices, a worker process) stops on the
    # same check as the tool's own checkpoints
    func: Any = leaf.func  # (a leaf that is bound has one)
    saved_check = stop.install_new(interp.check_boundary)
    try:
        ret = func(inst, ctx, interp) if leaf.session else func(inst, ctx)
    except _TOOL_FAILURES as e:
        return _tool_failed(interp, name, e, fds, stdout)
    finally:
        if saved_check is not stop.KEPT:
            stop.restore(saved_check)
        charges = ctx.charges
        if charges.n:  # most commands hold nothing
            charges.release()
        if capture is not None:
            capture.release()
    # (the commonest returns first: a status, nothing)
    if type(ret) is int:
        code, output, data = ret, None, None
    elif ret is None:
        code, output, data = 0, None, None
    elif type(ret) is Outcome:
        code, output, data = ret.code, ret.output, ret.data
    elif isinstance(ret, OutputData):
        code, output, data = 0, ret, None
    elif isinstance(ret, Outcome):
        code, output, data = ret.code, ret.output, ret.data
    elif isinstance(ret, bool):
        code, output, data = (0 if ret else 1), None, None
    elif isinstance(ret, int):
        code, output, data = int(ret), None, None
    else:
        code, output, data = 0, None, ret
    if data is not None or output is not None:
        interp.last_data = data if data is not None else output
    if leaf.schema.typed_substitution or tool.schema.typed_substitution:
        interp.last_typed = data is not None
    if capture is not None:
        from tysh.kernel.tools.output import ExecResult, apply_output_format

        text = capture.getvalue().decode("utf-8", "surrogateescape")
        err = err_tee.text() if err_tee is not None else ""
        res = apply_output_format(
            ExecResult(code=code, out=text, err=err, data=data, output=output), True,
            tool.schema.owns_output)
        if not _render(interp, "json", res.raw_data, stdout):
            _write(stdout, res.out if isinstance(res.out, str) else res.text_out())
    elif output is not None:
        rendered = interp.registry.render_output is not None and _render(
            interp, "output", output, stdout)
        if not rendered and output.root is not STREAMED:  # (streamed: its text is "")
            _write(stdout, output.to_text())
    return _flushed(interp, name, stdout, fds, code)


# what a tool may raise that `_tool_failed` answers
_TOOL_FAILURES = (BrokenPipeError, FsError, MemoryLimitExceeded, MemoryError,
                  UnicodeEncodeError, ValueError, SystemExit)


def _tool_failed(interp: Interpreter, name: str, e: BaseException, fds: Fds,
                 stdout: IO[bytes] | None) -> int:
    """The status of a command whose tool raised `e` (one of _TOOL_FAILURES), having
    written its message; what is not the command's alone to answer is raised again
    (called from the `except` clause that caught `e`)."""
    if isinstance(e, BrokenPipeError):
        from tysh.kernel.run.lookup import BASH_BUILTINS  # only a broken pipe needs it

        if name in BASH_BUILTINS:
            # bash's own builtins write from the shell process: SIGPIPE ends the
            # subshell they run in (`while :; do echo y; done | head -1` stops)
            raise e
        # a tool standing for a program dies alone, as its process would: the rest of a
        # `{ seq 1 100000; echo done; } | head -1` stage still runs
        if stdout is not None:
            ABANDONED.add(stdout)
        return 141
    if isinstance(e, FsError):
        # a file failure the tool did not handle (a full in-memory filesystem under a
        # write): the command fails, the script goes on — as with a real full disk
        interp.error(fds, f"{name}: {e.message}")
        return 1
    if isinstance(e, MemoryLimitExceeded):
        if not e.tool:
            raise e  # the shell's own budget (a capture around the tool): ends the script
        # the tool's own buffer or a width it was given: the command fails
        interp.error(fds, e.message)
        return 1
    if isinstance(e, MemoryError):
        # an allocation the budget did not foresee failed: the command fails, the
        # session goes on
        interp.error(fds, f"{name}: memory exhausted")
        return 1
    if isinstance(e, UnicodeEncodeError):
        # text holding a lone surrogate (from JSON's `\ud800`, say) that a tool wrote
        # without encode_text: the command fails with a message, never a traceback
        interp.error(fds, f"{name}: cannot write text holding {e.object[e.start:e.end]!a}")
        return 1
    if isinstance(e, ValueError):
        if not str(e).startswith("Exceeds the limit"):
            raise e
        # Python refuses to read an integer of more than 4300 digits (a process-wide
        # guard the embedder owns): a number too large, in the tool's name
        interp.error(fds, f"{name}: a number of more than {_digits_limit()} digits is "
                     "too large")
        return 1
    assert isinstance(e, SystemExit)
    # a tool that calls sys.exit() ends itself, not the shell or the embedder
    code = e.code
    if code is None:
        return 0
    if isinstance(code, int) and not isinstance(code, bool):
        return code & 0xFF
    interp.error(fds, f"{name}: {code}")
    return 1


def _flushed(interp: Interpreter, name: str, stdout: IO[bytes] | None, fds: Fds,
             code: int) -> int:
    """The status of a command, `code` so far, once its output is flushed: real
    descriptors and pipes see each command's output as soon as it finishes, and a file
    that cannot take it (a full disk) fails the command, as a write error would. A
    broken pipe is raised again unless the pipe was already given up on (`ABANDONED`)."""
    if stdout is None or type(stdout) is io.BytesIO:
        return code
    try:
        stdout.flush()
    except BrokenPipeError:
        if stdout not in ABANDONED:
            raise
    except FsError as e:
        interp.error(fds, f"{name}: write error: {e.reason}")
        return 1
    return code


def _procsub_fs(interp: Interpreter, fds: Fds) -> Any:
    from tysh.kernel.run.procsub import session_fs

    return session_fs(interp, fds)


def _digits_limit() -> int:
    import sys

    return sys.get_int_max_str_digits()


class _ErrorTee:
    """A tool's stderr that passes everything through and remembers the start of it."""

    KEEP = 1 << 16

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.kept = bytearray()

    def write(self, data: bytes) -> int:
        if len(self.kept) < self.KEEP:
            self.kept += data[: self.KEEP - len(self.kept)]
        return self.stream.write(data)

    def flush(self) -> None:
        self.stream.flush()

    def text(self) -> str:
        return self.kept.decode("utf-8", "surrogateescape")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _write(stream: IO[bytes] | None, text: str) -> None:
    if stream is not None and text:
        stream.write(encode_text(text))


def _render(interp: Interpreter, kind: str, value: Any, stdout: IO[bytes] | None) -> bool:
    """The REPL's terminal rendering (`Registry.render_output`): only when one is installed
    and stdout is a terminal; False means write the canonical text."""
    hook = interp.registry.render_output
    return hook is not None and stdout is not None and _isatty(stdout) \
        and bool(hook(kind, value, stdout))


def _isatty(stream: IO[bytes] | None) -> bool:
    if stream is None or isinstance(stream, io.BytesIO):
        return False
    try:
        return stream.isatty()
    except (OSError, ValueError, AttributeError):
        return False


# ---------------------------------------------------------------- externals


def run_external_cmd(
    interp: Interpreter,
    name: str,
    args: list[Arg],
    fds: Fds,
    extra_env: dict[str, str] | None,
    *,
    exact_env: bool = False,
) -> int:
    policy = interp.externals
    if not interp.allow_external:
        # the one door to external commands: `env`, `xargs`, `find -exec`, `timeout`,
        # `command` and plain command lines all end here
        interp.error(fds, f"tysh: {name}: command not found (external commands are disabled)")
        return 127
    if policy is not None:
        if not policy.allows_name(name):
            interp.error(fds, policy.refused(name))
            return 127
        if policy.refusal is not None:
            interp.error(fds, f"tysh: {name}: cannot run: {policy.refusal}")
            return 126
        if callable(policy.runner) and policy.root is None:
            # a runner elsewhere with no host side here: it finds the program itself
            return _run_policy(interp, policy, name, name, args, fds, extra_env, exact_env)
    from tysh.kernel.run.external import run_external
    from tysh.kernel.run.registry import find_external, search_path

    st = interp.state
    if extra_env is not None and "PATH" in extra_env:  # `PATH=dir cmd` searches dir
        path_text: str | None = extra_env["PATH"]
    else:
        path_var = st.get("PATH")
        path_text = to_text(path_var) if path_var is not None else None
    host: str | None = None
    if "/" not in name and extra_env is not None and "PATH" in extra_env:
        for _shown, found in search_path(name, path_text, st.cwd, interp.fs):
            host = found
            break
    elif "/" not in name:
        # bash's hash table: a name hashed (or `hash -p`) runs from there
        from tysh.kernel.run import lookup

        shown = lookup.hashed(interp, name)
        if shown is not None:
            host = find_external(shown, None, st.cwd, interp.fs)
            if host is not None:
                lookup.remember(interp, name, shown)
        if host is None:
            for shown, found in search_path(name, path_text, st.cwd, interp.fs):
                host = found
                lookup.remember(interp, name, shown)
                break
    else:
        host = find_external(name, path_text, st.cwd, interp.fs)
    if host is None:
        if "/" in name:
            interp.error(fds, f"tysh: {name}: No such file or directory")
        else:
            interp.error(fds, f"tysh: {name}: command not found")
        return 127
    if policy is not None:
        if not policy.allows(name, host):
            interp.error(fds, policy.refused(name))
            return 127
        if policy.runner != "host":
            return _run_policy(interp, policy, name, host, args, fds, extra_env, exact_env)
    env = _child_env(interp, extra_env, exact_env)
    argv = [name, *(arg_text(a) for a in args)]
    cwd = interp.fs.real_os_path(st.cwd)
    if cwd is None:
        # never let a child inherit the host process's cwd: the session has no host dir
        interp.error(fds, f"tysh: {name}: the current directory has no host path")
        return 126
    timeout = None
    if interp.deadline is not None:
        import time

        timeout = max(interp.deadline - time.monotonic(), 0.0)
    extra: tuple[int, ...] = ()
    if interp.procsubs:
        from tysh.kernel.run.procsub import pass_fds

        extra = pass_fds(interp)
    return run_external(host, argv, env, cwd, fds, timeout=timeout, control=interp.control,
                        umask=st.umask, rlimits=st.tables.rlimits, pass_fds=extra)


def _child_env(interp: Interpreter, extra_env: dict[str, str] | None,
               exact_env: bool) -> dict[str, str]:
    if exact_env and extra_env is not None:
        return dict(extra_env)
    env = interp.state.exported_env()
    if extra_env:
        env.update(extra_env)
    return env


def _time_left(interp: Interpreter) -> float | None:
    if interp.deadline is None:
        return None
    import time

    return max(interp.deadline - time.monotonic(), 0.0)


def _run_policy(interp: Interpreter, policy: Any, name: str, host: str, args: list[Arg],
                fds: Fds, extra_env: dict[str, str] | None, exact_env: bool) -> int:
    """Run a program through the kernel's runner: bwrap, or the embedder's callable."""
    from tysh.kernel.run import sandbox

    st = interp.state
    env = _child_env(interp, extra_env, exact_env)
    argv = [name, *(arg_text(a) for a in args)]
    if callable(policy.runner):
        cwd = st.cwd
        if policy.root is not None:
            cwd = interp.fs.real_os_path(st.cwd) or st.cwd
        return _call_runner(interp, policy.runner, argv, cwd, env, fds)
    bwrap, why = sandbox.bwrap_status()
    if bwrap is None:
        interp.error(fds, f"tysh: {name}: cannot run: {why}; pass runner='host' to run "
                          "programs unconfined")
        return 126
    why_not = _not_runnable(host)
    if why_not is not None:
        interp.error(fds, f"tysh: {name}: {why_not}")
        return 126
    scratch = sandbox.scratch_dir(policy)
    program = sandbox.inside_path(host, scratch)
    if program == host and not sandbox.visible_inside(host, policy.root):
        interp.error(fds, f"tysh: {name}: cannot run: {host} is outside what the sandbox "
                          "shows (the kernel's root, /tmp, /usr, /bin, /lib)")
        return 126
    where = interp.fs.real_os_path(st.cwd)
    if where is None:
        interp.error(fds, f"tysh: {name}: the current directory has no host path")
        return 126
    # bwrap starts in the directory as the program sees it; run_external's own cwd
    # (where bwrap itself starts) is the host's
    full = sandbox.bwrap_argv(bwrap, program, argv, sandbox.inside_path(where, scratch),
                              root=policy.root, scratch=scratch, network=policy.network)
    cwd = where
    timeout = _time_left(interp)
    from tysh.kernel.run.external import run_external

    rlimits = sandbox.sandbox_rlimits(interp.limits, timeout, st.tables.rlimits)
    extra: tuple[int, ...] = ()
    if interp.procsubs:
        from tysh.kernel.run.procsub import pass_fds

        extra = pass_fds(interp)
    return run_external(bwrap, full, env, cwd, fds, timeout=timeout, control=interp.control,
                        umask=st.umask, rlimits=rlimits, pass_fds=extra, stderr_name="tysh")


def _not_runnable(host: str) -> str | None:
    """Why bwrap could not start the file `host` as a program (it reports its own exec
    failures as status 1; the shell's answer is 126 with the reason), or None."""
    import os

    if os.path.isdir(host):
        return "Is a directory"
    if not os.access(host, os.X_OK):
        return "Permission denied"
    try:
        with open(host, "rb") as f:
            head = f.read(4)
    except OSError as e:
        return e.strerror or "cannot be read"
    if head[:2] != b"#!" and head != b"\x7fELF":
        return "cannot run in the sandbox: not a program (no #! line)"
    return None


def _call_runner(interp: Interpreter, runner: Any, argv: list[str], cwd: str,
                 env: dict[str, str], fds: Fds) -> int:
    """The embedder's runner gets binary streams: the command's own, or an empty input
    and a discarding output where the command has none."""
    from tysh.kernel.base.streams import NullIO
    from tysh.kernel.run import sandbox

    got = [fds.get(n) for n in (0, 1, 2)]
    streams: tuple[Any, Any, Any] = (
        got[0] if got[0] is not None else io.BytesIO(),
        got[1] if got[1] is not None else NullIO(),
        got[2] if got[2] is not None else NullIO(),
    )
    try:
        return sandbox.run_hook(runner, argv, cwd, env, streams, interp.limits)
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as e:  # noqa: BLE001 — the embedder's code: its failure, not ours
        interp.error(fds, f"tysh: {argv[0]}: the runner failed: {type(e).__name__}: {e}")
        return 126
