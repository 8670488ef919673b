"""Statements planned once per syntax node, so a loop body or a function body run many
times does the per-node work once.

`plan(script)` gives each statement of a script with its step: a function that runs
the statement as `Interpreter.run_andor` would, or None where the general path runs it.
A statement gets a step when it is one simple command (not negated, not timed, not in
the background): the step goes straight to the simple command without the and-or,
pipeline and command layers. An assignment-only command of plain values (`x=$((x+i))`,
`s=text`, `r=$1`) gets a step that also evaluates and stores the values itself, with the
arithmetic compiled once.

A step keeps every hook of the general path: while a trap is set (DEBUG, ERR) or
`set -x` is on, it hands the statement to the general path; `set -e`, `$?`,
`$PIPESTATUS`, `$_`, tool-call events, limits and cancellation are kept as there.
Plans are found by the script's identity and hold the script, so an entry can never
answer for another script."""

from __future__ import annotations

from tysh.kernel.base.control import ExitShell, ReturnFromFunction
from tysh.kernel.base.errors import ExpansionError, VarError
from tysh.kernel.base.hints import Any
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.streams import Fds
from tysh.kernel.expand import arith
from tysh.kernel.expand.words import (
    BLANK_IFS,
    HOLE_PARAM,
    HOLE_VAR,
    HOLE_VAR_DQ,
    arith_word_fn,
    constant_args,
    plain_args,
    plain_scalar,
    plain_texts,
    plain_words,
)
from tysh.kernel.run.arithvars import loop_fn
from tysh.kernel.run.redirects import fixed_redirects
from tysh.kernel.run.simple_command import (
    arg_text,
    call_tool,
    do_assign,
    run_function,
    run_simple,
)
from tysh.kernel.syntax import ast
from tysh.kernel.syntax.walk import walk

TYPE_CHECKING = False

if TYPE_CHECKING:
    from collections.abc import Callable

    from tysh.kernel.run.interpreter import Interpreter
    from tysh.kernel.run.registry import Registry
    from tysh.kernel.run.state import State
    from tysh.kernel.tools.tool import Tool

    Step = Callable[[Interpreter, ast.Statement, Fds], int]
    Plan = tuple[tuple[ast.Statement, Step | None], ...]
    Value = Callable[[Interpreter], Any]

_PLANS: dict[int, tuple[ast.Script, Plan]] = {}
_MAX_PLANS = 4096

_NAME = LazyRegex(r"[A-Za-z_][A-Za-z0-9_]*")


def plan(script: ast.Script) -> Plan:
    """The statements of `script` with their steps (cached by the script's identity)."""
    got = _PLANS.get(id(script))
    if got is not None and got[0] is script:
        return got[1]
    made = tuple((st, _step(st)) for st in script.statements)
    if len(_PLANS) >= _MAX_PLANS:
        _PLANS.clear()
    _PLANS[id(script)] = (script, made)
    return made


def _step(st: ast.Statement, last_of_body: bool = False) -> Step | None:
    """The step of one statement, or None; `last_of_body`: the statement ends a
    function's body (a `return` there gives its status back instead of raising)."""
    if st.background:
        return None
    body = st.body
    pipeline = body.first
    if body.rest or pipeline.negated or pipeline.timed or len(pipeline.commands) != 1:
        return None
    cmd = pipeline.commands[0]
    if type(cmd) is not ast.SimpleCommand:
        return None
    if any(type(n) is ast.ProcSub for n in walk(cmd)):
        return None  # its pipes are closed after the command: the general path does that
    if not cmd.words and not cmd.redirects and cmd.assigns:
        assigns: list[tuple[str, ast.Assign, Value]] = []
        for a in cmd.assigns:
            value = _value(a)
            if value is None:
                break
            assigns.append((a.name, a, value))
        else:
            return _assignment_step(pipeline, tuple(assigns))
    step = _simple_step(cmd, pipeline)
    name = _command_name(cmd.words[0]) if (
        cmd.words and not cmd.assigns and not cmd.redirects) else None
    if name == "local":
        return _local_step(cmd, pipeline, step) or step
    if name == "return" and not cmd.arg_assigns:
        return _return_step(cmd, step, last_of_body) or step
    if (name == "[" or name == "test") and not cmd.arg_assigns:
        return _count_test_step(cmd, name, pipeline, step) or step
    return step


# what makes a first word more than a name: a glob, a brace or a tilde
_SPECIAL_NAME_CHARS = frozenset("*?[{~")


def _command_name(word: ast.Word) -> str | None:
    """The command name when the first word is plain text with nothing to expand, as
    run_simple reads it; a lone `[` too (an unclosed bracket globs nothing)."""
    parts = word.parts
    if len(parts) != 1:
        return None
    p = parts[0]
    if type(p) is ast.Quoted:
        return p.text
    if type(p) is ast.Lit and (p.text == "[" or _SPECIAL_NAME_CHARS.isdisjoint(p.text)):
        return p.text
    return None


def _finish(interp: Interpreter, status: int, pipeline: ast.Pipeline) -> int:
    """What the pipeline and and-or layers do after a lone command: `$?`, `$PIPESTATUS`,
    and a failure under `set -e` or an ERR trap."""
    state = interp.state  # State.lone_status, inlined: every planned command ends here
    state.last_status = status
    ps = state.pipestatus
    if len(ps) == 1:
        ps[0] = status
    else:
        state.pipestatus = [status]
    if status and not interp.suppress_errexit:
        interp.failed(status, pipeline)
    return status


def _simple_step(cmd: ast.SimpleCommand, pipeline: ast.Pipeline) -> Step:
    name = _command_name(cmd.words[0]) if (
        cmd.words and not cmd.assigns and not cmd.arg_assigns) else None
    # (redirections that open nothing are applied here; any other runs the general way)
    # (`exec` with redirections changes the shell's own descriptors)
    redirected = fixed_redirects(cmd.redirects) if (
        cmd.redirects and name and name != "exec") else None
    words = plain_words(cmd.words[1:]) if name is not None and (
        redirected is not None or not cmd.redirects) else None
    if name is None or words is None:
        def step(interp: Interpreter, st: ast.Statement, fds: Fds) -> int:
            if interp.state.traps:  # the DEBUG trap runs before the command
                return interp.run_andor(st.body, fds)
            interp.cur_fds = fds
            return _finish(interp, run_simple(interp, cmd, fds), pipeline)

        return step

    # the function last called here with its body's plan (a loop calls the same one),
    # replaced as one pair: pipeline stages on threads may share this step
    called: list[tuple[ast.FunctionDef | None, Plan | None]] = [(None, None)]
    # the builtin the name resolved to in the registry it was looked up in: a registry
    # never changes its builtins, and a builtin comes before a registered tool
    found: list[tuple[Registry, Tool] | None] = [None]
    consts = constant_args(words)
    expands = bool(words[1])

    def named(interp: Interpreter, st: ast.Statement, fds: Fds) -> int:
        """`f $i`, `[ $i -lt 10 ]`, `echo $x >&2`: a function, or a tool with a
        direct path (ToolDirect), gets its words' texts without the binder's classified
        arguments, and any other tool its arguments without the general path's steps,
        when the command is not traced or observed, its words are plain and its
        redirections open nothing; any other command runs as usual."""
        state = interp.state
        if state.traps:
            return interp.run_andor(st.body, fds)
        interp.cur_fds = fds
        if interp.events is None and "xtrace" not in state.options:
            fn = state.functions.get(name)
            if fn is not None:
                argv = plain_texts(words, interp, "sh_word_split" in state.options)
                own = fds if redirected is None or argv is None else redirected(fds)
                if argv is not None and own is not None:
                    interp.last_typed = False
                    interp.last_data = None
                    interp.cmdsub_status = None
                    last = called[0]
                    if last[0] is not fn:
                        last = called[0] = (fn, _body_plan(fn))
                    # (`own` is made the current table: reading words runs nothing)
                    interp.cur_fds = own
                    status = run_function(interp, fn, name, argv, own, last[1])
                    ps = state.pipestatus  # _finish, inlined: a loop's call ends here
                    state.last_status = status
                    if len(ps) == 1:
                        ps[0] = status
                    else:
                        state.pipestatus = [status]
                    if status and not interp.suppress_errexit:
                        interp.failed(status, pipeline)
                    return status
            elif not state.disabled:
                registry = interp.registry
                known = found[0]
                if known is not None and known[0] is registry:
                    tool: Tool | None = known[1]
                else:
                    tool = registry.tool(name)
                    if tool is not None and tool is registry.builtin(name):
                        found[0] = (registry, tool)
                if tool is not None and tool.direct is not None:
                    argv = plain_texts(words, interp, "sh_word_split" in state.options)
                    own = fds if redirected is None or argv is None else redirected(fds)
                    got = None if argv is None or own is None else tool.direct(argv)
                    if got is not None:
                        assert argv is not None and own is not None
                        interp.last_typed = False
                        interp.last_data = None
                        interp.cmdsub_status = None
                        state.last_arg = argv[-1] if argv else name
                        interp.cur_fds = own  # (the table the general path leaves)
                        return _finish(interp, got, pipeline)
                if tool is not None and (expands or tool.writer is not None or (
                        tool.direct is not None and redirected is not None)):
                    # `printf '%s\n' "$x"`, `echo $1 >&2`, `[ -f "$f" ]` (a direct path
                    # that could not answer): the tool bound (or written, ToolWriter)
                    # without the general path's steps; another command of constant
                    # words that binds goes the general way, which keeps its binding
                    args = plain_args(words, consts, interp, "sh_word_split" in state.options)
                    own = None if args is None else fds if redirected is None else (
                        redirected(fds))
                    if own is not None:
                        assert args is not None
                        interp.last_typed = False
                        interp.last_data = None
                        interp.cmdsub_status = None
                        state.last_arg = arg_text(args[-1]) if args else name
                        interp.cur_fds = own
                        return _finish(interp, call_tool(interp, tool, name, args, own),
                                       pipeline)
        return _finish(interp, run_simple(interp, cmd, fds), pipeline)

    return named


def _body_plan(fn: ast.FunctionDef) -> Plan | None:
    """The plan of a function's body when it is a `{ …; }` without redirections, for
    a planned call: `plan`'s, with a `return` that ends the body giving its status
    back as the body's, which is what the call makes of the ReturnFromFunction the
    general path raises (cached by the body's identity, apart from `plan`'s)."""
    body = fn.body
    if type(body) is not ast.BraceGroup or body.redirects:
        return None
    script = body.body
    got = _BODIES.get(id(script))
    if got is not None and got[0] is script:
        return got[1]
    steps = plan(script)
    if steps:
        st = steps[-1][0]
        steps = (*steps[:-1], (st, _step(st, last_of_body=True)))
    if len(_BODIES) >= _MAX_PLANS:
        _BODIES.clear()
    _BODIES[id(script)] = (script, steps)
    return steps


_BODIES: dict[int, tuple[ast.Script, Plan]] = {}


def _assignment_step(pipeline: ast.Pipeline,
                     assigns: tuple[tuple[str, ast.Assign, Value], ...]) -> Step:
    """`x=$((x+i))`, `s=text`: the values computed by the planned functions and stored
    as `do_assign` stores them."""

    def step(interp: Interpreter, st: ast.Statement, fds: Fds) -> int:
        state = interp.state
        if state.traps or "xtrace" in state.options:
            return interp.run_andor(st.body, fds)
        interp.cur_fds = fds
        interp.last_typed = False
        interp.last_data = None
        interp.cmdsub_status = None
        state.last_arg = ""
        try:
            for name, a, value in assigns:
                v = value(interp)
                frames = state.frames
                if state.refs:
                    var = state.lookup(name)
                elif len(frames) == 1:
                    var = frames[0].get(name)
                else:  # State.lookup, inlined: a function's own frame, then the outer ones
                    var = frames[-1].get(name)
                    if var is None:
                        var = state.lookup(name)
                if (var is not None and type(var.value) is str and type(v) is str
                        and not var.integer and not var.readonly and not var.case):
                    var.value = v
                else:
                    _store(interp, a, v, fds)
        except ExpansionError as e:
            return _finish(interp, interp.fail_expansion(e, fds), pipeline)
        state.lone_status(0)  # _finish of a success
        return 0

    if len(assigns) != 1:
        return step
    name, a, value = assigns[0]
    got = _fixed_arith(a)
    if got is not None:
        return _arith_assignment_step(pipeline, name, a, got[0], loop_fn(*got))
    expr = _arith_word(a)
    if expr is not None:  # `r=$(( $1 + 1 ))`: its faults come as ExpansionErrors
        return _arith_assignment_step(pipeline, name, a, "", arith_word_fn(expr))

    def one(interp: Interpreter, st: ast.Statement, fds: Fds) -> int:
        """`step` of the commonest line, one assignment."""
        state = interp.state
        if state.traps or "xtrace" in state.options:
            return interp.run_andor(st.body, fds)
        interp.cur_fds = fds
        interp.last_typed = False
        interp.last_data = None
        interp.cmdsub_status = None
        state.last_arg = ""
        try:
            v = value(interp)
        except ExpansionError as e:
            return _finish(interp, interp.fail_expansion(e, fds), pipeline)
        return _set_one(interp, state, name, a, v, fds, pipeline)

    return one


def _arith_assignment_step(pipeline: ast.Pipeline, name: str, a: ast.Assign, source: str,
                           fn: Callable[[Interpreter], int]) -> Step:
    """The step of `name=$((expr))`: `_assignment_step`'s `one` with `_value`'s `fixed`
    (or `expanded`) done in place. For an expression of fixed text (`x=$((x+i))`), `fn`
    is its compiled closure, or arithvars' for its shape, and `source` its text, which
    names an ArithError's fault; for any other (`$(( $1 + 1 ))`), `fn` is
    `arith_word_fn`'s, which reports its faults itself."""

    ints, ints_size = arith.INT_TEXTS, arith.INT_TEXTS_SIZE

    def one_arith(interp: Interpreter, st: ast.Statement, fds: Fds) -> int:
        state = interp.state
        if state.traps or "xtrace" in state.options:
            return interp.run_andor(st.body, fds)
        interp.cur_fds = fds
        interp.last_typed = False
        interp.last_data = None
        interp.cmdsub_status = None
        state.last_arg = ""
        try:
            n = fn(interp)
        except arith.ArithError as e:
            err = arith.as_expansion_error(source, e)
            err.fatal = True  # as a `$((…))` anywhere else
            return _finish(interp, interp.fail_expansion(err, fds), pipeline)
        except ExpansionError as e:
            e.fatal = True
            return _finish(interp, interp.fail_expansion(e, fds), pipeline)
        text = str(n)  # arith.int_text, inlined
        if len(ints) > ints_size:
            ints.clear()
        ints[text] = n
        return _set_one(interp, state, name, a, text, fds, pipeline)

    return one_arith


def _set_one(interp: Interpreter, state: State, name: str, a: ast.Assign, v: Any, fds: Fds,
             pipeline: ast.Pipeline) -> int:
    """The end of a one-assignment line's step: store `v` in `name` (in place when the
    variable is a plain string and `v` one, else as `_store` does) and finish with
    status 0."""
    if state.refs:
        var = state.lookup(name)
    else:  # State.lookup, inlined: the innermost frame, then the outer ones
        frames = state.frames
        var = frames[-1].get(name)
        if var is None:
            k = len(frames)
            if k == 2:  # in a function called from the top level
                var = frames[0].get(name)
            elif k > 2:
                var = state.lookup(name)
    if (var is not None and type(var.value) is str and type(v) is str
            and not var.integer and not var.readonly and not var.case):
        var.value = v
    else:
        try:
            _store(interp, a, v, fds)
        except ExpansionError as e:
            return _finish(interp, interp.fail_expansion(e, fds), pipeline)
    state.last_status = 0  # _finish of a success, State.lone_status inlined
    ps = state.pipestatus
    if len(ps) == 1:
        ps[0] = 0
    else:
        state.pipestatus = [0]
    return 0


def _fixed_arith(a: ast.Assign) -> tuple[str, arith.Fn] | None:
    """(text, closure) of a plain assignment's value that is one `$((…))` of fixed text
    that compiles, which `_value` evaluates with `fixed`; else None."""
    expr = _arith_word(a)
    return arith.fixed_text_fn(expr) if expr is not None and _compiles(expr) else None


def _arith_word(a: ast.Assign) -> ast.Word | None:
    """The expression of a plain assignment's value that is one `$((…))`, else None."""
    if a.index is not None or a.append or type(a.value) is not ast.Word:
        return None
    parts = a.value.parts
    if len(parts) != 1 or type(parts[0]) is not ast.ArithSub:
        return None
    return parts[0].expr


def _store(interp: Interpreter, a: ast.Assign, v: Any, fds: Fds) -> None:
    """`do_assign` of a computed value; a refused store (a readonly variable) abandons
    the rest of the line, as bash does (the shell goes on)."""
    try:
        do_assign(interp, a, v)
    except VarError as e:
        interp.error(fds, "tysh: " + e.message)
        raise ExitShell(1, expansion=True) from None


def _value(a: ast.Assign) -> Value | None:
    """How the value of a plain assignment is computed, as `do_assign` computes it
    (`name=text`, `name=$((…))`, `name=$x`, `name="$1"`: a text, or the typed value a
    lone expansion keeps); None for any other."""
    if a.index is not None or a.append or type(a.value) is not ast.Word:
        return None
    parts = a.value.parts
    if not parts:  # `name=`
        return lambda interp: ""
    if len(parts) != 1:
        return None
    p = parts[0]
    if type(p) is ast.Quoted or type(p) is ast.Lit and "~" not in p.text:
        text = p.text
        return lambda interp: text
    if type(p) is ast.DQ and len(p.parts) == 1:
        p = p.parts[0]
        if type(p) is not ast.ParamExp:
            return None
    if type(p) is ast.ParamExp:
        if not plain_scalar(p):
            return None  # an operator's word may run a command: its status is `$?`
        word = a.value
        name = p.name
        # a variable or positional parameter holding text is that text, quoted or not
        # (an assignment neither splits nor globs); any other value, and any other
        # parameter, is expanded (reading a value twice draws nothing: $RANDOM is text)
        if _NAME.fullmatch(name) is not None:

            def var_text(interp: Interpreter) -> Any:
                v = interp.lookup(name)
                return v if type(v) is str else interp.expand_value(word)

            return var_text
        if name.isdigit() and name.isascii() and name != "0":
            k = int(name) - 1

            def positional_text(interp: Interpreter) -> Any:
                pos = interp.state.positional
                v = pos[k] if k < len(pos) else None
                return v if type(v) is str else interp.expand_value(word)

            return positional_text

        def param(interp: Interpreter) -> Any:
            return interp.expand_value(word)

        return param
    if type(p) is not ast.ArithSub:
        return None
    expr = p.expr
    got = arith.fixed_text_fn(expr) if _compiles(expr) else None
    if got is None:
        evaluate = arith_word_fn(expr)

        def expanded(interp: Interpreter) -> str:
            try:
                return arith.int_text(evaluate(interp))
            except ExpansionError as e:
                e.fatal = True  # as a `$((…))` anywhere else
                raise

        return expanded
    source, fn = got

    def fixed(interp: Interpreter) -> str:
        try:
            return arith.int_text(fn(interp))
        except arith.ArithError as e:
            err = arith.as_expansion_error(source, e)
            err.fatal = True
            raise err from None
        except ExpansionError as e:
            e.fatal = True
            raise

    return fixed


def _compiles(word: ast.Word) -> bool:
    """Whether a fixed-text arithmetic word compiles (one that does not is evaluated
    through the general path, which reports the fault where the command runs)."""
    try:
        arith.fixed_text_fn(word)
    except ExpansionError:
        return False
    return True


def _builtin_runs(interp: Interpreter, name: str) -> bool:
    """Whether the command `name` runs its builtin as the general path would run it,
    unwatched: no function or disabling hides it, and no trap, `set -x` or tool-call
    listener needs to see it."""
    state = interp.state
    return (not state.traps and interp.events is None and "xtrace" not in state.options
            and name not in state.functions and name not in state.disabled
            and interp.registry.builtin(name) is not None)


def _local_step(cmd: ast.SimpleCommand, pipeline: ast.Pipeline, general: Step) -> Step | None:
    """`local r=$1 n=0 x`: each name made local and given its text as the builtin
    does, when every argument is a name or `name=value` of a plain value (a text or
    `$x`); any other shape is not planned. At run time the general path takes over,
    before anything changed, unless the values are texts and the names need nothing
    but a store (`State.local_text`)."""
    assigned = dict(cmd.arg_assigns)
    items: list[tuple[str, Value | None]] = []
    for i, w in enumerate(cmd.words[1:], 1):
        a = assigned.get(i)
        if a is None:
            text = _command_name(w)
            if text is None or _NAME.fullmatch(text) is None:
                return None
            items.append((text, None))
            continue
        value = _quiet_value(a)
        if value is None:
            return None
        items.append((a.name, value))
    names = tuple(items)
    if not names:
        return None
    last_name, last_value = names[-1]
    if len(names) == 1 and last_value is not None:
        return _one_local_step(last_name, last_value, pipeline, general)

    def step(interp: Interpreter, st: ast.Statement, fds: Fds) -> int:
        state = interp.state
        if not state.func_depth or not _builtin_runs(interp, "local"):
            return general(interp, st, fds)
        interp.cur_fds = fds
        interp.last_typed = False
        interp.last_data = None
        interp.cmdsub_status = None
        try:
            texts: list[Any] = [None if value is None else value(interp) for _, value in names]
        except ExpansionError as e:
            return _finish(interp, interp.fail_expansion(e, fds), pipeline)
        export = "allexport" in state.options
        for (name, value), text in zip(names, texts, strict=True):
            if value is not None and type(text) is not str or not state.local_text(
                    name, "" if text is None else text, export, store=False):
                return general(interp, st, fds)
        for (name, value), text in zip(names, texts, strict=True):
            if value is None:
                state.declare_local(name)
            elif not state.local_text(name, text, export):
                raise AssertionError(f"local {name}: the store checked a moment ago failed")
        last = texts[-1]
        state.last_arg = last_name if last_value is None else f"{last_name}={last}"
        state.lone_status(0)  # _finish of a success
        return 0

    return step


def _one_local_step(name: str, value: Value, pipeline: ast.Pipeline, general: Step) -> Step:
    """`_local_step` of the commonest `local r=$1`: one name with a value."""

    def step(interp: Interpreter, st: ast.Statement, fds: Fds) -> int:
        state = interp.state
        if not state.func_depth or not _builtin_runs(interp, "local"):
            return general(interp, st, fds)
        interp.cur_fds = fds
        interp.last_typed = False
        interp.last_data = None
        interp.cmdsub_status = None
        try:
            text = value(interp)
        except ExpansionError as e:
            return _finish(interp, interp.fail_expansion(e, fds), pipeline)
        if type(text) is not str or not state.local_text(
                name, text, "allexport" in state.options):
            return general(interp, st, fds)
        state.last_arg = f"{name}={text}"
        state.lone_status(0)  # _finish of a success
        return 0

    return step


def _quiet_value(a: ast.Assign) -> Value | None:
    """`_value` of an assignment whose value has no effect to compute: a text or a
    plain `$x` (never $RANDOM, whose every reading draws a number), so a planned
    command may compute it and still hand the command to the general path."""
    if a.index is not None or a.append or type(a.value) is not ast.Word:
        return None
    parts = a.value.parts
    if not parts:
        return lambda interp: ""
    p = parts[0]
    if len(parts) == 1 and type(p) is ast.DQ and len(p.parts) == 1:
        p = p.parts[0]
    if len(parts) != 1 or type(p) is ast.ArithSub:
        return None
    if type(p) is ast.ParamExp:
        if not plain_scalar(p) or p.name in _DRAWN:
            return None
        # its value as `interp.lookup` reads it; anything but text (unset, an array,
        # a typed value) is for the general path, whose expansion says what it is
        name = p.name
        if name.isdigit() and name.isascii() and name != "0":
            k = int(name) - 1

            def positional(interp: Interpreter) -> str | None:
                pos = interp.state.positional
                return pos[k] if k < len(pos) else None

            return positional
        return lambda interp: interp.lookup(name)
    return _value(a)


# the variables whose reading changes what the next reading gives
_DRAWN = frozenset({"RANDOM", "SRANDOM"})

# a plain number, as `return` reads its operand (after stripping blanks)
_STATUS = LazyRegex(r"[-+]?[0-9]+")


def _return_step(cmd: ast.SimpleCommand, general: Step, last: bool) -> Step | None:
    """`return`, `return 1`, `return $s`: in a function, the ReturnFromFunction the
    builtin raises, without binding or a Context; an operand that is no number, more
    than one, or `return` outside a function takes the general path (which says why)."""
    words = plain_words(cmd.words[1:])
    if words is None or len(words[0]) > 1:
        return None
    texts, holes = words
    if texts and not holes:  # `return 1`: its number read once
        if _STATUS.fullmatch(texts[0].strip()) is None:
            return None
        return _fixed_return_step(int(texts[0].strip()) & 0xFF, texts[0], general, last)

    def step(interp: Interpreter, st: ast.Statement, fds: Fds) -> int:
        state = interp.state
        if not state.func_depth or not _builtin_runs(interp, "return"):
            return general(interp, st, fds)
        argv = plain_texts(words, interp, "sh_word_split" in state.options)
        if argv is None:
            return general(interp, st, fds)
        if argv:
            text = argv[0]
            if _STATUS.fullmatch(text.strip()) is None:
                return general(interp, st, fds)
            status = int(text.strip()) & 0xFF
        else:
            status = state.last_status
        interp.cur_fds = fds
        interp.last_typed = False
        interp.last_data = None
        interp.cmdsub_status = None
        state.last_arg = argv[-1] if argv else "return"
        if last:  # the body ends here: its status is the call's
            return status
        raise ReturnFromFunction(status)

    return step


def _fixed_return_step(status: int, text: str, general: Step, last: bool) -> Step:
    """`_return_step` of `return N`, N a number written in the script."""

    def step(interp: Interpreter, st: ast.Statement, fds: Fds) -> int:
        state = interp.state
        if not state.func_depth or not _builtin_runs(interp, "return"):
            return general(interp, st, fds)
        interp.cur_fds = fds
        interp.last_typed = False
        interp.last_data = None
        interp.cmdsub_status = None
        state.last_arg = text
        if last:  # the body ends here: its status is the call's
            return status
        raise ReturnFromFunction(status)

    return step


def _count(text: str) -> int | None:
    """A plain count as `testexpr.count_comparison` takes one, else None."""
    return int(text) if text.isdigit() and text.isascii() and len(text) < 19 else None


# how `_count_test_step` reads an operand: written in the script, a variable, a
# positional parameter
_FIXED, _READ_VAR, _READ_POS = range(3)


def _count_test_step(cmd: ast.SimpleCommand, name: str, pipeline: ast.Pipeline,
                     general: Step) -> Step | None:
    """`[ $i -lt 10 ]`, `test "$1" -ge $max`: an integer comparison of plain counts or
    of numbers arithmetic wrote (its table of number texts, negative ones too), answered
    here as the builtin answers it, without building its argument list. An operand that
    is neither when read, a `[` or `test` that is a function or disabled, or a watched
    command (a trap, `set -x`, a tool-call listener) takes the general path. Any other
    expression is not planned."""
    from tysh.kernel.text.testexpr import count_comparison

    words = plain_words(cmd.words[1:])
    if words is None:
        return None
    texts, holes = words
    n = 4 if name == "[" else 3
    if len(texts) != n or n == 4 and texts[3] != "]":
        return None
    held = {i: (kind, var) for i, kind, var in holes}
    if 1 in held or 3 in held:
        return None
    compare = count_comparison(texts[1])
    if compare is None:
        return None
    # each operand: (how it is read, its variable's name or its position, its fixed text)
    operands: list[tuple[int, Any, str]] = []
    for k in (0, 2):
        hole = held.get(k)
        if hole is None:
            if _count(texts[k]) is None:
                return None  # the builtin decides (or reports) a fixed non-count
            operands.append((_FIXED, None, texts[k]))
        elif hole[0] in (HOLE_VAR, HOLE_VAR_DQ):
            operands.append((_READ_VAR, hole[1], ""))
        elif hole[1].isdigit() and hole[1].isascii() and hole[1] != "0":
            operands.append((_READ_POS, int(hole[1]) - 1, ""))
        else:
            return None
    (left_how, left_key, left_text), (right_how, right_key, right_text) = operands
    left_num = int(left_text) if left_how == _FIXED else 0
    right_num = int(right_text) if right_how == _FIXED else 0
    ints = arith.INT_TEXTS
    # an unquoted expansion is one field as it is only while IFS is blank (a count has
    # no blank, no glob character and is not empty)
    unquoted = any(kind in (HOLE_VAR, HOLE_PARAM) for kind, _ in held.values())
    # the registry the builtin was last found in (see `named`)
    found: list[Registry | None] = [None]

    def step(interp: Interpreter, st: ast.Statement, fds: Fds) -> int:
        state = interp.state
        if (state.traps or interp.events is not None or "xtrace" in state.options
                or state.disabled or name in state.functions):
            return general(interp, st, fds)
        registry = interp.registry
        if found[0] is not registry:
            tool = registry.builtin(name)
            if tool is None or tool.direct is None:
                return general(interp, st, fds)
            found[0] = registry
        if unquoted and "sh_word_split" in state.options and interp.lookup(
                "IFS") not in BLANK_IFS:
            return general(interp, st, fds)
        # an operand's number: arithmetic's table has every counter it wrote (and only
        # texts that are their number); any other text must be a plain count
        a: int | None
        b: int | None
        bt: Any
        if left_how == _FIXED:
            a = left_num
        else:
            if left_how == _READ_VAR:
                v = interp.lookup(left_key)
            else:
                pos = state.positional
                v = pos[left_key] if left_key < len(pos) else None
            if type(v) is not str:
                return general(interp, st, fds)
            a = ints.get(v)
            if a is None:
                a = _count(v)
                if a is None:
                    return general(interp, st, fds)
        if right_how == _FIXED:
            b = right_num
            bt = right_text
        else:
            if right_how == _READ_VAR:
                bt = interp.lookup(right_key)
            else:
                pos = state.positional
                bt = pos[right_key] if right_key < len(pos) else None
            if type(bt) is not str:
                return general(interp, st, fds)
            b = ints.get(bt)
            if b is None:
                b = _count(bt)
                if b is None:
                    return general(interp, st, fds)
        status = 0 if compare(a, b) else 1
        interp.cur_fds = fds
        interp.last_typed = False
        interp.last_data = None
        interp.cmdsub_status = None
        state.last_arg = "]" if n == 4 else bt
        state.last_status = status  # _finish, inlined: a loop's test ends here
        ps = state.pipestatus
        if len(ps) == 1:
            ps[0] = status
        else:
            state.pipestatus = [status]
        if status and not interp.suppress_errexit:
            interp.failed(status, pipeline)
        return status

    return step
