"""awk AST → Python source, compiled once with `compile()`.

Every awk function becomes a Python function, BEGIN and END become functions, and the
rules become one loop over the input records, so running a record is plain Python
bytecode — no tree walk. Each expression is compiled together with its static kind
(`n` a float, `s` a str, `f` a raw field string, `b` a Python bool, `v` any awk value),
so conversions are emitted only where the kind is unknown: `s += $2` becomes
`v_s = tonum(v_s) + str2num(R.f(2))`.

Names: awk globals are `v_NAME` module globals, function parameters `l_NAME` locals,
functions `u_NAME`; special variables live on the runtime `R` (`R.NR`, `R.set_FS(x)`).
Whether a name is an array is decided statically (subscripted, `in`, `for-in`,
`delete`, `split` target, or passed where a function takes an array), to a fixpoint."""

from __future__ import annotations

import math

from tysh.builtins.awk import format as awk_format
from tysh.builtins.awk.lex import AwkSyntaxError
from tysh.builtins.awk.parse import Func, Node, Program

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SPECIAL_SCALARS = {
    "NR": "n", "FNR": "n", "NF": "n", "FS": "v", "OFS": "s", "ORS": "s", "RS": "s",
    "FILENAME": "v", "SUBSEP": "s", "RSTART": "v", "RLENGTH": "v", "CONVFMT": "s",
    "OFMT": "s", "ARGC": "v",
}
SPECIAL_ARRAYS = {"ENVIRON", "ARGV"}
_ARITH = {"+": "+", "-": "-", "*": "*"}
_AUG = {"+=": "add", "-=": "sub", "*=": "mul", "/=": "div", "%=": "mod", "^=": "pw"}
_CMPNAME = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}


class Compiler:
    def __init__(self, prog: Program) -> None:
        self.prog = prog
        self.consts: dict[str, Any] = {}
        self.lines: list[str] = []
        self.ind = 1
        self.tmp = 0
        self.fn: Func | None = None
        self.params: dict[str, bool] = {}  # current function's params: name → is array
        self.loop = 0
        self.in_main = False
        self.in_end = False
        self.need_try = False
        self.globals_used: set[str] = set()
        self.arrays: set[str] = set(SPECIAL_ARRAYS)
        self.param_arrays: dict[str, set[int]] = {f: set() for f in prog.funcs}
        self.all_scalars: set[str] = set()
        self.uses_getline_main = False
        self.uses_nextfile = False
        self.mutates_record = False
        self.uses_nr = False
        self.reads_fields = False
        self.used_wa = False
        self._analyse()
        self.eager = self.reads_fields and not self.mutates_record and all(
            pat is None or _reads_fields(pat) for pat, _, _ in prog.rules)

    # -- array analysis ------------------------------------------------------------------
    def _analyse(self) -> None:
        edges: list[tuple[str | None, str, str, int]] = []  # (scope fn, name, callee, pos)
        marks: set[tuple[str | None, str]] = set()

        def walk(n: Any, scope: str | None) -> None:
            if isinstance(n, list):
                for x in n:
                    walk(x, scope)
                return
            if not isinstance(n, tuple) or not n or not isinstance(n[0], str):
                return
            k = n[0]
            if k in ("idx", "delete"):
                marks.add((scope, n[1]))
            elif k == "in":
                marks.add((scope, n[2]))
            elif k == "forin":
                marks.add((scope, n[2]))
            elif k == "builtin" and n[1] == "split" and len(n[2]) > 1 and n[2][1][0] == "var":
                marks.add((scope, n[2][1][1]))
            elif k == "builtin" and n[1] == "match" and len(n[2]) > 2 and n[2][2][0] == "var":
                marks.add((scope, n[2][2][1]))
            elif k == "getline" and n[1] == "simple":
                self.uses_getline_main = True
            elif k == "nextfile":
                self.uses_nextfile = True
            elif k == "call":
                for pos, a in enumerate(n[2]):
                    if a[0] == "var":
                        edges.append((scope, a[1], n[1], pos))
            if k in ("assign", "preinc", "postinc"):
                lv = n[2]
                if lv[0] == "field" or lv == ("var", "NF"):
                    self.mutates_record = True
            elif k == "getline" and (n[2] is None or n[2][0] == "field"):
                self.mutates_record = True
            elif k == "builtin" and n[1] in ("sub", "gsub") and (
                    len(n[2]) < 3 or n[2][2][0] == "field"):
                self.mutates_record = True
            elif k == "var" and n[1] in ("NR", "FNR"):
                self.uses_nr = True
            elif k == "field" and n[1] != ("num", 0.0) or k == "var" and n[1] == "NF":
                self.reads_fields = True
            for x in n[1:]:
                walk(x, scope)

        p = self.prog
        for b in p.begin + p.end:
            walk(b, None)
        for pat, pat2, act in p.rules:
            walk([pat, pat2, act or []], None)
        for f in p.funcs.values():
            walk(f.body, f.name)

        def mark(scope: str | None, name: str) -> bool:
            if scope is not None:
                params = p.funcs[scope].params
                if name in params:
                    i = params.index(name)
                    if i in self.param_arrays[scope]:
                        return False
                    self.param_arrays[scope].add(i)
                    return True
            if name in self.arrays:
                return False
            self.arrays.add(name)
            return True

        for scope, name in marks:
            mark(scope, name)
        changed = True
        while changed:
            changed = False
            for scope, name, callee, pos in edges:
                if callee in self.param_arrays and pos in self.param_arrays[callee]:
                    changed |= mark(scope, name)
        for f in p.funcs.values():
            for i, prm in enumerate(f.params):
                if i not in self.param_arrays[f.name] and prm in SPECIAL_SCALARS:
                    pass

    # -- emission helpers ----------------------------------------------------------------
    def emit(self, line: str) -> None:
        self.lines.append("    " * self.ind + line)

    def const(self, value: Any, prefix: str = "_k") -> str:
        name = f"{prefix}{len(self.consts)}"
        self.consts[name] = value
        return name

    def newtmp(self) -> str:
        self.tmp += 1
        return f"_t{self.tmp}"

    def is_array(self, name: str) -> bool:
        if name in self.params:
            return self.params[name]
        return name in self.arrays

    def arr(self, name: str) -> str:
        if name in self.params:
            if not self.params[name]:
                raise AwkSyntaxError(f"attempt to use scalar parameter `{name}' as an array")
            return f"l_{name}"
        if name in SPECIAL_ARRAYS:
            return f"R.{name}"
        if name in SPECIAL_SCALARS:
            raise AwkSyntaxError(f"attempt to use scalar `{name}' as an array")
        return f"v_{name}"

    # -- conversions ---------------------------------------------------------------------
    def N(self, e: Node) -> str:
        c, k = self.ex(e)
        if k == "n":
            return c
        if k == "b":
            return f"(1.0 if {c} else 0.0)"
        if k in "sf":
            return f"str2num({c})"
        if c.isidentifier():
            return f"({c} if {c}.__class__ is float else tonum({c}))"
        return f"tonum({c})"

    def S(self, e: Node) -> str:
        """As a string: numbers through CONVFMT."""
        return self._text(e, "n2s", "tostr")

    def Out(self, e: Node) -> str:
        """As print writes it: numbers through OFMT."""
        return self._text(e, "n2o", "tostr_o")

    def _text(self, e: Node, from_num: str, from_any: str) -> str:
        c, k = self.ex(e)
        if k in "sf":
            return c
        if k == "n":
            return f"{from_num}({c})"
        if k == "b":
            return f"('1' if {c} else '0')"
        return f"{from_any}({c})"

    def V(self, e: Node) -> str:
        c, k = self.ex(e)
        if k == "a":
            raise AwkSyntaxError(f"attempt to use array `{e[1]}' in a scalar context")
        if k == "b":
            return f"(1.0 if {c} else 0.0)"
        if k == "f":
            return f"strnum({c})"
        return c

    def B(self, e: Node) -> str:
        c, k = self.ex(e)
        if k == "b":
            return c
        if k == "n":
            return f"({c} != 0.0)"
        if k == "s":
            return f"({c} != '')"
        if k == "f":
            return f"truth(strnum({c}))"
        return f"truth({c})"

    def K(self, e: Node) -> str:
        c, k = self.ex(e)
        if k in "sf":
            return c
        if k == "n":
            return f"n2s({c})"
        if k == "b":
            return f"('1' if {c} else '0')"
        return f"key({c})"

    def key(self, subs: list[Node]) -> str:
        if len(subs) == 1:
            return self.K(subs[0])
        return "R.SUBSEP.join((" + ", ".join(self.K(s) for s in subs) + ",))"

    def regex(self, e: Node) -> str:
        """A regex operand: a literal compiles once; anything else is a dynamic regex."""
        if e[0] == "ere":
            return self.const(("re", e[1]), "_re")
        return f"awk_regex({self.S(e)})"

    # -- lvalues -------------------------------------------------------------------------
    def load(self, lv: Node) -> tuple[str, str]:
        return self.ex(lv)

    def store(self, lv: Node, val: str) -> str:
        """An expression assigning `val` (an awk value) to lv and giving it back."""
        k = lv[0]
        if k == "var":
            name = lv[1]
            if self.is_array(name):
                raise AwkSyntaxError(f"attempt to use array `{name}' in a scalar context")
            if name in self.params:
                return f"(l_{name} := {val})"
            if name in SPECIAL_SCALARS:
                return f"R.set_{name}({val})"
            self.globals_used.add(name)
            return f"(v_{name} := {val})"
        if k == "idx":
            return f"aset({self.arr(lv[1])}, {self.key(lv[2])}, {val})"
        if k == "field":
            return f"R.setf({self.fidx(lv[1])}, {val})"
        raise AwkSyntaxError("invalid assignment target")

    def fidx(self, e: Node) -> str:
        if e[0] == "num" and 0 <= e[1] < 1e7 and e[1] == int(e[1]):  # inf and nan fail the range
            return str(int(e[1]))
        if e[0] == "group":
            return self.fidx(e[1])
        return f"R.fidx({self.V(e)})"

    def augment(self, lv: Node, fn: str, rhs: str) -> str:
        """lv op= rhs (rhs a float expression): the new value."""
        k = lv[0]
        if k == "idx":
            return f"aaug({self.arr(lv[1])}, {self.key(lv[2])}, {fn}, {rhs})"
        if k == "field":
            return f"faug({self.fidx(lv[1])}, {fn}, {rhs})"
        cur = self.N(lv)
        if fn in ("add", "sub", "mul"):
            op = {"add": "+", "sub": "-", "mul": "*"}[fn]
            return self.store(lv, f"({cur} {op} {rhs})")
        return self.store(lv, f"{fn}({cur}, {rhs})")

    # -- expressions ---------------------------------------------------------------------
    def ex(self, e: Node) -> tuple[str, str]:  # noqa: C901 - one dispatch over node kinds
        k = e[0]
        if k == "num":
            v = e[1]
            return (repr(v) if math.isfinite(v) else self.const(v)), "n"
        if k == "str":
            return repr(e[1]), "s"
        if k == "ere":
            return f"({self.regex(e)}.search(R.line) is not None)", "b"
        if k == "group":
            return self.ex(e[1])
        if k == "var":
            name = e[1]
            if name in self.params:
                if self.params[name]:
                    return f"l_{name}", "a"
                return f"l_{name}", "v"
            if name in SPECIAL_SCALARS:
                if name == "NF":
                    if self.eager and self.in_main and self.fn is None:
                        return "float(_nf)", "n"
                    return "R.getnf()", "n"
                return f"R.{name}", SPECIAL_SCALARS[name]
            if self.is_array(name):
                return self.arr(name), "a"
            self.globals_used.add(name)
            return f"v_{name}", "v"
        if k == "idx":
            return f"{self.arr(e[1])}[{self.key(e[2])}]", "v"
        if k == "field":
            i = self.fidx(e[1])
            if i.isdigit() and i != "0":
                if self.eager and self.in_main and self.fn is None:
                    return f"(_F[{int(i) - 1}] if _nf >= {i} else '')", "f"
                return f"R.fp({i})", "f"
            if i == "0":
                return "R.line", "f"
            return f"R.f({i})", "f"
        if k == "assign":
            op, lv, rhs = e[1], e[2], e[3]
            if op == "=":
                return self.store(lv, self.V(rhs)), "v"
            return self.augment(lv, _AUG[op], self.N(rhs)), "v" if lv[0] == "var" else "n"
        if k == "cond":
            c = self.B(e[1])
            a, ka = self.ex(e[2])
            b, kb = self.ex(e[3])
            if ka == kb and ka != "b":
                return f"({a} if {c} else {b})", ka
            return f"({self.V(e[2])} if {c} else {self.V(e[3])})", "v"
        if k == "or":
            return f"({self.B(e[1])} or {self.B(e[2])})", "b"
        if k == "and":
            return f"({self.B(e[1])} and {self.B(e[2])})", "b"
        if k == "not":
            return f"(not {self.B(e[1])})", "b"
        if k == "in":
            return f"({self.key(e[1])} in {self.arr(e[2])})", "b"
        if k == "match":
            rx = self.regex(e[3])
            return f"({rx}.search({self.S(e[2])}) is {'' if e[1] else 'not '}None)", "b"
        if k == "cmp":
            return self.compare(e[1], e[2], e[3])
        if k == "concat":
            return "(" + " + ".join(self.S(p) for p in e[1]) + ")", "s"
        if k == "bin":
            op = e[1]
            a, b = self.N(e[2]), self.N(e[3])
            if op in _ARITH:
                return f"({a} {op} {b})", "n"
            if op == "/":
                return f"div({a}, {b})", "n"
            if op == "%":
                return f"mod({a}, {b})", "n"
            return f"pw({a}, {b})", "n"
        if k == "neg":
            return f"(-{self.N(e[1])})", "n"
        if k == "pos":
            return f"(+{self.N(e[1])})", "n"
        if k in ("preinc", "postinc"):
            return self.incdec(e)
        if k == "call":
            return self.call(e), "v"
        if k == "builtin":
            return self.builtin(e[1], e[2])
        if k == "getline":
            return self.getline(e)
        if k == "grouplist":
            raise AwkSyntaxError("syntax error: a parenthesised list must be followed by `in'")
        if k == "tmp":
            return self.ex(e[1])
        raise AwkSyntaxError(f"unsupported expression {k}")

    def compare(self, op: str, a: Node, b: Node) -> tuple[str, str]:
        ca, ka = self.ex(a)
        cb, kb = self.ex(b)
        if ka == "b":
            ca, ka = f"(1.0 if {ca} else 0.0)", "n"
        if kb == "b":
            cb, kb = f"(1.0 if {cb} else 0.0)", "n"
        if ka == "a" or kb == "a":
            raise AwkSyntaxError("attempt to use array in a scalar context")
        if ka == "n" and kb == "n" or ka == "s" and kb == "s":
            return f"({ca} {op} {cb})", "b"
        if ka == "s" and kb in "nf":
            return f"({ca} {op} {self.S(b)})", "b"
        if kb == "s" and ka in "nf":
            return f"({self.S(a)} {op} {cb})", "b"
        if ka == "f" and kb == "n":
            return f"f{_CMPNAME[op]}({ca}, {cb})", "b"
        if kb == "f" and ka == "n":
            rev = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}[op]
            return f"f{_CMPNAME[rev]}({cb}, {ca})", "b"
        return f"c{_CMPNAME[op]}({self.V(a)}, {self.V(b)})", "b"

    def incdec(self, e: Node) -> tuple[str, str]:
        pre = e[0] == "preinc"
        d = "1.0" if e[1] == "++" else "-1.0"
        lv = e[2]
        k = lv[0]
        if k == "idx":
            f = "apreinc" if pre else "apostinc"
            return f"{f}({self.arr(lv[1])}, {self.key(lv[2])}, {d})", "n"
        if k == "field":
            f = "fpreinc" if pre else "fpostinc"
            return f"{f}({self.fidx(lv[1])}, {d})", "n"
        if pre:
            return f"tonum({self.store(lv, f'({self.N(lv)} + {d})')})", "n"
        t = self.newtmp()
        return f"(({t} := {self.N(lv)}), {self.store(lv, f'({t} + {d})')})[0]", "n"

    def call(self, e: Node) -> str:
        f = self.prog.funcs[e[1]]
        args = e[2]
        if len(args) > len(f.params):
            raise AwkSyntaxError(f"function `{f.name}' called with more arguments than declared")
        out: list[str] = []
        arrs = self.param_arrays[f.name]
        for i, a in enumerate(args):
            if i in arrs:
                if a[0] != "var":
                    raise AwkSyntaxError(f"function `{f.name}': argument #{i + 1} must be an array")
                out.append(self.arr(a[1]))
            else:
                c, kind = self.ex(a)
                out.append(c if kind != "b" and kind != "f" else self.V(a))
        return f"u_{f.name}({', '.join(out)})"

    def builtin(self, name: str, args: list[Node]) -> tuple[str, str]:  # noqa: C901
        if name == "length":
            if not args:
                return "float(len(R.line))", "n"
            a = args[0]
            if a[0] == "var":
                c, kind = self.ex(a)
                if kind == "a":
                    return f"float(len({c}))", "n"
                if kind == "v":
                    return f"alen({c})", "n"
            return f"float(len({self.S(a)}))", "n"
        if name == "substr":
            rest = ", ".join(self.N(a) for a in args[1:])
            return f"R.substr({self.S(args[0])}, {rest})", "s"
        if name == "index":
            return f"float({self.S(args[0])}.find({self.S(args[1])}) + 1)", "n"
        if name == "split":
            target = self.arr(args[1][1])
            if len(args) == 2:
                return f"R.asplit({self.S(args[0])}, {target})", "n"
            sep = args[2]
            if sep[0] == "ere":
                return f"R.asplit({self.S(args[0])}, {target}, None, {self.regex(sep)})", "n"
            return f"R.asplit({self.S(args[0])}, {target}, {self.S(sep)})", "n"
        if name in ("sub", "gsub"):
            tgt: Node = args[2] if len(args) > 2 else ("field", ("num", 0.0))
            if args[0][0] in ("ere", "str") and args[1][0] == "str":
                # both constant: a substituter built once (runtime.make_sub)
                fn = self.const(("sub", args[0][1], args[1][1], name == "gsub"), "_sb")
                call = f"{fn}({{}})"
            else:
                rx = self.regex(args[0])
                repl = self.S(args[1])
                glob = "True" if name == "gsub" else "False"
                call = f"R.sub({rx}, {repl}, {{}}, {glob})"
            if tgt[0] == "tmp":
                return f"float({call.format(self.S(tgt[1]))}[1])", "n"
            t = self.newtmp()
            cur = self.S(tgt)
            if tgt[0] == "field" and self.fidx(tgt[1]) == "0":
                wr = f"R.set0({t}[0])"
            else:
                wr = self.store(tgt, f"{t}[0]")
            return (f"(({t} := {call.format(cur)}), ({wr} if {t}[1] else None), "
                    f"float({t}[1]))[2]"), "n"
        if name == "match":
            extra = f", {self.arr(args[2][1])}" if len(args) > 2 and args[2][0] == "var" else ""
            return f"R.match({self.S(args[0])}, {self.regex(args[1])}{extra})", "n"
        if name == "sprintf":
            return self.sprintf(args), "s"
        if name in ("sin", "cos", "exp", "log", "sqrt"):
            return f"m_{name}({self.N(args[0])})", "n"
        if name == "atan2":
            return f"math.atan2({self.N(args[0])}, {self.N(args[1])})", "n"
        if name == "int":
            return f"m_int({self.N(args[0])})", "n"
        if name == "rand":
            return "R.rng.random()", "n"
        if name == "srand":
            return "R.srand(" + ", ".join(self.V(a) for a in args) + ")", "n"
        if name == "tolower":
            return f"{self.S(args[0])}.lower()", "s"
        if name == "toupper":
            return f"{self.S(args[0])}.upper()", "s"
        if name == "system":
            return f"R.system({self.V(args[0])})", "n"
        if name == "close":
            return f"R.close({self.V(args[0])})", "n"
        if name == "fflush":
            return "R.fflush(" + ", ".join(self.V(a) for a in args) + ")", "n"
        raise AwkSyntaxError(f"function `{name}' not defined")

    def sprintf(self, args: list[Node]) -> str:
        """printf/sprintf. A constant format whose conversions Python's `%` does as C does
        (s, d, i, e, f, g; no `*`) becomes one `%` expression over the converted
        arguments; a number that is not finite takes the general formatter, given the
        same converted arguments (which it treats as it would the originals)."""
        if args and args[0][0] == "str" and not any(
                a[0] == "var" and self.is_array(a[1]) for a in args[1:]):
            pieces = awk_format.parse(args[0][1])
            convs = [p for p in pieces if p[4]]
            if len(convs) == len(args) - 1 and all(p[5] is not None for p in convs):
                if not convs:
                    return repr("".join(p[0] for p in pieces))
                pyfmt = "".join(p[0].replace("%", "%%") + (p[5] or "") for p in pieces)
                temps: list[str] = []
                sets: list[str] = []
                checks: list[str] = []
                for p, a in zip(convs, args[1:], strict=True):
                    t = self.newtmp()
                    temps.append(t)
                    if p[4] == "s":
                        sets.append(f"({t} := {self.S(a)})")
                    else:
                        sets.append(f"({t} := {self.N(a)})")
                        checks.append(f" and {t} - {t} == 0.0")
                tup = ", ".join(temps) + ","
                return (f"({pyfmt!r} % ({tup}) if ({', '.join(sets)},){''.join(checks)} "
                        f"else R.sprintf({args[0][1]!r}, {tup}))")
        return "R.sprintf(" + ", ".join(self.V(a) for a in args) + ")"

    def getline(self, e: Node) -> tuple[str, str]:
        kind, lv, src = e[1], e[2], e[3]
        if kind == "simple":
            if lv is None:
                return "R.gl_simple()", "n"
            call = "R.getline_main()"
        elif kind == "file":
            if lv is None:
                return f"R.gl_file({self.S(src)})", "n"
            call = f"R.getline_file({self.S(src)})"
        else:
            if lv is None:
                return f"R.gl_cmd({self.S(src)})", "n"
            call = f"R.getline_cmd({self.S(src)})"
        t = self.newtmp()
        wr = self.store(lv, f"strnum({t}[1])")
        return f"(({t} := {call}), ({wr} if {t}[0] > 0 else None), {t}[0])[2]", "n"

    # -- statements ----------------------------------------------------------------------
    def block(self, stmts: list[Node]) -> None:
        if not stmts:
            self.emit("pass")
        for s in stmts:
            self.stmt(s)

    def body(self, s: Node) -> None:
        self.ind += 1
        n = len(self.lines)
        self.stmt(s)
        if len(self.lines) == n:
            self.emit("pass")
        self.ind -= 1

    def stmt(self, s: Node) -> None:  # noqa: C901
        k = s[0]
        if k == "block":
            for x in s[1]:
                self.stmt(x)
        elif k == "expr":
            self.expr_stmt(s[1])
        elif k in ("print", "printf"):
            self.print_stmt(s)
        elif k == "if":
            self.emit(f"if {self.B(s[1])}:")
            self.body(s[2])
            if s[3] is not None:
                self.emit("else:")
                self.body(s[3])
        elif k == "while":
            self.emit(f"while {self.B(s[1])}:")
            self.loop_body(s[2])
        elif k == "do":
            t = self.newtmp()
            self.emit(f"{t} = True")
            self.emit(f"while {t} or {self.B(s[2])}:")
            self.ind += 1
            self.emit(f"{t} = False")
            self.ind -= 1
            self.loop_body(s[1])
        elif k == "for":
            init, cond, incr, body = s[1], s[2], s[3], s[4]
            if init is not None:
                self.stmt(init)
            c = "True" if cond is None else self.B(cond)
            if incr is None or not _has_continue(body):
                self.emit(f"while {c}:")
                self.ind += 1
                self.loop += 1
                self.stmt(body)
                if incr is not None:
                    self.stmt(incr)
                self.emit("R.tick()")
                self.loop -= 1
                self.ind -= 1
            else:
                t = self.newtmp()
                self.emit(f"{t} = True")
                self.emit("while True:")
                self.ind += 1
                self.emit(f"if not {t}:")
                self.body(incr)
                self.emit(f"{t} = False")
                self.emit(f"if not {c}:")
                self.ind += 1
                self.emit("break")
                self.ind -= 1
                self.loop += 1
                self.stmt(body)
                self.emit("R.tick()")
                self.loop -= 1
                self.ind -= 1
        elif k == "forin":
            t = self.newtmp()
            self.emit(f"for {t} in list({self.arr(s[2])}):")
            self.ind += 1
            self.emit(self.store(s[1], t))
            self.loop += 1
            self.stmt(s[3])
            self.loop -= 1
            self.ind -= 1
        elif k == "break":
            self.emit("break")
        elif k == "continue":
            self.emit("continue")
        elif k == "next":
            if self.in_main and self.loop == 0 and self.fn is None:
                self.emit("continue")
            else:
                self.need_try = True
                self.emit("raise NextRecord()")
        elif k == "nextfile":
            self.emit("R.skip_file = True")
            if self.in_main and self.loop == 0 and self.fn is None:
                self.emit("continue")
            else:
                self.need_try = True
                self.emit("raise NextRecord()")
        elif k == "exit":
            code = "None" if s[1] is None else f"int(m_int({self.N(s[1])})) & 255"
            self.emit(f"raise AwkExit({code})")
        elif k == "return":
            self.emit(f"return {'UNINIT' if s[1] is None else self.V(s[1])}")
        elif k == "delete":
            a = self.arr(s[1])
            if s[2] is None:
                self.emit(f"{a}.clear()")
            else:
                self.emit(f"{a}.pop({self.key(s[2])}, None)")
        else:
            raise AwkSyntaxError(f"unsupported statement {k}")

    def loop_body(self, body: Node) -> None:
        self.ind += 1
        self.loop += 1
        self.stmt(body)
        self.emit("R.tick()")
        self.loop -= 1
        self.ind -= 1

    def expr_stmt(self, e: Node) -> None:
        k = e[0]
        if k == "assign" and e[2][0] == "var" and not self.is_array(e[2][1]):
            name = e[2][1]
            target = (f"l_{name}" if name in self.params else
                      None if name in SPECIAL_SCALARS else f"v_{name}")
            if target is not None:
                if target.startswith("v_"):
                    self.globals_used.add(name)
                if e[1] == "=":
                    self.emit(f"{target} = {self.V(e[3])}")
                    return
                fn = _AUG[e[1]]
                cur = self.N(e[2])
                rhs = self.N(e[3])
                if fn in ("add", "sub", "mul"):
                    self.emit(f"{target} = {cur} {'+-*'[('add', 'sub', 'mul').index(fn)]} {rhs}")
                else:
                    self.emit(f"{target} = {fn}({cur}, {rhs})")
                return
        if k in ("preinc", "postinc") and e[2][0] == "var" and not self.is_array(e[2][1]):
            name = e[2][1]
            d = "1.0" if e[1] == "++" else "-1.0"
            if name in self.params or name not in SPECIAL_SCALARS:
                target = f"l_{name}" if name in self.params else f"v_{name}"
                if target.startswith("v_"):
                    self.globals_used.add(name)
                self.emit(f"{target} = {self.N(e[2])} + {d}")
                return
        if k == "group":
            self.expr_stmt(e[1])
            return
        c, _ = self.ex(e)
        self.emit(c)

    def print_stmt(self, s: Node) -> None:
        kind, args, redir, target = s
        if redir is None:
            # at the top of a rule's action, append to the buffer; the record loop
            # flushes it (elsewhere a print may loop without end: write checks)
            w = "_wa" if self.in_main and self.loop == 0 and self.fn is None else "_w"
            self.used_wa = self.used_wa or w == "_wa"
        else:
            w = f"R.out({redir!r}, {self.V(target)}).write"
        if kind == "printf":
            self.emit(f"{w}({self.sprintf(args)})")
            return
        if not args:
            self.emit(f"{w}(R.line + R.ORS)")
        elif len(args) == 1:
            self.emit(f"{w}({self.Out(args[0])} + R.ORS)")
        else:
            self.emit(f"{w}(R.OFS.join(({', '.join(self.Out(a) for a in args)})) + R.ORS)")

    # -- program -------------------------------------------------------------------------
    def function(self, f: Func) -> list[str]:
        self.lines = []
        self.fn = f
        arrs = self.param_arrays[f.name]
        self.params = {p: i in arrs for i, p in enumerate(f.params)}
        sig = ", ".join(f"l_{p}=None" if i in arrs else f"l_{p}=UNINIT"
                        for i, p in enumerate(f.params))
        self.ind = 1
        for i, p in enumerate(f.params):
            if i in arrs:
                self.emit(f"if l_{p} is None:")
                self.emit(f"    l_{p} = Arr()")
        self.block(f.body)
        self.emit("return UNINIT")
        body = self.lines
        self.fn = None
        self.params = {}
        return [f"def u_{f.name}({sig}):", "    _w = R.stdout.write", *self.globals_decl(), *body]

    def globals_decl(self) -> list[str]:
        return ["    global " + ", ".join(f"v_{n}" for n in sorted(self.globals_used))] \
            if self.globals_used else []

    def section(self, name: str, blocks: list[list[Node]]) -> list[str]:
        self.lines = []
        self.ind = 1
        for b in blocks:
            self.block(b)
        body = self.lines
        return [f"def {name}():", "    _w = R.stdout.write", *self.globals_decl(), *body]

    def main(self) -> list[str]:
        self.lines = []
        self.in_main = True
        self.ind = 3
        ranges = 0
        for pat, pat2, act in self.prog.rules:
            start = len(self.lines)
            if pat is None:
                self.ind -= 0
                self.action(act)
                continue
            if pat2 is None:
                self.emit(f"if {self.B(pat)}:")
                self.ind += 1
                self.action(act)
                self.ind -= 1
                continue
            r = f"_rng{ranges}"
            ranges += 1
            self.emit(f"if {r}:")
            self.emit(f"    {r} = not {self.B(pat2)}")
            self.emit("    _m = True")
            self.emit(f"elif {self.B(pat)}:")
            self.emit(f"    {r} = not {self.B(pat2)}")
            self.emit("    _m = True")
            self.emit("else:")
            self.emit("    _m = False")
            self.emit("if _m:")
            self.ind += 1
            self.action(act)
            self.ind -= 1
            del start
        body = self.lines
        self.in_main = False
        head = ["def _main():", "    _w = R.stdout.write", "    _buf = R.stdout.buf",
                "    _wa = _buf.append", "    _th = R.stdout.threshold", "    _fl = R.stdout.flush",
                *self.globals_decl()]
        head += [f"    _rng{i} = False" for i in range(ranges)]
        if self.uses_getline_main or self.uses_nextfile:
            head += ["    if R.gen is None:", "        R.gen = R.records()",
                     "    for _rec in R.gen:"]
        elif self.uses_nr:
            head += ["    for _batch in R.batches():", "     for _rec in _batch:",
                     "        R.NR += 1.0", "        R.FNR += 1.0"]
        else:
            # nothing reads NR or FNR while the loop runs: count per batch
            head += ["    for _batch in R.batches():", "     R.NR += len(_batch)",
                     "     R.FNR += len(_batch)", "     for _rec in _batch:"]
        if self.used_wa:
            head += ["        if len(_buf) >= _th:", "            _fl()"]
        head += ["        R.line = _rec"]
        if self.eager:
            head += ["        _F = R.fields = R.splitter(_rec)", "        _nf = len(_F)"]
        else:
            head += ["        R.fields = None"]
        if self.need_try:
            head.append("        try:")
            body.append("        except NextRecord:")
            body.append("            pass")
        else:
            body = [ln[4:] for ln in body]
        if not body:
            body = ["        pass"]
        return head + body

    def action(self, act: list[Node] | None) -> None:
        if act is None:
            self.used_wa = True
            self.emit("_wa(R.line + R.ORS)")
        else:
            self.block(act)

    def compile(self) -> tuple[str, dict[str, Any]]:
        out: list[str] = []
        for f in self.prog.funcs.values():
            self.globals_used = set()
            out += self.function(f)
            self.all_scalars |= self.globals_used
        self.globals_used = set()
        out += self.section("_begin", self.prog.begin)
        self.all_scalars |= self.globals_used
        self.globals_used = set()
        out += self.main()
        self.all_scalars |= self.globals_used
        self.globals_used = set()
        self.in_end = True
        out += self.section("_end", self.prog.end)
        self.all_scalars |= self.globals_used
        return "\n".join(out) + "\n", self.consts


def _reads_fields(n: Any) -> bool:
    if isinstance(n, list):
        return any(_reads_fields(x) for x in n)
    if not isinstance(n, tuple) or not n:
        return False
    if n[0] == "field" and n[1] != ("num", 0.0) or n == ("var", "NF"):
        return True
    return any(_reads_fields(x) for x in n[1:])


def _has_continue(n: Any) -> bool:
    """Whether a loop body has a `continue` that belongs to this loop."""
    if not isinstance(n, tuple) or not n:
        return False
    k = n[0]
    if k == "continue":
        return True
    if k in ("while", "do", "for", "forin"):
        return False
    if k == "block":
        return any(_has_continue(x) for x in n[1])
    if k == "if":
        return _has_continue(n[2]) or (n[3] is not None and _has_continue(n[3]))
    return False
