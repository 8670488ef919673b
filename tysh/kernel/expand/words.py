"""The expansion stage: words from the syntax tree become arguments.

Order: brace → tilde → parameter, arithmetic and command substitution → glob → quote
removal. By default command arguments are never split on IFS: a non-empty unquoted `$x`
is exactly one argument and is never globbed, an unquoted `$(…)` gives one argument per
line of its output, an empty one that makes up the whole word disappears, and `"$@"` /
`${a[@]}` give one word per element. Splitting on IFS happens where a list is built
(`expand_list`: `for` heads and array literals). Under `set -o sh_word_split` (the host's
`sh_word_split`) every unquoted expansion is split on IFS and its fields globbed, as bash
does.

The interpreter supplies an `ExpandHost`. Indexed arrays are lists (None elements are
unset holes of a sparse array), associative arrays and records are dicts.
"""

from __future__ import annotations

import sys

from tysh.kernel.base.argv import DOUBLE_DASH, Arg, Flag, Operand, looks_like_flag
from tysh.kernel.base.errors import ExpansionError, VarError
from tysh.kernel.base.hints import Protocol
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.lazyre import DOTALL, LazyRegex, compile_pattern
from tysh.kernel.base.memo import bounded_memo
from tysh.kernel.base.values import (
    AssocArray,
    SparseList,
    Value,
    array_get,
    array_items,
    byte_view,
    encode_text,
    from_byte_view,
    mend,
    starts_mid_character,
    to_text,
)
from tysh.kernel.fs.api import FileSystem
from tysh.kernel.syntax import ast

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Sequence
    from typing import Any

    from tysh.kernel.expand import arith, pattern
else:  # loaded by the first word that needs arithmetic or a pattern
    arith = LazyModule(globals(), "arith", "tysh.kernel.expand.arith")
    pattern = LazyModule(globals(), "pattern", "tysh.kernel.expand.pattern")

__all__ = [
    "ExpandHost",
    "ExpansionError",
    "arith_word_fn",
    "eval_arith_word",
    "expand_args",
    "expand_heredoc",
    "expand_list",
    "expand_pattern",
    "expand_regex",
    "expand_text",
    "expand_value",
    "plain_scalar",
]


class ExpandHost(Protocol):
    """What the expander needs from the interpreter's session."""

    fs: FileSystem

    @property
    def cwd(self) -> str: ...

    @property
    def nounset(self) -> bool: ...

    def lookup(self, name: str) -> Value | None:
        """Scalars (str/int/…), indexed arrays (list), assoc arrays (dict); None = unset."""
        ...

    def assign(self, name: str, value: Value) -> None: ...

    def assign_index(self, name: str, key: str | int, value: Value) -> None: ...

    def positional(self) -> list[str]: ...

    def special(self, name: str) -> str:
        """`?` `$` `!` `0` `-`."""
        ...

    def command_substitution(self, body: ast.Script) -> Value:
        """Run `$(…)`: its text with trailing newlines removed, or the typed value of a
        tool with typed substitution."""
        ...

    def need_memory(self, n: int, what: str) -> None:
        """Raise the kernel's MemoryLimitExceeded unless `n` more bytes fit its budget."""
        ...

    def check_boundary(self) -> None:
        """Raise the kernel's Cancelled or TimedOut when the run must stop."""
        ...

    def process_substitution(self, node: ast.ProcSub) -> str:
        """Start `<(…)` / `>(…)`; the file name its word part becomes."""
        ...

    def byte_locale(self) -> bool:
        """Whether the locale (LC_ALL, LC_CTYPE, LANG) counts bytes: lengths, substrings
        and patterns of text that is not ASCII work on its bytes then (C locale)."""
        ...


# Joins and results shorter than this are never checked against the memory budget:
# the check costs a sum over the pieces, and short text cannot exhaust memory faster
# than the time limit ends the script.
_CHECK_AT = 1 << 16
# what one argument or list item costs beyond its text (its object and slot)
_ITEM_BYTES = 64
_FIELD_BYTES = 256  # a field being built: its object, its list of pieces, one piece


def _join(pieces: list[str], host: ExpandHost, sep: str = "") -> str:
    """`sep.join(pieces)`, refused before it is built when it would not fit the memory
    budget (`x=$x$x` doubling in a loop)."""
    if len(pieces) > 1:
        n = sum(map(len, pieces))
        if n > _CHECK_AT:
            host.need_memory(sum(map(sys.getsizeof, pieces)) + len(sep) * len(pieces),
                             "word expansion")
        text = sep.join(pieces)
        if not text.isascii() and any(map(starts_mid_character, pieces)):
            return mend(text)  # bytes of one character cut apart and put together
        return text
    return sep.join(pieces)


def _checked(text: str, host: ExpandHost) -> str:
    """A result built without a join (`${x//p/r}`, `${a[*]}`): refused once built when
    it alone passes the budget, so it is never stored or passed on."""
    if len(text) > _CHECK_AT:
        host.need_memory(sys.getsizeof(text), "word expansion")
    return text


# Characters that make an unquoted Lit need more than the fast path.
_LIVE = frozenset("{*?[(~\\")
_GLOB_CHARS = frozenset("*?[(")
_BLANK_IFS = (None, " \t\n")  # IFS unset, or set to its default
# what splits a value under the default IFS, or makes it a glob pattern (pattern.py's
# magic characters)
_SPLITS_OR_GLOBS = frozenset(" \t\n*?[+@!")
_FLAG_EQ = LazyRegex(r"--[A-Za-z][A-Za-z0-9_-]*=")
_DEFAULT_OPS = frozenset([":-", "-", ":=", "=", ":?", "?", ":+", "+"])
_WORD_OPS = frozenset([":-", "-", ":+", "+"])
_ATTR_OPS = frozenset(["@a", "@A", "@K", "@k"])  # transformations that need the variable  # the forms whose result may be their word
_SPECIALS = frozenset("?$!-")
_NAME = LazyRegex(r"[A-Za-z_][A-Za-z0-9_]*")
# The head of an argument shaped like an assignment (`PREFIX=~/x`, `a[1]=~`, `a+=~`),
# whose value gets an assignment's tilde expansion, as bash gives it.
_ASSIGN_HEAD = LazyRegex(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=")
# `a[k]`, and a name with or without a subscript: what `${!ref}` may name
_ELEMENT_REF = LazyRegex(r"([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]", DOTALL)
_NAME_OR_ELEMENT = LazyRegex(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[(.*)\])?", DOTALL)
_NOTHING: Any = object()


def plain_scalar(pe: ast.ParamExp) -> bool:
    """`$x` / `${x}` of a named variable: no operator, subscript, length or indirection."""
    return (
        not pe.op
        and pe.index is None
        and not pe.length
        and not pe.indirect
        and pe.name not in ("@", "*")
    )


def _classify(text: str, literal: bool) -> Arg:
    """One finished word as the binder sees it; `literal` marks an operand written in
    the script rather than produced by an expansion."""
    if text[:1] == "-":
        if text == "--":
            return DOUBLE_DASH
        if looks_like_flag(text):
            return Flag(text)
    return Operand(text, literal)


class _Multi:
    """Several values from `$@`, `$*`, `${a[@]}`, `${a[*]}`, `${!a[@]}`; `star` joins them
    with IFS's first character inside double quotes."""

    __slots__ = ("items", "star")

    def __init__(self, items: list[Any], star: bool) -> None:
        self.items = items
        self.star = star


class _Field:
    """One argument being built."""

    __slots__ = ("text", "pat", "quoted", "typed", "typed_idx", "keep", "whole")

    def __init__(self, globbing_on: bool) -> None:
        self.text: list[str] = []
        self.pat: list[str] | None = [] if globbing_on else None
        self.quoted = False
        self.typed: Any = _NOTHING
        self.typed_idx = -1
        self.keep = False
        self.whole = True

    def add_live(self, text: str) -> None:
        """Unquoted source text: glob characters keep their meaning."""
        self.text.append(text)
        if self.pat is not None:
            self.pat.append(text.replace("\\", "\\\\") if "\\" in text else text)

    def add_literal(self, text: str) -> None:
        """Text that must match literally (quoted text and expansion results)."""
        self.text.append(text)
        if self.pat is not None:
            self.pat.append(pattern.escape(text))

    def add_typed(self, value: Any, rendered: str, whole: bool = True) -> None:
        """A typed value: kept as the argument's value when it is the whole word (and
        `whole` allows it) or follows `--name=`; otherwise rendered as text."""
        self.whole = whole
        if self.typed is _NOTHING and not self.text:
            self.typed = value
            self.typed_idx = 0
        elif self.typed is _NOTHING and len(self.text) == 1:
            self.typed = value
            self.typed_idx = 1
        else:
            self.typed_idx = -2  # more than one typed piece: render everything
        self.add_literal(rendered)


def _ifs(host: ExpandHost) -> str:
    v = host.lookup("IFS")
    return " \t\n" if v is None else to_text(v)


def _star_joiner(host: ExpandHost) -> str:
    v = host.lookup("IFS")
    return " " if v is None else to_text(v)[:1]


def _scalar_text(v: Any) -> str | None:
    """The text a plain `$x` stands for: element 0 of an indexed array, the value itself
    otherwise (records render as JSON)."""
    if v is None:
        return None
    if type(v) is str:
        return v
    if isinstance(v, list):
        if not v or v[0] is None:
            return None
        return to_text(v[0])
    if type(v) is AssocArray:  # `$A` is `${A[0]}`
        x = v.get("0")
        return None if x is None else to_text(x)
    return to_text(v)


# the operations that work on bytes in the C locale (substrings, patterns, case)
_OCTET_OPS = frozenset(("#", "##", "%", "%%", "/", "//", "/#", "/%", ":", "^^", ",,", "^", ",",
                        "@Q", "@U", "@L", "@u"))


def _octets(host: ExpandHost) -> bool:
    """Whether the host's locale counts bytes (asked only of text that is not ASCII)."""
    return host.byte_locale()


def _is_all_index(index: ast.Word | None) -> str | None:
    if index is None or len(index.parts) != 1:
        return None
    p = index.parts[0]
    if isinstance(p, ast.Quoted) and p.text in ("@", "*"):
        return p.text
    return None


class _Expander:
    """Parameter, arithmetic and command substitution for one host."""

    def __init__(self, host: ExpandHost) -> None:
        self.host = host

    # --- parameters -------------------------------------------------------

    def get(self, name: str) -> Any:
        host = self.host
        if not name:
            return None
        c = name[0]
        if c.isdigit():
            if name == "0":
                return host.special("0")
            pos = host.positional()
            i = int(name)
            return pos[i - 1] if i <= len(pos) else None
        if name == "#":
            return str(len(host.positional()))
        if name in _SPECIALS:
            return host.special(name)
        if name == "@" or name == "*":
            return list(host.positional())
        return host.lookup(name)

    def unbound(self, name: str) -> ExpansionError:
        return ExpansionError(f"{name}: unbound variable", status=127, fatal=True)

    def subscript(self, container: Any, index: ast.Word) -> Any:
        if isinstance(container, dict):
            return container.get(expand_text(index, self.host))
        try:
            i = arith.evaluate(expand_text(index, self.host), self.host)
        except ExpansionError as e:
            e.fatal = True
            raise
        if isinstance(container, list):
            return array_get(container, i)
        if container is None:
            return None
        return container if i == 0 else None

    def elements(self, pe: ast.ParamExp) -> list[Any]:
        if pe.index is None:  # $@ $*
            return list(self.host.positional())
        v = self.get(pe.name)
        if pe.indirect:
            if type(v) is SparseList:
                return [str(i) for i, _ in array_items(v)]
            if isinstance(v, list):
                return [str(i) for i, x in enumerate(v) if x is not None]
            if type(v) is AssocArray:
                return v.ordered_keys()
            if isinstance(v, dict):
                return list(v.keys())
            return [] if v is None else ["0"]
        if type(v) is SparseList:
            return [x for _, x in array_items(v)]
        if isinstance(v, list):
            return [x for x in v if x is not None]
        if type(v) is AssocArray:
            return [v[k] for k in v.ordered_keys()]
        if isinstance(v, dict):
            return list(v.values())
        return [] if v is None else [v]

    def word_text(self, w: ast.Word | None) -> str:
        return "" if w is None else expand_text(w, self.host)

    def param(self, pe: ast.ParamExp) -> Any:
        """The value of a parameter expansion: a Value (typed values preserved for a plain
        access) or a _Multi for the forms that give several words."""
        name = pe.name
        if pe.op == "bad":  # text the parser kept: an error only when expanded, as in bash
            raise ExpansionError(f"${{{name}}}: bad substitution", status=1, fatal=True)
        if pe.op in _ATTR_OPS:
            return self.attr_op(pe)
        if pe.op in ("!*", "!@"):
            names = getattr(self.host, "var_names", None)
            found = [n for n in names() if n.startswith(name)] if names is not None else []
            return _Multi(found, pe.op == "!*")
        all_idx = _is_all_index(pe.index)
        if name in ("@", "*") and pe.index is None:
            all_idx = name
        if all_idx is not None:
            if pe.index is None and pe.op == ":":
                items = [self.host.special("0"), *self.host.positional()]
                return self.slice_multi(items, pe, all_idx == "*")
            items = self.elements(pe)
            if pe.length:
                return str(len(items))
            if pe.op == ":":
                v = self.get(name)
                if isinstance(v, list) and not pe.indirect:
                    return self.slice_list(v, pe, all_idx == "*")
                return self.slice_multi(items, pe, all_idx == "*")
            if pe.op:
                if pe.op in _DEFAULT_OPS:
                    null = not items or (len(items) == 1 and to_text(items[0]) == "")
                    r = self.default_op(pe, name, not items, null, _Multi(items, all_idx == "*"))
                    return r
                items = [self.scalar_op(pe, name, to_text(x)) for x in items]
            return _Multi(items, all_idx == "*")
        if name == "#" and pe.length:  # ${##} is the length of $#
            return str(len(str(len(self.host.positional()))))
        if pe.indirect:  # `${!r}`, `${!a[1]}`: the variable the value names
            target_of: Any = getattr(self.host, "nameref_target", None)
            target = None if target_of is None or pe.index is not None else target_of(name)
            if target is not None:  # `${!r}` of a nameref is the name it stands for
                return target
            ref = _scalar_text(self.get(name) if pe.index is None else (
                self.subscript(self.get(name), pe.index)))
            if ref is None or ref == "":
                if self.host.nounset:
                    raise self.unbound(name)
                return ""
            if ref in ("@", "*"):
                return _Multi(list(self.host.positional()), ref == "*")
            m = _ELEMENT_REF.fullmatch(ref)
            if m is not None and m.group(2) in ("@", "*"):
                # `d='a[@]'; "${!d}"`: every element, as "${a[@]}" gives them
                whole = ast.ParamExp(m.group(1), ast.Word((ast.Quoted(m.group(2)),)))
                return _Multi(self.elements(whole), m.group(2) == "*")
            if m is not None:
                key_text: Any = getattr(self.host, "subscript_text", None)
                key = m.group(2) if key_text is None else key_text(m.group(2))
                raw = self.subscript(self.get(m.group(1)), ast.Word((ast.Quoted(key),)))
            else:
                raw = self.get(ref)
            name = ref
        elif pe.index is not None:
            raw = self.subscript(self.get(name), pe.index)
        else:
            raw = self.get(name)
        if pe.length:
            t = _scalar_text(raw)
            if t is None:
                if self.host.nounset:
                    raise self.unbound(name)
                return "0"
            if t.isascii() or not _octets(self.host):
                return str(len(t))
            return str(len(encode_text(t)))  # the C locale counts bytes
        op = pe.op
        if not op:
            if type(raw) is not str and (raw is None or isinstance(raw, (list, AssocArray))) and (
                    self.host.nounset and _scalar_text(raw) is None):
                # `$a` of an array is `${a[0]}`: unset when element 0 is
                raise self.unbound(self.display_name(pe))
            return raw
        if op in _DEFAULT_OPS:
            text = _scalar_text(raw)
            return self.default_op(pe, name, text is None, not text, raw)
        text = _scalar_text(raw)
        if text is None:
            if self.host.nounset:
                raise self.unbound(self.display_name(pe))
            if op[0] == "@":
                return ""  # `${unset@Q}` is nothing, not ''
            text = ""
        return self.scalar_op(pe, name, text)

    def attr_op(self, pe: ast.ParamExp) -> Any:
        """`${x@a}` (attribute letters), `${x@A}` (an assignment that recreates it),
        `${x@K}` / `${a[@]@K}` (quoted keys and values), `${a[@]@k}` (as words)."""
        from tysh.kernel.expand.declared import declare_value, dq  # only these forms need it

        how = pe.op[1]
        name = pe.name
        index = pe.index
        if pe.indirect and index is None:
            ref = _scalar_text(self.get(name)) or ""
            if not ref:
                return ""
            m = _NAME_OR_ELEMENT.fullmatch(ref)
            if m is None:
                raise ExpansionError(f"{ref}: invalid variable name", status=1, fatal=True)
            name = m.group(1)
            index = None if m.group(2) is None else ast.Word((ast.Quoted(m.group(2)),))
        all_idx = _is_all_index(index)
        if name in ("@", "*") and index is None:
            all_idx = name
        star = all_idx == "*"
        named = bool(_NAME.fullmatch(name))
        attrs_of: Any = getattr(self.host, "var_attributes", None)
        letters = (attrs_of(name) or "") if named and attrs_of is not None else ""
        if all_idx is not None:
            whole = ast.ParamExp(name, None if name in ("@", "*") else index)
            items = self.elements(whole)
            if pe.indirect:  # `${!a[@]@a}`: the keys, which have no attributes
                letters = ""
            if how == "a":
                return _Multi([letters] * len(items), star)
            v = self.get(name)
            if how == "A":
                if not named:
                    return "set -- " + " ".join(_transform(to_text(x), "Q") for x in items) if (
                        items) else ""
                if v is None:
                    return ""
                return f"declare -{letters or '-'} {name}={declare_value(v)}"
            if isinstance(v, list):
                pairs = [(str(i), x) for i, x in array_items(v)]
            elif type(v) is AssocArray:
                pairs = [(k, v[k]) for k in v.ordered_keys()]
            elif isinstance(v, dict):
                pairs = list(v.items())
            else:
                return _Multi([_transform(to_text(x), "Q") for x in items], star)
            if how == "k":
                return _Multi([t for k, x in pairs for t in (k, to_text(x))], star)
            if isinstance(v, dict):  # bash ends an associative array's list with a blank
                return _Multi(["".join(f"{k} {dq(to_text(x))} " for k, x in pairs)], star)
            return _Multi([" ".join(f"{k} {dq(to_text(x))}" for k, x in pairs)], star)
        if how == "a":
            return letters
        raw = self.subscript(self.get(name), index) if index is not None else self.get(name)
        text = _scalar_text(raw)
        if text is None:
            if self.host.nounset:
                raise self.unbound(self.display_name(pe))
            return ""
        quoted = _transform(text, "Q")
        if how == "A":
            return f"declare -{letters} {name}={quoted}" if letters else f"{name}={quoted}"
        return quoted

    def display_name(self, pe: ast.ParamExp) -> str:
        if pe.index is None:
            return pe.name
        return f"{pe.name}[{self.word_text(pe.index)}]"

    def chosen_word(self, pe: ast.ParamExp) -> ast.Word | None:
        """For `${x-w}` `${x:-w}` `${x+w}` `${x:+w}`: the word `w` when it is the result
        (None when the value is, or `w` is empty)."""
        if pe.arg is None or pe.indirect or pe.length:
            return None
        name = pe.name
        all_idx = _is_all_index(pe.index)
        if name in ("@", "*") and pe.index is None:
            all_idx = name
        if all_idx is not None:
            items = self.elements(pe)
            unset = not items
            null = unset or (len(items) == 1 and to_text(items[0]) == "")
        else:
            raw = self.subscript(self.get(name), pe.index) if pe.index is not None else (
                self.get(name))
            text = _scalar_text(raw)
            unset = text is None
            null = not text
        cond = null if pe.op[0] == ":" else unset
        if pe.op[-1] == "+":
            return pe.arg if not cond else None
        return pe.arg if cond else None

    def default_op(self, pe: ast.ParamExp, name: str, unset: bool, null: bool, value: Any) -> Any:
        op = pe.op
        cond = null if op[0] == ":" else unset
        kind = op[-1]
        if kind == "+":
            return self.word_text(pe.arg) if not cond else ""
        if not cond:
            return value
        if kind == "-":
            return self.word_text(pe.arg)
        if kind == "=":
            text = self.word_text(pe.arg)
            if name[0].isdigit() or name in _SPECIALS or name in ("@", "*", "#"):
                raise ExpansionError(f"${name}: cannot assign in this way", status=1, fatal=True)
            try:
                if pe.index is not None and _is_all_index(pe.index) is None:
                    v = self.get(name)
                    if isinstance(v, dict):
                        key: str | int = expand_text(pe.index, self.host)
                    else:
                        key = arith.evaluate(expand_text(pe.index, self.host), self.host)
                    self.host.assign_index(name, key, text)
                else:
                    self.host.assign(name, text)
            except VarError as e:  # a readonly variable: bash abandons the line
                raise ExpansionError(e.message, status=1, fatal=True) from None
            return text
        # "?"
        msg = self.word_text(pe.arg)
        if not msg:
            msg = "parameter null or not set" if op == ":?" else "parameter not set"
        raise ExpansionError(f"{self.display_name(pe)}: {msg}", status=127, fatal=True)

    def scalar_op(self, pe: ast.ParamExp, name: str, text: str, view: bool = False) -> str:
        """A scalar operation on `text`; `view`: `text` is a byte view, and so must the
        pattern and replacement be."""
        op = pe.op
        if not view and not text.isascii() and op in _OCTET_OPS and _octets(self.host):
            # the C locale: the operation runs on the text's bytes (values.byte_view)
            return from_byte_view(self.scalar_op(pe, name, byte_view(text), True))
        if op in ("#", "##"):
            return pattern.remove_prefix(text, self.pat(pe.arg, view), op == "##")
        if op in ("%", "%%"):
            return pattern.remove_suffix(text, self.pat(pe.arg, view), op == "%%")
        if op in ("/", "//", "/#", "/%"):
            pat = self.pat(pe.arg, view)
            if pat == "" and op in ("/", "//"):
                return text
            nocase = getattr(self.host, "nocasematch", False)  # bash's rule: `/` only
            repl = self.replacement(pe.arg2)
            if view:
                repl = byte_view(repl) if isinstance(repl, str) else (
                    pattern.ReplaceTemplate([byte_view(p) for p in repl.pieces]))
            return _checked(pattern.replace(text, pat, repl, op, nocase), self.host)
        if op == ":":
            off, length = self.offsets(pe)
            n = len(text)
            if off < 0:
                off = max(n + off, 0) if n + off >= 0 else n + 1
            if off > n:
                return ""
            if length is None:
                return text[off:]
            if length < 0:
                end = n + length
                if end < off:
                    raise ExpansionError(
                        f"{length}: substring expression < 0", status=1, fatal=True
                    )
                return text[off:end]
            return text[off : off + length]
        if op in ("^^", ",,", "^", ","):
            p = None if pe.arg is None else self.pat(pe.arg, view)
            return pattern.convert_case(text, op, p)
        if op == "@P":
            from tysh.kernel.expand.prompt import decode_escapes, prompt_word

            decoded = decode_escapes(text, self.host)
            doc = prompt_word(decoded)
            return decoded if doc is None else expand_heredoc(doc, self.host)
        if op[0] == "@":
            return _transform(text, op[1])
        raise ExpansionError(f"${{{name}{op}}}: bad substitution", status=1, fatal=True)

    def offsets(self, pe: ast.ParamExp) -> tuple[int, int | None]:
        try:
            off = arith.evaluate(self.word_text(pe.arg), self.host) if pe.arg else 0
            length = (
                arith.evaluate(self.word_text(pe.arg2), self.host) if pe.arg2 is not None else None
            )
        except ExpansionError as e:
            e.fatal = True
            raise
        return off, length

    def slice_multi(self, items: list[Any], pe: ast.ParamExp, star: bool) -> _Multi:
        off, length = self.offsets(pe)
        n = len(items)
        if off < 0:
            off += n
            if off < 0:
                return _Multi([], star)
        if length is not None and length < 0:
            raise ExpansionError(f"{length}: substring expression < 0", status=1, fatal=True)
        sel = items[off:] if length is None else items[off : off + length]
        return _Multi(sel, star)

    def slice_list(self, lst: list[Any], pe: ast.ParamExp, star: bool) -> _Multi:
        off, length = self.offsets(pe)
        if off < 0:
            off += len(lst)
            if off < 0:
                return _Multi([], star)
        if length is not None and length < 0:
            raise ExpansionError(f"{length}: substring expression < 0", status=1, fatal=True)
        sel = [v for v in lst[off:] if v is not None]
        if length is not None:
            sel = sel[:length]
        return _Multi(sel, star)

    def pat(self, w: ast.Word | None, view: bool = False) -> str:
        if w is None:
            return ""
        p = expand_pattern(w, self.host)
        return byte_view(p) if view else p

    def replacement(self, w: ast.Word | None) -> str | pattern.ReplaceTemplate:
        """The replacement of `${x/p/r}`: bash 5.2 puts the match where an unquoted `&` is."""
        if w is None:
            return ""
        pieces: list[str] = [""]
        amp = False

        def live(t: str) -> None:
            nonlocal amp
            if "&" in t:
                amp = True
                segs = t.split("&")
                pieces[-1] += segs[0]
                pieces.extend(segs[1:])
            else:
                pieces[-1] += t

        def lit(t: str) -> None:
            pieces[-1] += t

        for p in w.parts:
            if isinstance(p, ast.Quoted):
                lit(p.text)
            elif isinstance(p, ast.DQ):
                for q in p.parts:
                    if isinstance(q, ast.Quoted):
                        lit(q.text)
                    else:
                        live(self.part_text(q, in_dq=True))
            elif isinstance(p, ast.Lit):
                live(p.text)
            else:
                live(self.part_text(p, in_dq=False))
        return pattern.ReplaceTemplate(pieces) if amp else pieces[0]

    # --- other substitutions -----------------------------------------------

    def arith_sub(self, p: ast.ArithSub) -> str:
        try:
            return str(eval_arith_word(p.expr, self.host))
        except ExpansionError as e:
            e.fatal = True
            raise

    def part_value(self, p: ast.WordPart) -> Any:
        """Raw value of an expansion part: str, typed value or _Multi."""
        if type(p) is ast.ParamExp:
            return self.param(p)
        if type(p) is ast.CmdSub:
            return self.host.command_substitution(p.body)
        if type(p) is ast.ArithSub:
            return self.arith_sub(p)
        if type(p) is ast.ProcSub:
            return self.host.process_substitution(p)
        raise TypeError(p)  # pragma: no cover

    def part_text(self, p: ast.WordPart, in_dq: bool, sep: str | None = None) -> str:
        """An expansion part as one string (lists joined)."""
        v = self.part_value(p)
        if type(v) is str:
            return v
        if isinstance(v, _Multi):
            if sep is None:
                sep = _star_joiner(self.host) if v.star else " "
            return _checked(sep.join(to_text(x) for x in v.items), self.host)
        if type(p) is ast.ParamExp:
            t = _scalar_text(v)
            return "" if t is None else t
        return to_text(v)


# ---------------------------------------------------------------------------
# Tilde
# ---------------------------------------------------------------------------


def _tilde_prefix(text: str, host: ExpandHost) -> tuple[str, str] | None:
    """(replacement, rest) when `text` starts with an expandable tilde prefix."""
    slash = text.find("/")
    prefix = text[1:] if slash < 0 else text[1:slash]
    rest = "" if slash < 0 else text[slash:]
    if prefix == "":
        v = host.lookup("HOME")
    elif prefix == "+":
        v = host.lookup("PWD") or host.cwd
    elif prefix == "-":
        v = host.lookup("OLDPWD")
    else:
        # `~name`: that user's home directory; a name nobody has stays literal
        home_of = getattr(host, "user_home", None)
        if home_of is None or "\\" in prefix:  # a quoted character keeps it literal
            return None
        v = home_of(prefix)
    if v is None:
        return None
    return to_text(v), rest


def _tilde(parts: tuple[ast.WordPart, ...], host: ExpandHost) -> tuple[ast.WordPart, ...] | None:
    first = parts[0]
    if type(first) is not ast.Lit or first.text[:1] != "~":
        return None
    text = first.text
    if "/" not in text and len(parts) > 1 and type(parts[1]) is not ast.Lit:
        # `~"/x"`: a quoted character inside the prefix keeps the tilde literal.
        return None
    r = _tilde_prefix(text, host)
    if r is None:
        return None
    home, rest = r
    out: list[ast.WordPart] = [ast.Quoted(home)]
    if rest:
        out.append(ast.Lit(rest))
    out.extend(parts[1:])
    return tuple(out)


# ---------------------------------------------------------------------------
# Building fields
# ---------------------------------------------------------------------------


@bounded_memo(16)
def _ifs_regex(ifs: str) -> tuple[re.Pattern[str], frozenset[str]]:
    """The delimiter regex for IFS splitting and IFS's non-blank characters."""
    ws = _class_escape("".join(c for c in ifs if c in " \t\n"))
    other = "".join(c for c in ifs if c not in " \t\n")
    if not other:
        return compile_pattern(f"[{ws}]+"), frozenset()
    hard = f"[{_class_escape(other)}]"
    src = f"[{ws}]*{hard}[{ws}]*|[{ws}]+" if ws else hard
    return compile_pattern(src), frozenset(other)


def _class_escape(chars: str) -> str:
    """`chars` written to stand for themselves inside a regex's `[…]`: each character
    other than a letter, digit or `_` behind a backslash (which `re` reads as that
    character), the rest as they are (a backslash before those could mean `\\d`)."""
    return "".join(c if c.isalnum() or c == "_" else "\\" + c for c in chars)


class _Builder:
    """Walks a word's parts and builds its fields (arguments)."""

    __slots__ = ("ex", "split", "globbing", "fields", "ifs", "bash", "lines")

    def __init__(self, ex: _Expander, split: bool, globbing_on: bool, bash: bool = False,
                 lines: bool = False) -> None:
        self.ex = ex
        self.split = split
        self.globbing = globbing_on
        self.fields: list[_Field] = [_Field(globbing_on)]
        self.ifs: str | None = None
        # `sh_word_split`: the text of unquoted expansions keeps its glob meaning, `$arr`
        # is element 0, and the words of `${x:-w}` split as bash splits them
        self.bash = bash
        # an unquoted `$(…)` gives one field per line (command arguments by default)
        self.lines = lines

    def new_field(self) -> _Field:
        f = _Field(self.globbing)
        fields = self.fields
        fields.append(f)
        if not len(fields) & 0xFFFF:
            # splitting a long text makes many fields: count them as they come, and
            # stop at a cancel or a deadline
            host = self.ex.host
            host.check_boundary()
            host.need_memory(len(fields) * _FIELD_BYTES, "word expansion")
        return f

    def add_unquoted(self, v: Any, from_param: bool) -> None:
        """An unquoted expansion's value: one piece, never globbed; split in list mode."""
        f = self.fields[-1]
        if v is None:
            return
        if type(v) is str:
            if self.split:
                self.add_split(v)
            else:
                f.add_literal(v)
            return
        if self.bash and from_param and isinstance(v, list):
            # `$arr` is `${arr[0]}`, split like any other value
            t = _scalar_text(v)
            if t is not None:
                self.add_split(t)
            return
        if isinstance(v, _Multi):
            for i, item in enumerate(v.items):
                if i:
                    f = self.new_field()
                self.add_unquoted(item, False)
                f = self.fields[-1]
            return
        if self.split and isinstance(v, list):
            for i, item in enumerate(v):
                if item is None:
                    continue
                if i or f.text:
                    f = self.new_field()
                self.add_unquoted(item, False)
                f = self.fields[-1]
            return
        if self.split and not isinstance(v, dict):
            self.add_split(to_text(v))
            return
        if from_param:
            # `$arr` alone is element 0 as in bash; a list still binds `--name=$arr`.
            f.add_typed(v, _scalar_text(v) or "",
                        whole=not isinstance(v, list) and type(v) is not AssocArray)
        else:
            f.add_typed(v, to_text(v))

    def add_split(self, text: str) -> None:
        if self.ifs is None:
            self.ifs = _ifs(self.ex.host)
        ifs = self.ifs
        bash = self.bash
        if not ifs:
            if bash:
                self.fields[-1].add_live(text)
            else:
                self.fields[-1].add_literal(text)
            return
        delim, hard_chars = _ifs_regex(ifs)
        pos = 0
        f = self.fields[-1]
        for m in delim.finditer(text):
            if bash:
                f.add_live(text[pos : m.start()])
            else:
                f.add_literal(text[pos : m.start()])
            if hard_chars and not hard_chars.isdisjoint(m.group()):
                f.keep = True  # a non-blank IFS character delimits even an empty field
            pos = m.end()
            f = self.new_field()
        if bash:
            f.add_live(text[pos:])
        else:
            f.add_literal(text[pos:])

    def add_lines(self, text: str) -> None:
        """An unquoted `$(…)` among command arguments: one field per line (the first
        and last join the text written around it); empty lines give nothing."""
        parts = text.split("\n")
        self.fields[-1].add_literal(parts[0])
        for line in parts[1:]:
            self.new_field().add_literal(line)

    def walk_default_word(self, parts: Sequence[ast.WordPart]) -> None:
        """The word of `${x:-w}` / `${x:+w}` in an unquoted word under sh_word_split:
        its unquoted text is split and globbed as an expansion's result, its quoted
        text stays whole (`${u:-"a b" c}` gives two words)."""
        for p in parts:
            tp = type(p)
            if tp is ast.Lit:
                self.add_split(p.text)  # type: ignore[union-attr]
            elif tp is ast.Quoted:
                f = self.fields[-1]
                f.add_literal(p.text)  # type: ignore[union-attr]
                f.quoted = True
            else:
                self.walk((p,))

    def walk(self, parts: Sequence[ast.WordPart]) -> None:
        ex = self.ex
        for p in parts:
            tp = type(p)
            if tp is ast.Lit:
                self.fields[-1].add_live(p.text)  # type: ignore[union-attr]
            elif tp is ast.Quoted:
                f = self.fields[-1]
                f.add_literal(p.text)  # type: ignore[union-attr]
                f.quoted = True
            elif tp is ast.DQ:
                self.walk_dq(p.parts)  # type: ignore[union-attr]
            elif tp is ast.ParamExp:
                if self.bash and p.op in _WORD_OPS:  # type: ignore[union-attr]
                    word = ex.chosen_word(p)  # type: ignore[arg-type]
                    if word is not None:
                        self.walk_default_word(word.parts)
                        continue
                self.add_unquoted(ex.param(p), True)  # type: ignore[arg-type]
            elif tp is ast.CmdSub:
                v = ex.host.command_substitution(p.body)  # type: ignore[union-attr]
                if self.lines and type(v) is str and "\n" in v:
                    self.add_lines(v)
                else:
                    self.add_unquoted(v, False)
            elif tp is ast.ArithSub:
                self.add_unquoted(ex.arith_sub(p), False)  # type: ignore[arg-type]
            elif tp is ast.ProcSub:
                self.fields[-1].add_literal(ex.host.process_substitution(p))  # type: ignore[arg-type]

    def walk_dq(self, parts: Sequence[ast.WordPart]) -> None:
        ex = self.ex
        if not parts:
            self.fields[-1].quoted = True
            return
        for p in parts:
            tp = type(p)
            if tp is ast.Quoted or tp is ast.Lit:
                f = self.fields[-1]
                f.add_literal(p.text)  # type: ignore[union-attr]
                f.quoted = True
                continue
            v = ex.part_value(p)
            if isinstance(v, _Multi) and not v.star:
                for i, item in enumerate(v.items):
                    f = self.new_field() if i else self.fields[-1]
                    f.add_literal(to_text(item))
                    f.quoted = True
                continue
            if isinstance(v, _Multi):
                text = _star_joiner(ex.host).join(to_text(x) for x in v.items)
            elif type(v) is str:
                text = v
            elif tp is ast.ParamExp:
                text = _scalar_text(v) or ""
            else:
                text = to_text(v)
            f = self.fields[-1]
            f.add_literal(text)
            f.quoted = True


def _word_has_expansion(parts: Sequence[ast.WordPart]) -> bool:
    for p in parts:
        tp = type(p)
        if tp is ast.DQ:
            if _word_has_expansion(p.parts):  # type: ignore[union-attr]
                return True
        elif tp is not ast.Lit and tp is not ast.Quoted:
            return True
    return False


_ANSI_QUOTE = {"\a": "\\a", "\b": "\\b", "\x1b": "\\E", "\f": "\\f", "\n": "\\n",
               "\r": "\\r", "\t": "\\t", "\v": "\\v", "\\": "\\\\", "'": "\\'"}
# control characters and bytes that are no UTF-8 (surrogate-escaped) need $'…'
_CONTROL_CHAR = LazyRegex(r"[\x00-\x1f\x7f\udc80-\udcff]")
_ANSI_QUOTED = LazyRegex(r"[\x00-\x1f\x7f\\'\udc80-\udcff]")


def _transform(text: str, how: str) -> str:
    """`${x@Q}` (quoted for reuse as input), `@E` (backslash escapes as in $'…'),
    `@U` `@L` `@u` (upper, lower, first letter upper)."""
    if how == "Q":
        if _CONTROL_CHAR.search(text):
            return "$'" + _ANSI_QUOTED.sub(
                lambda m: _ANSI_QUOTE.get(m.group(), f"\\{ord(m.group()) & 0xFF:03o}"), text) + "'"
        return "'" + text.replace("'", "'\\''") + "'"
    if how == "E":
        from tysh.kernel.syntax.lexer import decode_ansi_c

        return decode_ansi_c(text)
    if how == "U":
        return text.upper()
    if how == "L":
        return text.lower()
    if how == "u":
        return text[:1].upper() + text[1:]
    raise ExpansionError(f"@{how}: this transformation is not supported yet", status=1,
                         fatal=True)


def _glob_live(parts: Sequence[ast.WordPart], host: ExpandHost) -> bool:
    """Whether the word has an unquoted glob character and globbing is on (`set -f`)."""
    return any(type(p) is ast.Lit and not _GLOB_CHARS.isdisjoint(p.text) for p in parts) and (
        not getattr(host, "noglob", False))


def _glob(pat: str, display: str, host: ExpandHost) -> list[str]:
    from tysh.kernel.expand import glob as globbing  # loaded by the first glob, not by every start

    return globbing.expand(pat, display, host)


def _word_variants(word: ast.Word, host: ExpandHost) -> tuple[list[tuple[ast.WordPart, ...]], bool]:
    """Brace then tilde expansion: the part tuples to expand, and whether a tilde expanded."""
    if any(type(p) is ast.Lit and "{" in p.text for p in word.parts):
        from tysh.kernel.expand import brace  # loaded by the first word with a brace

        try:
            variants = brace.expand_braces(word.parts)
        except brace.BraceError as e:
            raise ExpansionError(e.message, status=1) from None
    else:
        variants = [tuple(word.parts)]
    tilde = False
    for i, parts in enumerate(variants):
        if not parts or type(parts[0]) is not ast.Lit:
            continue
        head = parts[0].text
        if head[:1] == "~":
            t = _tilde(parts, host)
        elif "=" in head:
            t = _assignment_arg_tildes(parts, head, host)
        else:
            continue
        if t is not None:
            variants[i] = t
            tilde = True
    return variants, tilde


def _assignment_arg_tildes(parts: tuple[ast.WordPart, ...], head: str, host: ExpandHost,
                           ) -> tuple[ast.WordPart, ...] | None:
    """`make PREFIX=~/x`, `export P=~:~/b`: an argument shaped like an assignment has its
    value's tildes expanded as an assignment's are (after the `=` and after each `:`);
    None when there is nothing to expand."""
    if "~" not in head and not any(type(p) is ast.Lit and "~" in p.text
                                   for p in parts[1:]):
        return None
    m = _ASSIGN_HEAD.match(head)
    if m is None:
        return None
    value: tuple[ast.WordPart, ...] = parts[1:]
    if m.end() < len(head):
        value = (ast.Lit(head[m.end():]), *value)
    if not value:
        return None
    new = _assign_tildes(value, host)
    if type(new[0]) is ast.Lit and new[0].text[:1] == "~":
        new = _tilde(new, host) or new
    if new == value:
        return None
    return (ast.Lit(head[:m.end()]), *new)


def _finish_arg(f: _Field, literal: bool, out: list[Arg], host: ExpandHost) -> None:
    text = _join(f.text, host)
    if f.typed_idx >= 0:
        if f.typed_idx == 0 and len(f.text) == 1 and f.whole:
            out.append(Operand(f.typed, False))
            return
        if f.typed_idx == 1 and len(f.text) == 2 and _FLAG_EQ.fullmatch(f.text[0]):
            out.append(Flag(f.text[0][:-1], f.typed))
            return
    if not text:
        if f.quoted or f.keep:
            out.append(Operand("", literal))
        return
    if text[0] == "-":
        if text == "--":
            out.append(DOUBLE_DASH)
            return
        if looks_like_flag(text):
            out.append(Flag(text))
            return
    out.append(Operand(text, literal))


def _expand_word(word: ast.Word, host: ExpandHost, glob_passthrough: bool, out: list[Arg],
                 bash: bool, lines: bool) -> None:
    variants, tilde = _word_variants(word, host)
    ex = _Expander(host)
    literal = not tilde and not _word_has_expansion(word.parts)
    for parts in variants:
        if bash:
            globbing_on = not glob_passthrough and not getattr(host, "noglob", False)
        else:
            globbing_on = not glob_passthrough and _glob_live(parts, host)
        b = _Builder(ex, bash, globbing_on, bash, lines)
        b.walk(parts)
        for f in b.fields:
            if f.pat is not None:
                pat = "".join(f.pat)
                if pattern.has_magic(pat):
                    for m in _glob(pat, "".join(f.text), host):
                        out.append(Operand(m, False))
                    continue
            _finish_arg(f, literal, out, host)


def expand_args(
    words: Sequence[ast.Word], host: ExpandHost, *, glob_passthrough: bool = False,
    assign_words: frozenset[int] = frozenset(),
) -> list[Arg]:
    """Full expansion of a command's words into classified arguments for the binder.
    `assign_words`: indexes of the words a declaration command (`declare x=…`) takes as
    assignments: never split, never globbed."""
    out: list[Arg] = []
    bash: bool | None = None  # sh_word_split, read when a word first needs it
    for k, w in enumerate(words):
        parts = w.parts
        if len(parts) == 1:
            p = parts[0]
            tp = type(p)
            if tp is ast.Lit:
                t = p.text  # type: ignore[union-attr]
                if _LIVE.isdisjoint(t) or t == "[":  # (an unclosed bracket globs nothing)
                    out.append(_classify(t, True))
                    continue
            elif tp is ast.Quoted:
                t = p.text  # type: ignore[union-attr]
                out.append(_classify(t, True) if t else Operand("", True))
                continue
            elif tp is ast.ParamExp and plain_scalar(p):  # type: ignore[arg-type]
                if bash is None:
                    bash = bool(getattr(host, "sh_word_split", False))
                if not bash:
                    v = _Expander(host).get(p.name)  # type: ignore[union-attr]
                    if type(v) is str:
                        if v:
                            out.append(_classify(v, False))
                        continue  # an empty unquoted expansion disappears
                elif host.lookup("IFS") in _BLANK_IFS:
                    # split and globbed, but a text with no blank and no glob character
                    # (a counter's `$i`) is one field as it is
                    v = _Expander(host).get(p.name)  # type: ignore[union-attr]
                    if type(v) is str and _SPLITS_OR_GLOBS.isdisjoint(v):
                        if v:
                            out.append(_classify(v, False))
                        continue
            elif tp is ast.DQ and len(p.parts) == 1:  # type: ignore[union-attr]
                # `"$x"`: the commonest expansion, without building fields.
                q = p.parts[0]  # type: ignore[union-attr]
                if type(q) is ast.ParamExp and plain_scalar(q):
                    v = _Expander(host).get(q.name)
                    if type(v) is str:
                        out.append(_classify(v, False))
                        continue
        if assign_words and k in assign_words:
            _expand_word(w, host, True, out, False, False)
        else:
            if bash is None:
                bash = bool(getattr(host, "sh_word_split", False))
            _expand_word(w, host, glob_passthrough, out, bash, not bash)
        if len(out) > _CHECK_AT:
            host.need_memory(len(out) * _ITEM_BYTES, "word expansion")
    return out


# How `plain_words` plans the words: their texts, constant where a word is constant text
# ("" where it is an expansion), and the expansions, each (its index, how it is read,
# the parameter's name). An expansion is the value of a variable (by name) or of a
# special or positional parameter, unquoted or double-quoted.
_VAR, _VAR_DQ, _PARAM, _PARAM_DQ = range(4)
PlainWords = tuple[tuple[str, ...], tuple[tuple[int, int, str], ...]]
# the kinds of a plain word's expansion, for planners that read the variables themselves
HOLE_VAR, HOLE_VAR_DQ, HOLE_PARAM, HOLE_PARAM_DQ = _VAR, _VAR_DQ, _PARAM, _PARAM_DQ
# the values of IFS under which an unquoted expansion of a blank-free value is one field
BLANK_IFS = _BLANK_IFS


def plain_words(words: Sequence[ast.Word]) -> PlainWords | None:
    """A plan for `plain_texts` when every word is constant text (plain, `'…'` or
    `"…"`) or a lone `$x` / `"$x"` (no operator, no subscript); None otherwise."""
    texts: list[str] = []
    holes: list[tuple[int, int, str]] = []
    for w in words:
        parts = w.parts
        if len(parts) != 1:
            return None
        p = parts[0]
        quoted = False
        if type(p) is ast.Lit and (_LIVE.isdisjoint(p.text) or p.text == "[") or (
                type(p) is ast.Quoted):
            texts.append(p.text)
            continue
        if type(p) is ast.DQ:
            inner = p.parts
            if not inner:  # `""`
                texts.append("")
                continue
            if len(inner) != 1:
                return None
            p = inner[0]
            if type(p) is ast.Quoted:  # `"%s\n"`: text, its escapes already read
                texts.append(p.text)
                continue
            quoted = True
        if type(p) is not ast.ParamExp or not plain_scalar(p):
            return None
        named = _NAME.fullmatch(p.name) is not None
        holes.append((len(texts), (_VAR if named else _PARAM) + quoted, p.name))
        texts.append("")
    return tuple(texts), tuple(holes)


def plain_texts(plan: PlainWords, host: ExpandHost, split: bool) -> list[str] | None:
    """The texts of the arguments `expand_args` makes of the planned words (each
    argument's word value), when each value is text that is one field as it is; None
    when a word needs the full expansion (which then reads the variables again: reading
    one has no effect). `split`: the host's `sh_word_split`. For functions and raw-argv
    commands such as `[`."""
    texts, holes = plan
    out = list(texts)
    ifs_checked = False
    gone = False
    for i, kind, name in holes:
        v = host.lookup(name) if kind <= _VAR_DQ else _Expander(host).get(name)
        if type(v) is not str:
            return None
        out[i] = v
        if kind == _VAR_DQ or kind == _PARAM_DQ:
            continue
        if split:
            if not ifs_checked:
                if host.lookup("IFS") not in _BLANK_IFS:
                    return None
                ifs_checked = True
            if not _SPLITS_OR_GLOBS.isdisjoint(v):
                return None
        if not v:
            gone = True
    if gone:  # an empty unquoted expansion disappears
        empty = {i for i, kind, _ in holes if kind in (_VAR, _PARAM) and not out[i]}
        return [t for i, t in enumerate(out) if i not in empty]
    return out


def constant_args(plan: PlainWords) -> tuple[Arg, ...]:
    """The arguments `expand_args` makes of a plan's constant words (`plain_words`),
    each at its index; an expansion's place holds an empty operand, which
    `plain_args` fills."""
    return tuple(_classify(t, True) if t else Operand("", True) for t in plan[0])


def plain_args(plan: PlainWords, consts: tuple[Arg, ...], host: ExpandHost,
               split: bool) -> list[Arg] | None:
    """`expand_args` of the planned words (`plain_words`; `consts`, its
    `constant_args`) when each expansion is text that is one field as it is (as
    `plain_texts` reads them) and none is an empty unquoted one, which disappears;
    None otherwise."""
    texts = plain_texts(plan, host, split)
    if texts is None or len(texts) != len(consts):
        return None
    out = list(consts)
    for i, _, _ in plan[1]:
        out[i] = _classify(texts[i], False)
    return out


def expand_list(words: Sequence[ast.Word], host: ExpandHost) -> list[Value]:
    """Expansion for `for` heads and array literals: unquoted expansions split on IFS
    (globbed only under sh_word_split), literal glob patterns glob, a typed list
    contributes its elements."""
    out: list[Value] = []
    ex = _Expander(host)
    bash = bool(getattr(host, "sh_word_split", False))
    noglob = getattr(host, "noglob", False)
    for w in words:
        variants, _ = _word_variants(w, host)
        for parts in variants:
            b = _Builder(ex, True, not noglob if bash else _glob_live(parts, host), bash)
            b.walk(parts)
            for f in b.fields:
                if f.pat is not None:
                    pat = "".join(f.pat)
                    if pattern.has_magic(pat):
                        out.extend(_glob(pat, "".join(f.text), host))
                        continue
                if f.typed_idx == 0 and len(f.text) == 1:
                    out.append(f.typed)
                    continue
                text = _join(f.text, host)
                if text or f.quoted or f.keep:
                    out.append(text)
        if len(out) > _CHECK_AT:
            host.need_memory(len(out) * _ITEM_BYTES, "word expansion")
    return out


# ---------------------------------------------------------------------------
# Single-string expansions
# ---------------------------------------------------------------------------


def _parts_text(parts: Sequence[ast.WordPart], ex: _Expander, in_dq: bool = False) -> str:
    out: list[str] = []
    for p in parts:
        tp = type(p)
        if tp is ast.Lit or tp is ast.Quoted:
            out.append(p.text)  # type: ignore[union-attr]
        elif tp is ast.DQ:
            out.append(_parts_text(p.parts, ex, True))  # type: ignore[union-attr]
        else:
            out.append(ex.part_text(p, in_dq))
    return _join(out, ex.host)


def expand_text(word: ast.Word, host: ExpandHost) -> str:
    """One string: no brace expansion, no glob, no splitting (redirect targets,
    here-strings, case subjects, `[[` operands, subscripts). Tilde applies at the start."""
    parts = word.parts
    if len(parts) == 1:
        p = parts[0]
        tp = type(p)
        if tp is ast.Quoted:
            return p.text  # type: ignore[union-attr]
        if tp is ast.Lit and p.text[:1] != "~":  # type: ignore[union-attr]
            return p.text  # type: ignore[union-attr]
    elif not parts:
        return ""
    if type(parts[0]) is ast.Lit and parts[0].text[:1] == "~":
        t = _tilde(parts, host)
        if t is not None:
            parts = t
    return _parts_text(parts, _Expander(host))


def eval_arith_word(word: ast.Word, host: ExpandHost) -> int:
    """Expand `$…` in an arithmetic word, then evaluate the resulting text (bash re-reads
    the expansion as an expression, so `x="1+2"; $(($x*3))` is 7). Faults are reported
    as `arith.evaluate` reports them."""
    parts = word.parts
    p = parts[0] if len(parts) == 1 else None
    if type(p) is ast.Quoted or type(p) is ast.Lit:
        return arith.evaluate(p.text, host)
    return arith_word_fn(word)(host)


# The evaluator of each arithmetic word of expansions, by the word's identity (the word
# is held with it, so an entry's id is never another word's).
_ARITH_WORDS: dict[int, tuple[ast.Word, Callable[[ExpandHost], int]]] = {}

# how a template reads one expansion: `$1` by its index, `$x` by its name, another plain
# parameter (`$#`, `$?`) by `_Expander.get`; anything else by the general expansion
_READ_POS, _READ_VAR, _READ_GET, _READ_FULL = range(4)


def arith_word_fn(word: ast.Word) -> Callable[[ExpandHost], int]:
    """`eval_arith_word` of `word` as a function of the host, made once per word: a word
    of text and `$x` expansions (`$(( $1 + 1 ))`) reads them and runs a template
    compiled once for every plain number they may hold; any other word is expanded and
    its text evaluated every time. For planners that evaluate a word many times."""
    got = _ARITH_WORDS.get(id(word))
    if got is not None and got[0] is word:
        return got[1]
    fn = _arith_fn(word)
    if len(_ARITH_WORDS) > 2048:
        _ARITH_WORDS.clear()
    _ARITH_WORDS[id(word)] = (word, fn)
    return fn


def _arith_fn(word: ast.Word) -> Callable[[ExpandHost], int]:
    parts = word.parts
    if len(parts) == 1 and (type(parts[0]) is ast.Quoted or type(parts[0]) is ast.Lit):
        source = parts[0].text

        def fixed(host: ExpandHost) -> int:
            return arith.evaluate(source, host)

        return fixed
    pieces = [""]
    params: list[ast.ParamExp] = []
    template: arith.Fn | None = None
    for p in parts:
        if type(p) is ast.Quoted or type(p) is ast.Lit and (
                pieces[0] or params or p.text[:1] != "~"):  # (a leading `~` is a tilde)
            pieces[-1] += p.text
        elif type(p) is ast.ParamExp:
            params.append(p)
            pieces.append("")
        else:
            break
    else:
        template = arith.compile_template(pieces) if params else None
    if template is None:
        def general(host: ExpandHost) -> int:
            return arith.evaluate(expand_text(word, host), host)

        return general
    fn = template
    frozen_pieces = tuple(pieces)
    readers = tuple(_reader(q) for q in params)
    if len(readers) == 1 and readers[0][0] in (_READ_POS, _READ_VAR):
        return _one_hole(fn, frozen_pieces, readers[0])

    def templated(host: ExpandHost) -> int:
        texts: list[str] = []
        for how, key, q in readers:  # expanded left to right, as always
            if how == _READ_POS:
                pos = host.positional()
                v: Any = pos[key] if key < len(pos) else None
            elif how == _READ_VAR:
                v = host.lookup(key)
            elif how == _READ_GET:
                v = _Expander(host).get(key)
            else:
                v = None
            texts.append(v if type(v) is str else _Expander(host).part_text(q, False))
        numbers: list[int] = []
        for t in texts:
            n = arith.hole_number(t)
            if n is None:  # not a plain number: the joined text is read as an expression
                text = frozen_pieces[0] + "".join(
                    t + piece for t, piece in zip(texts, frozen_pieces[1:], strict=True))
                return arith.evaluate(_checked(text, host), host)
            numbers.append(n)
        return arith.evaluate_template(fn, numbers, frozen_pieces, texts, host)

    return templated


def _one_hole(fn: arith.Fn, pieces: tuple[str, ...],
              reader: tuple[int, Any, ast.ParamExp]) -> Callable[[ExpandHost], int]:
    """`templated` of a template with one `$1` or `$x` hole (`$(( $1 + 1 ))`), without
    its lists; for one operator between the hole and a number or a variable, arith's
    closure that reads the hole itself (`arith.one_hole_fn`), with this as its path for
    a value that is no plain number."""
    how, key, q = reader
    first, rest = pieces

    def after_read(host: ExpandHost, v: Any) -> int:
        t = v if type(v) is str else _Expander(host).part_text(q, False)
        got = arith.evaluate_one_hole(fn, t, pieces, host)
        if got is None:  # not a plain number: the joined text is read as an expression
            return arith.evaluate(_checked(first + t + rest, host), host)
        return got

    fused = arith.one_hole_fn(pieces, "pos" if how == _READ_POS else "var", key, after_read)
    if fused is not None:
        return fused

    def one_hole(host: ExpandHost) -> int:
        if how == _READ_POS:
            pos = host.positional()
            v: Any = pos[key] if key < len(pos) else None
        else:
            v = host.lookup(key)
        return after_read(host, v)

    return one_hole


def _reader(q: ast.ParamExp) -> tuple[int, Any, ast.ParamExp]:
    """How a template reads the expansion `q` (see `_READ_POS`)."""
    if not plain_scalar(q):
        return _READ_FULL, None, q
    name = q.name
    if name.isdigit() and name.isascii() and name != "0":
        return _READ_POS, int(name) - 1, q
    if _NAME.fullmatch(name) is not None:
        return _READ_VAR, name, q
    return _READ_GET, name, q


def _assign_tildes(parts: tuple[ast.WordPart, ...], host: ExpandHost) -> tuple[ast.WordPart, ...]:
    """Tilde after `:` in an assignment value (`PATH=~/bin:~/x`)."""
    out: list[ast.WordPart] = []
    for i, p in enumerate(parts):
        if type(p) is ast.Lit and (":~" in p.text or i == 0 and p.text[:1] == "~"):
            segs = p.text.split(":")
            new = [segs[0]]
            if i == 0 and len(segs) > 1 and segs[0][:1] == "~" and "/" not in segs[0]:
                # `P=~:~/x`: a `:` ends the first tilde prefix too
                r = _tilde_prefix(segs[0], host)
                if r is not None:
                    new = [r[0] + r[1]]
            for j, s in enumerate(segs[1:], 1):
                at_end = j == len(segs) - 1
                if s[:1] == "~" and ("/" in s or at_end and (i + 1 == len(parts))):
                    r = _tilde_prefix(s, host)
                    if r is not None:
                        s = r[0] + r[1]
                new.append(s)
            out.append(ast.Lit(":".join(new)))
        else:
            out.append(p)
    return tuple(out)


def expand_value(word: ast.Word, host: ExpandHost) -> Value:
    """An assignment's right-hand side: like expand_text (tilde at the start and after
    `:`), but exactly one `$(…)` or `$x` keeps a typed value."""
    parts = word.parts
    if len(parts) == 1:
        p = parts[0]
        tp = type(p)
        if tp is ast.Quoted:
            return p.text  # type: ignore[union-attr]
        if tp is ast.Lit:
            t = p.text  # type: ignore[union-attr]
            if "~" not in t:
                return t
        elif tp is ast.CmdSub:
            return host.command_substitution(p.body)  # type: ignore[union-attr]
        elif tp is ast.ArithSub:
            return _Expander(host).arith_sub(p)  # type: ignore[arg-type]
        elif tp is ast.ParamExp:
            ex = _Expander(host)
            v = ex.param(p)  # type: ignore[arg-type]
            if isinstance(v, _Multi):
                sep = _star_joiner(host) if v.star else " "
                return _checked(sep.join(to_text(x) for x in v.items), host)
            if v is None:
                return ""
            if type(v) is str or isinstance(v, (list, dict)):
                return v
            return to_text(v)
    elif not parts:
        return ""
    if any(type(p) is ast.Lit and ":~" in p.text for p in parts):
        parts = _assign_tildes(parts, host)
    elif type(parts[0]) is ast.Lit and parts[0].text[:1] == "~" and ":" in parts[0].text:
        parts = _assign_tildes(parts, host)
    return expand_text(ast.Word(parts), host)


def expand_pattern(word: ast.Word, host: ExpandHost) -> str:
    """Pattern text for `case`, `[[ == ]]` and `${x#p}`: unquoted text and unquoted
    expansions keep their glob meaning, quoted text is escaped to match literally."""
    parts = word.parts
    if len(parts) == 1 and type(parts[0]) is ast.Lit and parts[0].text[:1] != "~":
        return parts[0].text
    if parts and type(parts[0]) is ast.Lit and parts[0].text[:1] == "~":
        t = _tilde(parts, host)
        if t is not None:
            parts = t
    return _escaped_text(parts, host, pattern.escape)


def expand_regex(word: ast.Word, host: ExpandHost) -> str:
    """Regex text for `[[ =~ ]]`: unquoted parts are regex syntax, quoted parts match
    literally (bash quotes them)."""
    import re

    return _escaped_text(word.parts, host, re.escape)


def _escaped_text(
    parts: Sequence[ast.WordPart], host: ExpandHost, escape: Callable[[str], str]
) -> str:
    """Unquoted text and expansions as they are, quoted text through `escape` (so it
    matches literally in the pattern or regex the result is compiled to)."""
    ex = _Expander(host)
    out: list[str] = []
    for p in parts:
        tp = type(p)
        if tp is ast.Lit:
            out.append(p.text)  # type: ignore[union-attr]
        elif tp is ast.Quoted:
            out.append(escape(p.text))  # type: ignore[union-attr]
        elif tp is ast.DQ:
            out.append(escape(_parts_text(p.parts, ex, True)))  # type: ignore[union-attr]
        else:
            out.append(ex.part_text(p, False))
    return _join(out, host)


def expand_heredoc(doc: ast.HereDoc, host: ExpandHost) -> str:
    """A here-document's body: literal when the delimiter was quoted, otherwise
    expanded like the inside of double quotes."""
    parts = doc.body.parts
    if doc.strip_tabs:
        parts = _strip_tabs(parts)
    if doc.quoted or all(type(p) is ast.Quoted for p in parts):
        return "".join(p.text for p in parts if isinstance(p, (ast.Quoted, ast.Lit)))
    return _parts_text(parts, _Expander(host), True)


def _strip_tabs(parts: tuple[ast.WordPart, ...]) -> tuple[ast.WordPart, ...]:
    """`<<-`: drop leading tabs of each line of the literal text (not of expansions)."""
    out: list[ast.WordPart] = []
    at_line_start = True
    for p in parts:
        if isinstance(p, (ast.Quoted, ast.Lit)):
            lines = p.text.split("\n")
            new = [
                ln.lstrip("\t") if (i > 0 or at_line_start) else ln for i, ln in enumerate(lines)
            ]
            text = "\n".join(new)
            out.append(ast.Quoted(text))
            if text:
                at_line_start = text.endswith("\n")
        else:
            out.append(p)
            at_line_start = False
    return tuple(out)
