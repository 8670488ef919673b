"""`bind_and_convert`, the kernel's one call from a command's words to its tool's args,
and the binder specialised per tool that serves the common, error-free command line.

`bind_and_convert` is on every command's path, so for a flat typed tool (no
subcommands, not raw/verbatim, no map_positionals) with a typed args class, this module
compiles — once per tool — a function that binds the words, distributes the operands and
builds the args instance, with the tool's spelling table, its fields' defaults and
conversions and its slot setters hard-coded in generated source.

The fast function handles only the success path. On anything unusual — a typed value
after `--name=`, `--json`, `--help`, an unknown or malformed option, a missing or bad
value, a conversion or validation failure — it returns None and the caller runs the
general binder (`convert.bind_and_convert_general`) from the start, which is the single
authority on every rule and every message. Words are never mutated, so running both is
always safe.
"""

from __future__ import annotations

from tysh.kernel.base.argv import Arg, DoubleDash, Flag, Operand, classify
from tysh.kernel.base.cache import compile_cached
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.record import is_frozen_record
from tysh.kernel.bind.binder import (
    INVALID,
    CompiledNode,
    CompiledParam,
    ToolArgs,
    bind_verbatim,
    compiled,
    finish,
    word_value,
)
from tysh.kernel.tools.schema import ArgBinding
from tysh.kernel.tools.tool import Tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from tysh.kernel.bind import convert
    from tysh.kernel.tools import params

    FastFn = Callable[[Sequence[Arg]], tuple[ToolArgs, Tool, Any] | None]
else:  # the general binder, typed conversion and args reflection: loaded by the first
    # tool that needs them
    convert = LazyModule(globals(), "convert", "tysh.kernel.bind.convert")
    params = LazyModule(globals(), "params", "tysh.kernel.tools.params")

__all__ = ["bind_and_convert", "make_fast"]


class _Slotted:
    __slots__ = ("slot",)


# the type of a `__slots__` field on its class (types.MemberDescriptorType, named without
# loading `types`)
_SlotMember = type(_Slotted.slot)  # type: ignore[attr-defined,unused-ignore]

_MISS: Any = object()
# conversion results that may be shared between calls: immutable scalars
SIMPLE: frozenset[type] = frozenset({int, float, str, bool})


def _loop_source() -> list[str]:
    """The binding loop: `_bind_typed`'s rules for words that bind cleanly; every other
    case returns None (the general binder then reports it). An option word is decoded
    once per tool into (mode, bool params it sets, value param, inline value or its
    conversion, the param's conversion cache) and the decoding is memoised, so `-qn5` or
    `--lines=3` cost one dict lookup; a value is converted once per spelling (`-n5`) or,
    given as the next word, once per text and param (`-n 5`), when the result is an
    immutable scalar. A bool param never lands in `named` here (its `=value` forms go to
    the general binder), so setting one needs no `named.pop`. `flags` is made at the
    first bool and `named` at the first value: a line without them (no options is the
    commonest line) leaves them None, and its ToolArgs makes the empty ones when they
    are first read."""
    return """\
def fast(args):
    positional = []
    named = flags = None
    it = iter(args)
    for a in it:
        tp = type(a)
        if tp is Operand:
            positional.append(a.value)
            continue
        if tp is not Flag:
            if tp is not DoubleDash:
                return None
            for b in it:
                positional.append(b.value if type(b) is Operand else word_value(b))
            break
        if a.value is not None:
            return None
        d = memo.get(a.text)
        if d is None:
            d = decode(a.text)
            if d is None:
                return None
        mode, bools, p, x, cache = d
        if bools:
            if flags is None:
                flags = set(bools)
            else:
                flags.update(bools)
            if mode == 0:
                continue
        if named is None:
            named = {}
        if mode == 1:
            named[p.name] = x
            continue
        if mode == 2:
            for b in it:
                break
            else:
                return None
            raw = b.value if type(b) is Operand else word_value(b)
            if type(raw) is str:
                v = cache.get(raw, INVALID)
                if v is INVALID:
                    v = p.conv(raw)
                    if v is INVALID:
                        return None
                    if type(v) in SIMPLE and len(cache) < 256:
                        cache[raw] = v
            else:
                v = p.conv(raw)
                if v is INVALID:
                    return None
            named[p.name] = v
            continue
        if p.kind == 1:  # an inline value whose conversion is not shared
            v = p.conv(x)
            if v is INVALID:
                return None
            named[p.name] = v
            continue
        # repeatable, or consumes=N: `_take`'s rules
        vals = [] if x is None else [x]
        need = p.consumes
        while len(vals) < need:
            b = next(it, INVALID)
            if b is INVALID:
                return None
            vals.append(word_value(b))
        conv = p.conv
        out = []
        for raw in vals:
            v = conv(raw)
            if v is INVALID:
                return None
            out.append(v)
        if need == 1:
            out = out[0]
        if p.repeatable:
            lst = named.get(p.name)
            if lst is None:
                named[p.name] = lst = []
            lst.append(out)
        else:
            named[p.name] = out
""".splitlines()


def _decoder(
    spell: dict[str, CompiledParam], shorts: dict[str, CompiledParam], memo: dict[str, Any]
) -> Callable[[str], Any]:
    """Decode one option word as `_bind_typed` does, for the clean cases only: a whole
    spelling, `--name=value`, or a bundle of known letters ending at most in one
    value-taking letter, into (mode, bools, param, x, the param's conversion cache).
    Bool params come back in `bools`. The mode says what the loop does with the rest:
    0 nothing (`-q`); 1 store x, the inline value's shared conversion (`-n5`); 2 take
    the next word as the value (`-n 5`); 3 the inline value x (or None) by the param's
    own rules (a repeatable or multi-word param, or a conversion not to be shared).
    None means: let the general binder handle the word."""
    caches: dict[str, dict[str, Any]] = {}

    def decode(text: str) -> Any:
        p = spell.get(text)
        bools: tuple[str, ...]
        inline: str | None = None
        if p is not None:
            if p.optional:
                return None  # a flag with an optional attached value: the general path
            if p.kind == 0:
                bools, p = (p.name,), None
            else:
                bools = ()
        elif text[1] == "-":
            eq = text.find("=")
            p = spell.get(text[:eq]) if eq > 0 else None
            if p is None or p.kind == 0 or p.optional:
                return None  # unknown, `--help`, `--json`, or a bool's `=value`
            bools, inline = (), text[eq + 1:]
        else:
            names: list[str] = []
            j = 1
            L = len(text)
            while j < L:
                q = shorts.get(text[j])
                j += 1
                if q is None or q.optional:
                    return None
                if q.kind:
                    p = q
                    break
                names.append(q.name)
            if p is None and not names:
                return None
            bools = tuple(names)
            if p is not None:
                inline = text[j:] or None
        out: Any
        if p is None:
            out = (0, bools, None, None, None)
        else:
            cache = caches.setdefault(p.name, {})
            mode = 3
            x: Any = inline
            if p.kind == 1 and inline is None:
                mode = 2
            elif p.kind == 1:
                v = p.conv(inline)
                if v is INVALID:
                    return None  # the general binder says what is wrong with it
                if type(v) in SIMPLE:
                    mode, x = 1, v
            out = (mode, bools, p, x, cache)
        if len(memo) >= 1024:
            memo.clear()
        memo[text] = out
        return out

    return decode


def make_fast(tool: Tool) -> FastFn | None:
    """The specialised bind-and-build function of a tool, or None when the tool's shape
    is not one it covers (the general path then serves it)."""
    if type(tool) is not Tool:
        return None
    schema = tool.schema
    cls = tool.args_class
    if cls is None and not schema.subcommands:
        return _make_untyped(tool)
    if (cls is None or schema.subcommands or schema.raw_argv or schema.map_positionals
            or schema.arg_binding is not ArgBinding.TYPED):
        return None
    fields = params.args_fields(cls)
    if fields is None:
        return None
    node: CompiledNode = compiled(schema)
    plan = convert.class_plan(cls)
    plans = plan.fields
    spell = dict(node.spell)
    if node.lift_json:
        spell.pop("--json", None)  # the kernel lifts --json: the general path does it
    memo: dict[str, Any] = {}
    # what every fast binding of this tool has in common, as class attributes: the
    # generated code sets only the rest (a subclass's plain attribute shadows the
    # ToolArgs slot of the same name, which then stays unset)
    shared: dict[str, Any] = {
        "__slots__": (), "leaf": schema, "words": None, "help": False, "prog": node.prog,
        "flag_words": frozenset(),
        # made as `Bound()` with every slot set by the generated code: an instance
        # made through the type's own call costs less than `object.__new__(Bound)`
        "__init__": object.__init__,
    }
    if node.lift_json:
        shared["json"] = False
    var = node.variadic
    lazy_bound = node.only_variadic and not node.required
    if lazy_bound:
        assert var is not None
        shared["bound"] = _made_when_read(
            "bound", lambda ta, name=var.name: {name: ta.positional[:]} if ta.positional else {})
    bound_cls = type(f"ToolArgs_{schema.name}", (ToolArgs,), shared)
    env: dict[str, Any] = {
        "memo": memo, "decode": _decoder(spell, node.shorts, memo),
        "Operand": Operand, "Flag": Flag, "DoubleDash": DoubleDash, "word_value": word_value,
        "INVALID": INVALID, "SIMPLE": SIMPLE,
        "node": node, "tool": tool,
        "finish": finish, "_new": object.__new__, "Bound": bound_cls, "cls": cls,
        "_MISS": _MISS, "leaf": schema, "prog": node.prog, "EMPTY": frozenset(),
    }
    # a line without bools or without values: the ToolArgs' empty `flags` or `named`
    # is made when first read (the kernel reads neither), by a subclass made on its
    # first use; below, the generated code reads read-only empties in their place
    lazy_named, lazy_flags = _made_when_read("named", dict), _made_when_read("flags", set)
    variants: dict[str, dict[str, Any]] = {
        "NoOptions": {"named": lazy_named, "flags": lazy_flags, "json": False},
        "NoNamed": {"named": lazy_named},
        "NoFlags": {"flags": lazy_flags, "json": False},
    }
    for vname, overrides in variants.items():
        env[vname] = _first_use(env, vname, f"ToolArgs_{schema.name}_{vname}", bound_cls,
                                {"__slots__": (), **overrides})
    env["NO_NAMED"] = _MappingProxy({})
    json_line = [] if node.lift_json else ["            ta.json = 'json' in flags"]
    src = _loop_source()
    # after the loop: the ToolArgs exactly as `_bind_typed` builds it
    src += [
        "    if named is None:",
        "        if flags is None:",
        "            ta = NoOptions()",
        "            flags = EMPTY",
        "        else:",
        "            ta = NoNamed()",
        "            ta.flags = flags",
        *json_line,
        "        named = NO_NAMED",
        "    else:",
        "        if flags is None:",
        "            ta = NoFlags()",
        "            flags = EMPTY",
        "        else:",
        "            ta = Bound()",
        "            ta.flags = flags",
        *json_line,
        "        ta.named = named",
        "    ta.positional = positional",
        "    ta.path = []",
    ]
    if not lazy_bound:
        src += [
            "    viol = []",
            "    finish(node, ta, -1, viol)",
            "    if viol:",
            "        return None",
            "    bound = ta.bound",
        ]
    by_param = {p.name: p for p in node.spell.values()}
    by_param.update({p.name: p for p in (*node.before, *node.after)})
    if var is not None:
        by_param[var.name] = var
    plain, str_tuples = plan.plain, plan.str_tuples
    fast_ctor = _slot_setters(cls, fields)
    if any(not f.init_name for f in fields):
        return None
    # fields read as bound or else their default: their lines, and their values when no
    # option was given (the commonest line, `sort`, `cat FILE`, sets none of them)
    as_bound: dict[int, str] = {}
    as_default: dict[int, str] = {}
    # whether the instance a line without options binds depends on its operands alone
    # (every other field its default, an immutable value): then one instance per
    # operand tuple is made and handed out again, as values are shared
    shareable = fast_ctor is not None
    share_key = "()"
    for k, f in enumerate(fields):
        fp = next((fp for fp in plans.values() if fp.field == f.name), None)
        if fp is None:
            return None
        p = by_param.get(fp.param)
        if p is None:
            return None
        pname = fp.param
        loc = f"v{k}"
        if f.required:
            dflt = None
        elif f.factory is not None:
            env[f"factory{k}"] = f.factory
            dflt = f"factory{k}()"
        else:
            env[f"default{k}"] = f.default
            dflt = f"default{k}"
        if dflt is None or f.factory is not None or not _immutable(f.default) \
                or (p.positional and p is not var):
            shareable = False
        flag = p.kind == 0 or p.optional  # a bool: set by a bare spelling
        if pname in plain and fp.field == pname and dflt is not None \
                and (p.kind != 2 or p.optional) and not p.positional:  # as bound, or the default
            if p.kind == 0 and f.default is False and f.factory is None:
                as_bound[k] = f"{pname!r} in flags"  # a plain bool, False unless spelled
            elif p.kind == 0:  # a plain bool: only a bare spelling sets it here
                as_bound[k] = f"True if {pname!r} in flags else {dflt}"
            elif flag:
                as_bound[k] = f"True if {pname!r} in flags else named.get({pname!r}, {dflt})"
            else:
                as_bound[k] = f"named.get({pname!r}, {dflt})"
            as_default[k] = dflt
            continue
        # where the bound value is: the variadic's is the operand list itself
        from_operands = p is var and node.only_variadic and not node.required \
            and pname not in plain
        if p is var and not from_operands:
            shareable = False
        # the bound value, or _MISS; then the lines that check and shape a bound value
        got: str | None = None
        if from_operands:  # (a list, when given)
            if pname in str_tuples and share_key == "()":
                share_key = loc  # a tuple of str, or the default
            else:
                shareable = False
        elif p.positional:
            got = f"bound.get({pname!r}, _MISS)"
        elif flag:
            got = f"True if {pname!r} in flags else named.get({pname!r}, _MISS)"
        else:
            got = f"named.get({pname!r}, _MISS)"
        body: list[str] = []
        seq_made = False  # the body makes the value from the operand list itself
        if pname in plain and fp.field == pname:
            pass
        elif pname in str_tuples:  # the general path's check: a list of str → a tuple
            # (a loop: the lists are short, and a loop costs less than set-up of a
            # `map` over them)
            pad = "" if from_operands else "    "
            seq = "positional" if from_operands else loc
            seq_made = from_operands
            if not from_operands:
                body.append(f"        if type({loc}) is list:")
            body += [
                f"        {pad}for e in {seq}:",
                f"        {pad}    if type(e) is not str:",
                f"        {pad}        return None",
                f"        {pad}{loc} = tuple({seq})",
            ]
        else:
            conv = fp.elem_conv
            if conv is not None:
                env[f"conv{k}"] = conv
                body += [
                    f"        if type({loc}) is list:",
                    f"            {loc} = [conv{k}(e) for e in {loc}]",
                    f"            for e in {loc}:",
                    "                if e is INVALID:",
                    "                    return None",
                ]
            if fp.shape is not None:
                env[f"shape{k}"] = fp.shape
                body.append(f"        {loc} = shape{k}({loc})")
        if_missing = "        return None" if dflt is None else f"        {loc} = {dflt}"
        if got is None:  # the operand list, tested for being empty
            # (a str tuple is made from the list itself, any other value from the local)
            take = [] if seq_made else [f"        {loc} = positional"]
            src += ["    if positional:", *take, *body, "    else:", if_missing]
        else:
            src += [f"    {loc} = {got}", f"    if {loc} is _MISS:", if_missing]
            if body:
                src += ["    else:", *body]
    # the instance from v0, v1, … or, for a field read as bound or else its default, the
    # expression that reads it (evaluated once, where the field is filled)
    def ctor(given: dict[int, str]) -> list[str]:
        vals = [given.get(k, f"v{k}") for k in range(len(fields))]
        if fast_ctor is not None and getattr(cls, "__setattr__", None) is object.__setattr__ \
                and all(f.name.isidentifier() and not f.name.startswith("__") for f in fields):
            # a class that lets its slots be assigned (a value record, frozen to the type
            # checker only): plain stores, the cheapest way to fill a slot
            return ["    o = _new(cls)", *(f"    o.{f.name} = {v}" for f, v in zip(fields, vals, strict=True))]
        if fast_ctor is not None:
            for k, setter in enumerate(fast_ctor):
                env[f"set{k}"] = setter
            return ["    o = _new(cls)", *(f"    set{k}(o, {v})" for k, v in enumerate(vals))]
        args_src = ", ".join(f"{f.init_name}={v}" for f, v in zip(fields, vals, strict=True))
        return [
            "    try:",
            f"        o = cls({args_src})",
            "    except (TypeError, ValueError):",
            "        return None",
        ]

    if shareable or as_bound:
        # a line with options builds its instance from what was bound; one without
        # reuses the instance made for the same operands, or builds it from defaults
        src += ["    if flags or named:", *("    " + line for line in ctor(as_bound)),
                "        return ta, tool, o"]
        if shareable:
            env["shared"] = {}
            src += [
                f"    o = shared.get({share_key})",
                "    if o is not None:",
                "        return ta, tool, o",
            ]
    src += ctor(as_default)
    if shareable:
        src += [
            "    if len(shared) >= 256:",
            "        shared.clear()",
            f"    shared[{share_key}] = o",
        ]
    src.append("    return ta, tool, o")
    # kept between processes: compiling a binder with many options would otherwise cost a
    # tool's first use in every `tysh -c`
    code = compile_cached("\n".join(src) + "\n", f"<fast binder for {schema.name}>")
    exec(code, env)
    fn: FastFn = env["fast"]
    return fn


# a read-only dict view (types.MappingProxyType, named without loading `types`)
_MappingProxy = type(type.__dict__)


def _immutable(value: object) -> bool:
    """Whether a default may be shared by every instance: a scalar, or a tuple or
    frozenset of such."""
    if type(value) in (tuple, frozenset):
        return all(_immutable(v) for v in value)  # type: ignore[attr-defined]
    return value is None or type(value) in (bool, int, float, str, bytes)


def reusable(targs: ToolArgs, inst: Any) -> bool:
    """Whether a binding may be handed to later runs of the same words: its instance is
    a frozen record holding only immutable values, so no run of the tool can change
    what the next is given. (Binding reads nothing but the tool and the words.) A
    raw or verbatim leaf's instance is the ToolArgs itself, whose lists a tool may
    change."""
    if inst is targs or not is_frozen_record(inst):
        return False
    return all(_immutable(getattr(inst, n)) for n in type(inst).__record_fields__)


def _first_use(env: dict[str, Any], name: str, qualname: str, base: type,
               ns: dict[str, Any]) -> Callable[[], ToolArgs]:
    """A stand-in for a ToolArgs subclass a fast binder may never need: on its first
    call it makes the class, puts it in the binder's globals under `name` in its own
    place, and returns an instance. Making a class costs as much as thousands of
    bindings, and most tools see only some kinds of line."""

    def make() -> ToolArgs:
        cls: Callable[[], ToolArgs] = type(qualname, (base,), ns)  # object.__init__
        env[name] = cls
        return cls()

    return make


def _made_when_read(slot: str, make: Callable[..., Any]) -> property:
    """A ToolArgs slot filled when first read, by `make()` or, for `bound`, `make(ta)`:
    the fields a run's tool never reads (the kernel passes it the args instance) are not
    built for every command. `bound` of a tool whose only positional is its variadic one
    is the operand list under that param's name (`finish`'s rule); the binder's other
    readers (the events log, an embedder) see the same value as a general binding's."""
    member: Any = ToolArgs.__dict__[slot]
    takes_ta = slot == "bound"

    def get(self: ToolArgs) -> Any:
        try:
            return member.__get__(self, ToolArgs)
        except AttributeError:
            got = make(self) if takes_ta else make()
            member.__set__(self, got)
            return got

    def set_(self: ToolArgs, value: Any) -> None:
        member.__set__(self, value)

    return property(get, set_)


def _slot_setters(cls: type, fields: Sequence[params.ArgField]) -> list[Callable[[Any, Any], None]] | None:
    """The slot setters that build an instance without calling the class, when that is
    exactly equivalent: every field a slot its __init__ fills with the argument as given
    (no validator, converter, alias or init hook). None otherwise (the class is called)."""
    setters = []
    for f in fields:
        if not f.plain:
            return None
        member = next((c.__dict__[f.name] for c in cls.__mro__ if f.name in c.__dict__), None)
        if not isinstance(member, _SlotMember):
            return None
        setters.append(member.__set__)
    return setters


def _make_untyped(tool: Tool) -> FastFn | None:
    """verbatim and raw_argv tools without an args class: the binder's own functions,
    called without the general path's dispatch; the tool gets the ToolArgs."""
    schema = tool.schema
    root = compiled(schema)
    if schema.arg_binding is ArgBinding.VERBATIM:
        # what bind_verbatim gives for words that are all operands, the commonest line
        # (`echo hi`): the fields every such binding shares are class attributes
        plain: type[ToolArgs] = type(f"ToolArgs_{schema.name}", (ToolArgs,), {
            "__slots__": (), "leaf": root.schema, "json": False, "help": False,
            "prog": root.prog, "bound": None, "flag_words": frozenset(),
        })
        new: Callable[[type[ToolArgs]], ToolArgs] = object.__new__

        def verbatim(args: Sequence[Arg]) -> tuple[ToolArgs, Tool, Any] | None:
            words = [a.value for a in args if type(a) is Operand]
            if len(words) != len(args):  # an option, `--`: the binder's own rules
                ta, viol = bind_verbatim(root, args)
                return None if viol else (ta, tool, ta)
            ta = new(plain)
            ta.positional = []
            ta.named = {}
            ta.flags = set()
            ta.words = words
            ta.path = []
            return ta, tool, ta

        return verbatim
    if schema.raw_argv:
        leaf, prog = root.schema, root.prog

        def raw(args: Sequence[Arg]) -> tuple[ToolArgs, Tool, Any] | None:
            ta = ToolArgs(leaf, [word_value(a) for a in args], {}, set(), prog=prog)
            return ta, tool, ta

        return raw
    return None


# tool → its specialised binder (None: it has none), built on first use. Tools hash and
# compare by identity, and the cache holds them, so an entry can never be stale.
_SPECIALISED: dict[Any, FastFn | None] = {}


def _specialise(tool: Tool) -> FastFn | None:
    if len(_SPECIALISED) > 4096:
        _SPECIALISED.clear()
    fn = _SPECIALISED[tool] = make_fast(tool)
    return fn


def bind_and_convert(tool: Tool, args: Sequence[Arg]) -> tuple[ToolArgs, Tool, Any]:
    """The kernel's one call: bind the words, pick the leaf Tool, build its args instance.

    Returns (ToolArgs, leaf Tool, instance); the instance is the ToolArgs itself for
    raw/verbatim leaves (no args class) and None when `--help` was asked for. Binding and
    conversion violations are raised together as one BindError."""
    try:
        fast = _SPECIALISED[tool]
    except KeyError:
        fast = _specialise(tool)
    except TypeError:  # an unhashable tool-like object: no fast path
        fast = None
    if fast is not None:
        done = fast(args)
        if done is not None:
            return done
    return convert.bind_and_convert_general(tool, args)


def bind_argv(tool: Tool, argv: Sequence[str]) -> tuple[ToolArgs, Tool, Any]:
    """`bind_and_convert` for plain strings, as a command line would give them (a word
    starting with `-` is an option)."""
    return bind_and_convert(tool, classify(list(argv)))
