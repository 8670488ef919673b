"""The argv binder: classified words in, ToolArgs out.

Every schema is compiled once into a tree of `CompiledNode` lookup tables (spelling → param,
short letter → param, subcommand word → child, positional plan, required list) and kept
in a cache keyed by the schema's identity, so binding a command line is one pass over
its words with dict lookups and no per-call setup.
"""

from __future__ import annotations

from tysh.kernel.base.argv import (
    DOUBLE_DASH,
    Arg,
    DoubleDash,
    Flag,
    Operand,
    classify,
    word_value,
)
from tysh.kernel.base.errors import TyshError
from tysh.kernel.base.values import to_text
from tysh.kernel.tools.schema import ArgBinding, ParamSchema, ToolSchema

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

__all__ = [
    "DOUBLE_DASH",
    "Arg",
    "BindError",
    "CONVERTERS",
    "CompiledNode",
    "CompiledParam",
    "DoubleDash",
    "EXPECTED",
    "Flag",
    "INVALID",
    "Operand",
    "ToolArgs",
    "bind",
    "bind_collect",
    "bind_flat",
    "bind_verbatim",
    "classify",
    "compiled",
    "finish",
    "parse_bool_word",
    "select_leaf",
    "word_value",
]


class RangeViolation(str):
    """A number outside the range its param declares, in the tool's own words: the tool
    refusing a value, as GNU tools do with status 1, rather than a usage error."""


class BindError(TyshError):
    """A usage error: every violation found, one line each, exit status 2 — or 1 when
    every violation is a number out of its declared range (RangeViolation)."""

    status = 2

    def __init__(self, violations: list[str]) -> None:
        ranged = bool(violations) and all(type(v) is RangeViolation for v in violations)
        super().__init__("\n".join(violations), 1 if ranged else 2)
        self.violations = violations


class ToolArgs:
    """The binder's result. `named`/`flags`/`values` are keyed by canonical param name.

    `bound` holds the positional params' values, converted to their schema types (the
    variadic one as a list) — the operands distributed over them — so the typed args
    conversion only has to build the instance. `prog` is the tool's full path (`kv store`).
    `flag_words` (verbatim only) are the indices into `words` of the words that were
    Flags: a verbatim tool that parses its own options takes only these as options, so a
    glob result such as a file named `-n` stays an operand. Equal only to itself."""

    __slots__ = ("leaf", "positional", "named", "flags", "words", "json", "help", "path",
                 "prog", "bound", "flag_words")

    def __init__(self, leaf: ToolSchema, positional: list[Any], named: dict[str, Any],
                 flags: set[str], words: list[Any] | None = None, json: bool = False,
                 help: bool = False, path: list[str] | None = None,  # noqa: A002
                 prog: str = "", bound: dict[str, Any] | None = None,
                 flag_words: frozenset[int] = frozenset()) -> None:
        self.leaf = leaf
        self.positional = positional
        self.named = named
        self.flags = flags
        self.words = words
        self.json = json
        self.help = help
        self.path: list[str] = [] if path is None else path
        self.prog = prog
        self.bound = bound
        self.flag_words = flag_words

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"ToolArgs({fields})"

    def value_of(self, name: str, default: Any = None) -> Any:
        """The bound value of a param by canonical name: option, flag or positional."""
        if name in self.flags:
            return True
        if name in self.named:
            return self.named[name]
        if self.bound is not None and name in self.bound:
            return self.bound[name]
        return default


# ---------------------------------------------------------------------------------------
# value conversion, by schema type

INVALID: Any = object()  # what a converter returns for a value it refuses
_HUGE = 1 << 80

# The spellings `--json` and a bool option accept after `=`; lower-case only.
BOOL_WORDS: dict[str, bool] = {
    "": False, "true": True, "1": True, "yes": True, "on": True,
    "false": False, "0": False, "no": False, "off": False,
}


def parse_bool_word(v: Any) -> bool | None:
    """`true|1|yes|on` → True, `false|0|no|off|` → False, anything else → None."""
    if v is True or v is False:
        return bool(v)
    if isinstance(v, str):
        return BOOL_WORDS.get(v)
    return None


def _conv_string(v: Any) -> Any:
    t = type(v)
    if t is str:
        return v
    if t is int or t is float or t is bool:
        return to_text(v)
    return INVALID


def _conv_int(v: Any) -> Any:
    t = type(v)
    if t is str:
        if v.isascii() and (v.isdigit() or (len(v) > 1 and v[0] in "+-" and v[1:].isdigit())):
            if len(v) > 24 and len(v.lstrip("+-").lstrip("0")) > 20:
                # far past any 64-bit range (and maybe past Python's digit limit for
                # int()): a value no range admits, with its sign
                return -_HUGE if v[0] == "-" else _HUGE
            return int(v)
        return INVALID
    if t is int:
        return v
    if t is float and v.is_integer():
        return int(v)
    return INVALID


def _conv_float(v: Any) -> Any:
    t = type(v)
    if t is str:
        if not v.isascii() or "_" in v or v.strip() != v:
            return INVALID
        try:
            f = float(v)
        except ValueError:
            return INVALID
        return INVALID if f != f or f in (float("inf"), float("-inf")) else f
    if t is int or t is float:
        return float(v)
    return INVALID


def _conv_bool(v: Any) -> Any:
    b = parse_bool_word(v)
    return INVALID if b is None else b


def _conv_any(v: Any) -> Any:
    return v


CONVERTERS: dict[str, Callable[[Any], Any]] = {
    "string": _conv_string,
    "path": _conv_string,
    "int": _conv_int,
    "float": _conv_float,
    "bool": _conv_bool,
    "any": _conv_any,
    "array": _conv_any,
}

EXPECTED: dict[str, str] = {
    "string": "expected a string",
    "path": "expected a path",
    "int": "expected an integer",
    "float": "expected a number",
    "bool": "expected true or false",
    "any": "expected a value",
    "array": "expected a list",
}


def _show(v: Any) -> str:
    return to_text(v)


# ---------------------------------------------------------------------------------------
# compiled tables


class CompiledParam:
    """A param compiled for binding."""

    __slots__ = (
        "name", "ptype", "takes_value", "consumes", "repeatable", "positional",
        "conv", "expected", "long", "label", "choices", "schema", "kind", "optional",
    )

    def __init__(self, p: ParamSchema) -> None:
        self.schema = p
        self.name = p.name
        self.ptype = p.param_type
        self.takes_value = p.param_type != "bool"
        self.consumes = max(1, p.consumes)
        self.repeatable = p.repeatable or (p.param_type == "array" and not p.positional)
        self.positional = p.positional
        self.long = p.long_spelling
        self.label = p.name.upper()
        self.optional = p.optional_value
        # 0: a bool; 1: one value per occurrence, last wins; 2: anything else (_take),
        # a flag with an optional attached value among them
        self.kind = (2 if self.optional else 0) if not self.takes_value else (
            1 if self.consumes == 1 and not self.repeatable else 2)
        if p.choices:
            choices = frozenset(p.choices)
            self.choices = choices
            def conv(v: Any) -> Any:
                s = _conv_string(v)
                return s if s is not INVALID and s in choices else INVALID

            self.conv: Callable[[Any], Any] = conv
            self.expected = "expected one of " + ", ".join(p.choices)
        else:
            self.choices = frozenset()
            self.conv = CONVERTERS.get(p.param_type, _conv_any)
            self.expected = EXPECTED.get(p.param_type, "expected a value")
            if p.param_type in ("int", "float"):
                self.conv = _ranged(self.conv, *self.bounds())

    def bounds(self) -> tuple[int | float, int | float]:
        """The values a number param takes, both ends included: what it declares, and
        for an int never past a signed 64-bit integer (no tool meets a number it could
        not index or allocate by, only its own range check)."""
        p = self.schema
        if p.param_type == "int":
            lo: int | float = INT_MIN if p.minimum is None else max(p.minimum, INT_MIN)
            hi: int | float = INT_MAX if p.maximum is None else min(p.maximum, INT_MAX)
            return lo, hi
        return (float("-inf") if p.minimum is None else p.minimum,
                float("inf") if p.maximum is None else p.maximum)

    def invalid(self, prog: str, raw: Any, spelled: str) -> str:
        """The message for a value this param refuses: the tool's own range message, or
        the binder's (a range, or the type expected)."""
        p = self.schema
        base = CONVERTERS.get(p.param_type, _conv_any)
        got = INVALID if self.choices else base(raw)
        if got is INVALID:
            return f"{prog}: invalid value '{_show(raw)}' for '{spelled}': {self.expected}"
        if p.range_error is not None:
            return RangeViolation(
                f"{prog}: " + p.range_error.format(value=_show(raw), option=spelled))
        lo, hi = self.bounds()
        kind = "an integer" if p.param_type == "int" else "a number"
        if lo == INT_MIN or lo == float("-inf"):
            want = f"{kind} of at most {hi}"
        elif hi == INT_MAX or hi == float("inf"):
            want = f"{kind} of at least {lo}"
        else:
            want = f"{kind} from {lo} to {hi}"
        return f"{prog}: invalid value '{_show(raw)}' for '{spelled}': expected {want}"


INT_MIN = -(1 << 63)
INT_MAX = (1 << 63) - 1


def _ranged(conv: Callable[[Any], Any], lo: int | float,
            hi: int | float) -> Callable[[Any], Any]:
    """`conv`, refusing (INVALID) a number outside lo..hi."""

    def ranged(v: Any) -> Any:
        x = conv(v)
        if x is INVALID or lo <= x <= hi:
            return x
        return INVALID

    return ranged


class CompiledNode:
    """The lookup tables of one schema node, with its ancestors' options merged in
    (nearest wins), built once per schema tree."""

    __slots__ = (
        "schema", "prog", "path", "spell", "shorts", "multi_dash", "children",
        "own_h", "intercept", "lift_json", "before", "variadic", "after",
        "required", "mappable", "map_positionals", "child_names", "only_variadic", "flat",
    )

    def __init__(self, schema: ToolSchema, parent: CompiledNode | None) -> None:
        self.schema: ToolSchema = schema
        self.prog: str = schema.name if parent is None else parent.prog + " " + schema.name
        self.path: tuple[str, ...] = () if parent is None else (*parent.path, schema.name)
        spell: dict[str, CompiledParam] = dict(parent.spell) if parent is not None else {}
        self.spell: dict[str, CompiledParam]
        own: list[CompiledParam] = [CompiledParam(p) for p in schema.params]
        for cp in own:
            if cp.positional:
                continue
            spell[cp.long] = cp
            for a in cp.schema.aliases:
                spell[a] = cp
        self.spell = spell
        self.shorts: dict[str, CompiledParam] = {
            k[1]: v for k, v in spell.items() if len(k) == 2 and k[0] == "-" and k[1] != "-"
        }
        self.multi_dash = any(len(k) > 2 and k[0] == "-" and k[1] != "-" for k in spell)
        self.own_h = "h" in self.shorts
        self.intercept = not schema.owns_output
        self.lift_json = not schema.owns_output
        positional = [cp for cp in own if cp.positional]
        vi = next((i for i, cp in enumerate(positional) if cp.ptype == "array"), None)
        if vi is None:
            self.before, self.variadic, self.after = positional, None, []
        else:
            self.before = positional[:vi]
            self.variadic = positional[vi]
            self.after = positional[vi + 1:]
        required: list[CompiledParam] = [cp for cp in own if cp.schema.required]
        if parent is not None:  # an ancestor's required option, unless shadowed here
            required += [cp for cp in parent.required
                         if not cp.positional and spell.get(cp.long) is cp]
        self.required: list[CompiledParam] = required
        self.only_variadic = (
            self.variadic is not None and not self.before and not self.after
            and not schema.map_positionals)
        self.map_positionals = schema.map_positionals
        self.mappable = [cp for cp in own if cp.takes_value and not cp.positional]
        # typed, no subcommands, not raw/verbatim: bind_and_convert goes straight to the loop
        self.flat = (parent is None and not schema.subcommands and not schema.raw_argv
                     and schema.arg_binding is ArgBinding.TYPED)
        self.children: dict[str, CompiledNode] = {}
        self.child_names: list[str] = []
        for c in schema.subcommands:
            cn = CompiledNode(c, self)
            self.child_names.append(c.name)
            for w in (*c.aliases, c.name):
                self.children[w] = cn

    def leaf_node(self, path: Sequence[str]) -> CompiledNode:
        node = self
        for p in path:
            node = node.children[p]
        return node


_CACHE: dict[int, tuple[ToolSchema, CompiledNode]] = {}


def compiled(schema: ToolSchema) -> CompiledNode:
    """The compiled tables of a schema tree, built on first use and cached by identity
    (the cache holds the schema, so its id cannot be reused while the entry lives)."""
    hit = _CACHE.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    if len(_CACHE) > 4096:
        _CACHE.clear()
    node = CompiledNode(schema, None)
    _CACHE[id(schema)] = (schema, node)
    return node


# ---------------------------------------------------------------------------------------
# helpers


def _did_you_mean(word: str, candidates: Sequence[str]) -> str:
    import difflib

    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _unknown(node: CompiledNode, word: str) -> str:
    cands = list(node.spell)
    if node.intercept and "--help" not in node.spell:
        cands.append("--help")
    if node.lift_json:
        cands.append("--json")
    return f"{node.prog}: unknown option '{word}'{_did_you_mean(word, cands)}"


def _json_value(node: CompiledNode, spelled: str, v: Any, viol: list[str]) -> bool:
    b = parse_bool_word(v)
    if b is None:
        viol.append(
            f"{node.prog}: invalid value '{_show(v)}' for '{spelled}': "
            "expected one of true, false, 1, 0, yes, no, on, off"
        )
        return False
    return b


# ---------------------------------------------------------------------------------------
# select_leaf: the operands from the left pick the subcommand


def _select(
    root: CompiledNode, args: Sequence[Arg]
) -> tuple[CompiledNode, list[str], set[int], str | None]:
    """Walk the operands from the left down the subcommand tree.

    Returns the node reached, its path, the indices of the selector words and an error."""
    node = root
    path: list[str] = []
    skip: set[int] = set()
    i = 0
    n = len(args)
    while i < n and node.children:
        a = args[i]
        tp = type(a)
        if tp is DoubleDash:
            break
        if tp is Flag:
            assert isinstance(a, Flag)
            i += 1 + _value_words(node, a)
            continue
        assert isinstance(a, Operand)
        if not a.literal:
            return node, path, skip, (
                f"{node.prog}: a subcommand name must be written literally "
                f"(got '{_show(a.value)}'; choices: {', '.join(node.child_names)})"
            )
        word = a.value
        child = node.children.get(word) if isinstance(word, str) else None
        if child is None:
            return node, path, skip, (
                f"{node.prog}: unknown subcommand '{_show(word)}' "
                f"(choices: {', '.join(node.child_names)})"
                + _did_you_mean(_show(word), list(node.children))
            )
        skip.add(i)
        node = child
        path.append(child.schema.name)
        i += 1
    return node, path, skip, None


def _value_words(node: CompiledNode, a: Flag) -> int:
    """How many following words a flag takes as its values at this node."""
    text = a.text
    if a.value is not None:
        return 0
    if text[1] == "-":
        if "=" in text:
            return 0
        p = node.spell.get(text)
        return p.consumes if p is not None and p.takes_value else 0
    p = node.spell.get(text)
    if p is not None:
        return p.consumes if p.takes_value else 0
    for j in range(1, len(text)):
        p = node.shorts.get(text[j])
        if p is None:
            continue
        if p.takes_value:
            return p.consumes if j == len(text) - 1 else p.consumes - 1
    return 0


def select_leaf(schema: ToolSchema, args: Sequence[Arg]) -> tuple[list[str], ToolSchema]:
    """The subcommand path and leaf schema the words route to; BindError when routing fails."""
    root = compiled(schema)
    if not root.children or schema.raw_argv or schema.arg_binding is ArgBinding.VERBATIM:
        return [], schema
    node, path, _, err = _select(root, args)
    if err is not None:
        raise BindError([err])
    return path, node.schema


# ---------------------------------------------------------------------------------------
# binding


def bind(schema: ToolSchema, args: Sequence[Arg]) -> ToolArgs:
    """Bind classified words against a schema; BindError lists every violation."""
    ta, viol = bind_collect(schema, args)
    if viol:
        raise BindError(viol)
    return ta


def bind_collect(schema: ToolSchema, args: Sequence[Arg]) -> tuple[ToolArgs, list[str]]:
    """Like `bind`, but returns the violations instead of raising, so the typed args
    conversion can add its own and report them all together. With `help` set the list
    is always empty."""
    root = compiled(schema)
    if schema.arg_binding is ArgBinding.VERBATIM:
        return bind_verbatim(root, args)
    if schema.raw_argv:
        return ToolArgs(schema, [word_value(a) for a in args], {}, set(), prog=root.prog), []
    if root.children:
        node, path, skip, err = _select(root, args)
        if skip:
            args = [a for j, a in enumerate(args) if j not in skip]
        ta, viol = _bind_typed(node, args, path)
        if ta.help:
            return ta, []
        if err is not None:
            return ta, [err]
        return ta, viol
    return _bind_typed(root, args, [])


def bind_flat(schema: ToolSchema, args: Sequence[Arg]) -> tuple[ToolArgs, list[str]] | None:
    """The kernel's hot path: `bind_collect` for a flat typed tool, None for any other."""
    hit = _CACHE.get(id(schema))
    node = hit[1] if hit is not None and hit[0] is schema else compiled(schema)
    return _bind_typed(node, args, []) if node.flat else None


def bind_verbatim(root: CompiledNode, args: Sequence[Arg]) -> tuple[ToolArgs, list[str]]:
    """A verbatim tool's binding: every word in order; the kernel still takes `--json`
    unless the tool owns it."""
    words: list[Any] = []
    flag_idx: list[int] = []
    json = False
    viol: list[str] = []
    lift = root.lift_json
    seen_dd = False
    for a in args:
        tp = type(a)
        if tp is Flag and not seen_dd:
            assert isinstance(a, Flag)
            text = a.text
            if text == "--json" or text.startswith("--json="):
                v: Any = text[7:] if a.value is None else a.value
                if lift:
                    json = True if text == "--json" and a.value is None else _json_value(
                        root, "--json", v, viol)
                    continue
                # the tool owns --json: it stays in words; the kernel still learns of it
                json = True if text == "--json" and a.value is None else bool(
                    parse_bool_word(v))
        elif tp is DoubleDash:
            seen_dd = True
        if tp is Flag:
            flag_idx.append(len(words))
        words.append(word_value(a))
    return ToolArgs(root.schema, [], {}, set(), words=words, json=json, prog=root.prog,
                    flag_words=frozenset(flag_idx)), viol


def _bind_typed(
    node: CompiledNode, args: Sequence[Arg], path: list[str]
) -> tuple[ToolArgs, list[str]]:
    spell = node.spell
    positional: list[Any] = []
    named: dict[str, Any] = {}
    flags: set[str] = set()
    viol: list[str] = []
    json = False
    help_ = False
    dd_at = -1
    i = 0
    n = len(args)
    shorts = node.shorts
    while i < n:
        a = args[i]
        i += 1
        tp = type(a)
        if tp is Operand:
            positional.append(a.value)  # type: ignore[union-attr]
            continue
        if tp is DoubleDash:
            dd_at = len(positional)
            positional.extend([word_value(b) for b in args[i:]])
            break
        text: str = a.text  # type: ignore[union-attr]
        fv: Any = a.value  # type: ignore[union-attr]
        if text[1] == "-":
            eq = text.find("=")
            if eq < 0:
                key = text
                inline: Any = fv
                has_inline = fv is not None
            else:
                key = text[:eq]
                inline = text[eq + 1:]
                has_inline = True
            if key == "--json" and node.lift_json:
                json = _json_value(node, key, inline, viol) if has_inline else True
                continue
            p = spell.get(key)
            if p is None:
                if key == "--help" and node.intercept:
                    help_ = True
                else:
                    viol.append(_unknown(node, key))
                continue
        else:
            # single dash: a whole spelling (-n, -name) or a bundle of letters
            key = text
            p = spell.get(text)
            if p is None:
                j = 1
                L = len(text)
                p = None
                while j < L:
                    ch = text[j]
                    j += 1
                    q = shorts.get(ch)
                    if q is None:
                        if ch == "h" and node.intercept:
                            help_ = True
                            continue
                        if j == 2 and node.multi_dash:
                            viol.append(_unknown(node, text))
                            break
                        viol.append(_unknown(node, "-" + ch))
                        continue
                    if q.kind:
                        p = q
                        key = "-" + ch
                        break
                    flags.add(q.name)
                    if named:
                        named.pop(q.name, None)
                if p is None:
                    continue
                fv = text[j:] or None
            inline = fv
            has_inline = fv is not None
        kind = p.kind
        if kind == 1:
            if has_inline:
                raw = inline
            elif i < n:
                b = args[i]
                i += 1
                raw = b.value if type(b) is Operand else word_value(b)
            else:
                viol.append(f"{node.prog}: option '{key}' needs a value")
                named.setdefault(p.name, None)  # written: not also "missing required"
                continue
            v = p.conv(raw)
            if v is INVALID:
                viol.append(p.invalid(node.prog, raw, key))
            else:
                named[p.name] = v
        elif kind == 0 and not has_inline:
            flags.add(p.name)
            if named:
                named.pop(p.name, None)
        else:
            i = _take(node, p, key, inline, has_inline, args, i, named, flags, viol)
    if not node.lift_json and "json" in flags:
        json = True  # an owned --json: the tool renders it, the kernel still knows
    if node.only_variadic and not help_ and not node.required:
        # the common shape (`head [FILE]...`) without a call to finish()
        bound = {node.variadic.name: positional[:]} if positional else {}  # type: ignore[union-attr]
        return ToolArgs(node.schema, positional, named, flags, None, json, False, path,
                        node.prog, bound), viol
    ta = ToolArgs(node.schema, positional, named, flags, None, json, help_, path, node.prog)
    if help_:
        return ta, []
    finish(node, ta, dd_at, viol)
    return ta, viol


def _take(
    node: CompiledNode, p: CompiledParam, spelled: str, inline: Any, has_inline: bool,
    args: Sequence[Arg], i: int, named: dict[str, Any], flags: set[str], viol: list[str],
) -> int:
    """Bind one occurrence of an option; returns the index of the next unread word."""
    name = p.name
    if not p.takes_value:
        if has_inline and p.optional:  # `-i.bak`, `--in-place=.bak`: the value as given
            v = _conv_string(inline)
            if v is INVALID:
                viol.append(f"{node.prog}: invalid value '{_show(inline)}' for '{spelled}': "
                            "expected text")
            else:
                flags.discard(name)
                named[name] = v
            return i
        if has_inline:
            b = parse_bool_word(inline)
            if b is None and p.choices and inline in p.choices:
                # a flag whose value is optional, given only after `=` (`--follow=name`)
                flags.discard(name)
                named[name] = inline
            elif b is None:
                expected = ("expected one of " + ", ".join(p.schema.choices)
                            if p.choices else "expected true or false")
                viol.append(f"{node.prog}: invalid value '{_show(inline)}' for '{spelled}': "
                            + expected)
            elif b:
                flags.add(name)
                named.pop(name, None)
            else:
                flags.discard(name)
                named[name] = False
        else:
            flags.add(name)
            if named:
                named.pop(name, None)
        return i
    need = p.consumes
    if need == 1:
        if has_inline:
            raw = inline
        elif i < len(args):
            raw = word_value(args[i])
            i += 1
        else:
            viol.append(f"{node.prog}: option '{spelled}' needs a value")
            named.setdefault(name, None)
            return i
        if p.repeatable:
            lst = named.get(name)
            if lst is None:
                named[name] = lst = []
            # `--name=$x` with a typed list adds each element as an occurrence
            for raw1 in (raw if has_inline and type(raw) is list else (raw,)):
                v = p.conv(raw1)
                if v is INVALID:
                    viol.append(p.invalid(node.prog, raw1, spelled))
                else:
                    lst.append(v)
            return i
        v = p.conv(raw)
        if v is INVALID:
            viol.append(p.invalid(node.prog, raw, spelled))
            return i
        named[name] = v
        return i
    vals: list[Any] = [inline] if has_inline else []
    while len(vals) < need and i < len(args):
        vals.append(word_value(args[i]))
        i += 1
    if len(vals) < need:
        viol.append(f"{node.prog}: option '{spelled}' needs {need} values")
        named.setdefault(name, None)
        return i
    out: list[Any] = []
    for raw in vals:
        v = p.conv(raw)
        if v is INVALID:
            viol.append(p.invalid(node.prog, raw, spelled))
            return i
        out.append(v)
    if p.repeatable:
        named.setdefault(name, []).append(out)
    else:
        named[name] = out
    return i


def finish(node: CompiledNode, ta: ToolArgs, dd_at: int, viol: list[str]) -> None:
    """Operands onto named params (map_positionals), then positional matching,
    conversion and the required check."""
    bound: dict[str, Any] = {}
    ta.bound = bound
    ops = ta.positional
    var = node.variadic
    if node.only_variadic:  # the common shape: `head [FILE]...`
        if ops:
            bound[var.name] = ops[:]  # type: ignore[union-attr]
    elif ops or node.before or var is not None:
        if node.map_positionals and ops:
            _map_positionals(node, ta, dd_at, viol)
        _distribute(node, ops, bound, viol)
    if node.required:
        named = ta.named
        flags = ta.flags
        for p in node.required:
            name = p.name
            if name not in bound and name not in named and name not in flags:
                if p.positional:
                    viol.append(f"{node.prog}: missing required argument '{p.label}'")
                else:
                    viol.append(f"{node.prog}: missing required option '{p.long}'")


def _map_positionals(node: CompiledNode, ta: ToolArgs, dd_at: int, viol: list[str]) -> None:
    """map_positionals: operands before `--` fill the non-bool params not given by name,
    in order."""
    ops = ta.positional
    named = ta.named
    limit = len(ops) if dd_at < 0 else dd_at
    k = 0
    for p in node.mappable:
        if k >= limit:
            break
        if p.name in named:
            continue
        raw = ops[k]
        k += 1
        v = p.conv(raw)
        if v is INVALID:
            viol.append(p.invalid(node.prog, raw, p.long))
            continue
        if p.repeatable:
            v = [v] if p.consumes == 1 else [[v]]
        named[p.name] = v
    if k:
        del ops[:k]


def _distribute(node: CompiledNode, ops: list[Any], bound: dict[str, Any], viol: list[str]) -> None:
    """Operands over positional params: fixed ones before the variadic from the front,
    those after it from the back; surplus operands are an error."""
    prog = node.prog
    before = node.before
    after = node.after
    var = node.variadic
    k = len(ops)
    nb = len(before)
    if var is None:
        for idx in range(min(k, nb)):
            _set_pos(before[idx], ops[idx], bound, viol, prog)
        if k > nb and not node.map_positionals:
            for extra in ops[nb:]:
                viol.append(f"{prog}: unexpected argument '{_show(extra)}'")
        return
    na = len(after)
    if k >= nb + na:
        for idx in range(nb):
            _set_pos(before[idx], ops[idx], bound, viol, prog)
        for idx in range(na):
            _set_pos(after[idx], ops[k - na + idx], bound, viol, prog)
        if k - na > nb:
            bound[var.name] = ops[nb:k - na]
    else:
        for idx in range(min(k, nb)):
            _set_pos(before[idx], ops[idx], bound, viol, prog)
        for idx, raw in enumerate(ops[nb:]):
            _set_pos(after[idx], raw, bound, viol, prog)


def _set_pos(
    p: CompiledParam, raw: Any, values: dict[str, Any], viol: list[str], prog: str
) -> None:
    v = p.conv(raw)
    if v is INVALID:
        viol.append(p.invalid(prog, raw, p.label))
    else:
        values[p.name] = v
