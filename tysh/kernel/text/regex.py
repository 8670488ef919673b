"""POSIX regular expressions (BRE and ERE with the GNU extensions) translated to Python `re` syntax.

grep and sed accept GNU's dialects; Python's `re` speaks another one. The translation is a
single left-to-right pass that emits an equivalent Python pattern; kernel.text.engine then
runs it on `re`, RE2 or the regex module, whichever cannot freeze the process on it. Three matching modes exist because the two tools see text differently:

- ``line``: grep (and sed's whole-chunk fast path) searches a block of many lines at once,
  so nothing may match a newline: `.`, negated brackets, `\\s` and `\\W` exclude it, and `^`
  `$` are line anchors (the pattern is compiled with re.MULTILINE).
- ``space``: sed's pattern space, where `.` and `[^x]` do match an embedded newline and
  `^` `$` anchor the whole space.
- ``space_m``: the pattern space under sed's `M` flag (`^` `$` at line boundaries).
- ``sedline``: ``line`` with sed's escapes (`\\t`…), for sed's block fast path, where `\\n`
  can never match (each pattern space is one line).

The translator also reports whether the pattern means the same on raw UTF-8 bytes as on
decoded text (`ascii_safe`), which lets grep skip decoding for the common patterns.
"""

from __future__ import annotations

import warnings

from tysh.kernel.base.errors import TyshError
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.memo import bounded_memo
from tysh.kernel.base.record import Record, frozen
from tysh.kernel.text.literal import Compiled

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Literal

    from tysh.kernel.text import engine
    from tysh.kernel.text.literal import Kind

    Mode = Literal["line", "sedline", "space", "space_m"]
else:
    # loaded by the first pattern translated or compiled: a tool that imports this
    # module for its error type or for an option it was not given loads neither
    re = LazyModule(globals(), "re", "re")
    engine = LazyModule(globals(), "engine", "tysh.kernel.text.engine")

DUP_MAX = 32767


class RegexError(TyshError):
    """An invalid pattern; the message is GNU's wording (`Unmatched ( or \\(`)."""

    status = 2


@frozen
class Translated(Record):
    source: str  # the Python pattern
    groups: int  # capturing groups it defines
    ascii_safe: bool  # same meaning on UTF-8 bytes as on decoded text
    # GNU's ERE warnings (`* at start of expression`), which grep prints to stderr
    warnings: tuple[str, ...] = ()
    bad_start: bool = False  # a repetition of nothing (`*a` in ERE, `\\{1\\}a` in BRE)


# POSIX classes: (members usable inside a Python [...], extra alternative, ascii_safe).
# `\n` is left out of the line-mode sets: grep never matches across lines.
_UPPER = "A-Z\xc0-\xd6\xd8-\xde\u0391-\u03a9\u0410-\u042f"
_LOWER = "a-z\xdf-\xf6\xf8-\xff\u03b1-\u03c9\u0430-\u044f"
_CLASSES: dict[str, tuple[str, str, bool]] = {
    "digit": ("0-9", "", True),
    "xdigit": ("0-9A-Fa-f", "", True),
    "space": (" \\t\\r\\f\\v", "", True),
    "blank": (" \\t", "", True),
    "cntrl": ("\\x00-\\x09\\x0b-\\x1f\\x7f", "", True),
    "punct": ("!-/:-@\\[-`{-~", "", True),
    "upper": (_UPPER, "", False),
    "lower": (_LOWER, "", False),
    "alpha": ("", "[^\\W\\d_]", False),
    "alnum": ("", "[^\\W_]", False),
    "print": ("\\x20-\\x7e\\xa0-\\U0010ffff", "", False),
    "graph": ("\\x21-\\x7e\\xa1-\\U0010ffff", "", False),
}

# sed's numeric escapes: (base, most digits, the digits)
NUMERIC_ESCAPES = {
    "x": (16, 2, "0123456789abcdefABCDEF"), "o": (8, 3, "01234567"), "d": (10, 3, "0123456789")
}
_SED_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}

_BRACKET_ESCAPES = dict(_SED_ESCAPES, **{"\\": "\\"})

_INTERVAL_BODY = LazyRegex(r"(\d*)(,?)(\d*)")


class _Translator:
    def __init__(self, pat: str, extended: bool, mode: Mode, offset: int) -> None:
        self.p = pat
        self.n = len(pat)
        self.ere = extended
        self.mode = mode
        self.line = mode in ("line", "sedline")
        self.offset = offset
        self.safe = True
        self.groups = 0
        self.closed: set[int] = set()
        # the current branch: emitted atoms, and whether each already carries a quantifier
        self.atoms: list[str] = []
        self.quant: list[bool] = []
        self.anchor: list[bool] = []
        self.branches: list[str] = []
        self.stack: list[tuple[list[str], list[bool], list[bool], list[str], int]] = []
        self.warnings: list[str] = []
        self.bad_start = False  # a repetition of nothing, which glibc's regcomp refuses
        # top-level branches that are plain strings: (index in branches, length)
        self.nonlit = 0  # atoms of the current branch that are not a literal character
        self.literal_branches: list[int] = []

    # -- emission helpers -----------------------------------------------------
    def lit(self, ch: str) -> None:
        if ord(ch) > 127:
            self.safe = False
        self.push(re.escape(ch), literal=True)

    def push(self, atom: str, anchor: bool = False, literal: bool = False) -> None:
        if not literal:
            self.nonlit += 1
        self.atoms.append(atom)
        self.quant.append(False)
        self.anchor.append(anchor)

    def at_start(self) -> bool:
        """True where GNU treats a quantifier as having nothing to repeat."""
        return not self.atoms or (len(self.atoms) == 1 and self.atoms[0] == "^" and self.anchor[0])

    def quantify(self, q: str) -> None:
        i = len(self.atoms) - 1
        atom = self.atoms[i]
        if self.anchor[i]:
            return  # GNU ignores a repetition of an anchor
        if self.quant[i]:
            atom = "(?:" + atom + ")"
        self.nonlit += 1
        self.atoms[i] = atom + q
        self.quant[i] = True

    def end_branch(self) -> str:
        s = "".join(self.atoms)
        if not self.stack:
            self.literal_branches.append(-1 if self.nonlit else len(self.atoms))
        self.nonlit = 0
        self.atoms, self.quant, self.anchor = [], [], []
        return s

    def warn_start(self, what: str) -> None:
        """GNU grep warns about an ERE repetition with nothing to repeat."""
        if self.ere:
            self.warnings.append(f"{what} at start of expression")
            self.bad_start = True

    # -- the pass ---------------------------------------------------------------
    def run(self) -> Translated:
        p, n = self.p, self.n
        i = 0
        while i < n:
            c = p[i]
            i += 1
            if c == "\\":
                if i >= n:
                    raise RegexError("Trailing backslash")
                i = self.escape(p[i], i + 1)
                p, n = self.p, self.n  # a numeric escape may have rewritten the pattern
            elif c == "[":
                i = self.bracket(i)
            elif c == ".":
                self.safe = False
                self.push("[^\\n]" if self.line else "(?s:.)")
            elif c == "*":
                if self.at_start():
                    self.warn_start("*")
                    if not self.ere:
                        self.lit("*")
                else:
                    self.quantify("*")
            elif c == "^":
                if self.ere or not self.atoms:
                    self.push("^", anchor=True)
                else:
                    self.lit("^")
            elif c == "$":
                if self.ere or i >= n or p.startswith("\\)", i) or p.startswith("\\|", i):
                    self.push("\\Z" if self.mode == "space" else "$", anchor=True)
                else:
                    self.lit("$")
            elif self.ere and c in "+?":
                if self.at_start():
                    self.warn_start(c)
                else:
                    self.quantify(c)
            elif self.ere and c == "{":
                i = self.interval(i, ere=True)
            elif self.ere and c == "|":
                self.branches.append(self.end_branch())
            elif self.ere and c == "(":
                self.open_group()
            elif self.ere and c == ")" and self.stack:
                self.close_group()
            else:
                self.lit(c)
        if self.stack:
            raise RegexError("Unmatched ( or \\(")
        self.branches.append(self.end_branch())
        branches = self.branches
        lens = self.literal_branches
        if len(branches) > 1 and min(lens) >= 0:
            # POSIX picks the longest match, Python the first alternative that matches:
            # for plain strings, trying the longer ones first gives the POSIX answer
            order = sorted(range(len(branches)), key=lambda k: -lens[k])
            branches = [branches[k] for k in order]
        return Translated(
            "|".join(branches), self.groups, self.safe, tuple(self.warnings), self.bad_start
        )

    def open_group(self) -> None:
        self.groups += 1
        self.stack.append((self.atoms, self.quant, self.anchor, self.branches, self.groups))
        self.atoms, self.quant, self.anchor, self.branches = [], [], [], []

    def close_group(self) -> None:
        self.branches.append(self.end_branch())
        body = "|".join(self.branches)
        atoms, quant, anchor, branches, num = self.stack.pop()
        self.atoms, self.quant, self.anchor, self.branches = atoms, quant, anchor, branches
        self.closed.add(num)
        self.push("(" + body + ")")

    def escape(self, c: str, i: int) -> int:
        """Handle `\\c`; returns the index after it."""
        ere = self.ere
        if not ere and c == "(":
            self.open_group()
        elif not ere and c == ")":
            if not self.stack:
                raise RegexError("Unmatched ) or \\)")
            self.close_group()
        elif not ere and c == "|":
            self.branches.append(self.end_branch())
        elif not ere and c == "{":
            return self.interval(i, ere=False)
        elif not ere and c in "+?":
            if self.at_start():
                self.lit(c)
            else:
                self.quantify(c)
        elif c in "123456789":
            num = int(c)
            if num not in self.closed:
                raise RegexError("Invalid back reference")
            self.push(f"(?:\\{num + self.offset})")
        elif c in "wWsSbB":
            self.safe = False
            if self.line and c == "s":
                self.push("[^\\S\\n]")
            elif self.line and c == "W":
                self.push("[^\\w\\n]")
            else:
                self.push("\\" + c, anchor=c in "bB")
        elif c == "<":
            self.safe = False
            self.push("\\b(?=\\w)", anchor=True)
        elif c == ">":
            self.safe = False
            self.push("\\b(?<=\\w)", anchor=True)
        elif c == "`":
            self.push("^" if self.line else "\\A", anchor=True)
        elif c == "'":
            self.push("$" if self.line else "\\Z", anchor=True)
        elif self.mode != "line" and c in NUMERIC_ESCAPES and i < self.n and self.p[i] in NUMERIC_ESCAPES[c][2]:
            base, width, digits = NUMERIC_ESCAPES[c]
            j = i
            while j < self.n and j - i < width and self.p[j] in digits:
                j += 1
            ch = chr(int(self.p[i:j], base))
            # sed's `\xHH` `\oNNN` `\dNNN` stand for the character as if typed there
            # (GNU: `\x2e` is a `.` that matches any character)
            self.p = self.p[: i - 2] + ch + self.p[j:]
            self.n = len(self.p)
            return i - 2
        elif self.mode != "line" and c == "c" and i < self.n:
            self.lit(chr(ord(self.p[i].upper()) ^ 0x40))
            return i + 1
        elif self.mode == "sedline" and c == "n":
            self.push("(?!)")
        elif self.mode != "line" and c in _SED_ESCAPES:
            self.lit(_SED_ESCAPES[c])
        else:
            self.lit(c)
        return i

    def interval(self, i: int, ere: bool) -> int:
        """Parse `m,n}` (ERE) or `m,n\\}` (BRE) after the opening brace."""
        p = self.p
        close = "}" if ere else "\\}"
        sed = self.mode != "line"
        if self.at_start():
            if sed:  # glibc (sed) refuses what grep warns about or takes literally
                raise RegexError("Invalid preceding regular expression")
            if not ere:
                self.lit("{")  # GNU grep: `\{` with nothing before it is a literal brace
                return i
        m = _INTERVAL_BODY.match(p, i)
        assert m is not None
        lo, comma, hi = m.groups()
        end = m.end()
        if not p.startswith(close, end):
            if ere and (sed or comma and p.startswith(",", end)):
                # `{1,2,3}` for both; in sed (glibc) any `{` that starts no interval
                if sed and p.find("}", i) < 0:
                    raise RegexError("Unmatched \\{")
                raise RegexError("Invalid content of \\{\\}")
            if ere:
                self.lit("{")  # not an interval: a literal brace, as GNU does
                return i
            if end >= len(p) or p.startswith("\\", end) and end + 1 >= len(p):
                raise RegexError("Unmatched \\{")
            raise RegexError("Invalid content of \\{\\}")
        if not lo and not comma:
            if ere and not sed:
                self.lit("{")
                return i
            raise RegexError("Invalid content of \\{\\}")
        low = int(lo) if lo else 0
        high = int(hi) if hi else None
        if low > DUP_MAX or (high or 0) > DUP_MAX:
            raise RegexError("Regular expression too big")
        if high is not None and high < low:
            raise RegexError("Invalid content of \\{\\}")
        nxt = end + len(close)
        if self.at_start():
            self.warn_start("{...}")
            return nxt  # GNU: "{...} at start of expression" repeats nothing
        if not comma:
            q = f"{{{low}}}"
        elif high is None:
            q = f"{{{low},}}"
        else:
            q = f"{{{low},{high}}}"
        self.quantify(q)
        return nxt

    def bracket(self, i: int) -> int:
        p, n = self.p, self.n
        unmatched = "Unmatched [, [^, [:, [., or [="
        negated = i < n and p[i] == "^"
        if negated:
            i += 1
        if i >= n:
            raise RegexError("Invalid regular expression")  # GNU's word for a final `[`
        start = i
        plain = True  # no class or range: `[:alpha:]` is then GNU's error
        members: list[str] = []
        extras: list[str] = []
        first = True
        while True:
            if i >= n:
                raise RegexError(unmatched)
            c = p[i]
            if c == "]" and not first:
                i += 1
                break
            first = False
            if c == "[" and i + 1 < n and p[i + 1] in ":.=":
                plain = False
                kind = p[i + 1]
                end = p.find(kind + "]", i + 2)
                if end < 0:
                    raise RegexError(unmatched)
                name = p[i + 2 : end]
                i = end + 2
                if kind == ":":
                    cls = _CLASSES.get(name)
                    if cls is None:
                        raise RegexError("Invalid character class name")
                    chars, extra, safe = cls
                    if name in ("space", "cntrl") and not self.line:
                        chars += "\\n"
                    members.append(chars)
                    if extra:
                        extras.append(extra)
                    self.safe = self.safe and safe
                    if i + 1 < n and p[i] == "-" and p[i + 1] != "]":
                        raise RegexError("Invalid range end")  # `[[:alpha:]-z]`
                    continue
                if len(name) != 1:
                    raise RegexError("Invalid collation character")
                lo = name
            else:
                lo = c
                i += 1
                if c == "\\" and self.mode != "line" and i < n and p[i] in _BRACKET_ESCAPES:
                    lo = _BRACKET_ESCAPES[p[i]]  # GNU sed: `[\n]` is a newline, `[\\n]` not
                    i += 1
                    if lo == "\n" and self.mode == "sedline":
                        continue  # one line per pattern space: a newline never matches
            if i + 1 < n and p[i] == "-" and p[i + 1] != "]":
                plain = False
                hi = p[i + 1]
                i += 2
                if hi == "[" and i < n and p[i] in ".=":
                    end = p.find(p[i] + "]", i + 1)
                    if end < 0:
                        raise RegexError(unmatched)
                    hi = p[i + 1 : end]
                    i = end + 2
                    if len(hi) != 1:
                        raise RegexError("Invalid collation character")
                if ord(hi) < ord(lo):
                    raise RegexError("Invalid range end")
                if ord(hi) > 127:
                    self.safe = False
                members.append(re.escape(lo) + "-" + re.escape(hi))
            else:
                if ord(lo) > 127:
                    self.safe = False
                members.append(re.escape(lo))
        content = p[start : i - 1]
        if plain and content[0] == ":" and content[-1] == ":" and content.strip(":"):
            raise RegexError("character class syntax is [[:space:]], not [:space:]")
        body = "".join(members)
        if negated:
            self.safe = False
            any_char = "[^\\n]" if self.line else "(?s:.)"
            if not extras:
                nl = "\\n" if self.line else ""
                self.push(f"[^{body}{nl}]" if body or nl else any_char)
            else:
                alts = ([f"[{body}]"] if body else []) + extras
                self.push(f"(?:(?!{'|'.join(alts)}){any_char})")
        else:
            alts = ([f"[{body}]"] if body else []) + extras
            if not alts:
                self.push("(?!)")  # only members that can never match (sed's `[\\n]`)
            else:
                self.push(alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")")
        return i


def translate(
    pattern: str, *, extended: bool = False, mode: Mode = "line", group_offset: int = 0
) -> Translated:
    """Translate one POSIX pattern (BRE, or ERE when `extended`) to Python `re` syntax.

    `group_offset` renumbers back-references for a pattern that will be joined after
    others defining that many groups. Raises RegexError with GNU's message."""
    return _Translator(pattern, extended, mode, group_offset).run()


# PCRE's `\K` ("keep out": what matched so far is not part of the match), which Python's
# re lacks: `A\KB` becomes `(?:A)(?P<KEEP_OUT>B)`, and grep prints that group with -o.
KEEP_OUT = "tysh_keep_out"


def _keep_out(pattern: str) -> str:
    at: list[int] = []
    depth = 0
    in_class = False
    alternation = False
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            if pattern[i + 1] == "K" and not in_class:
                at.append(i if depth == 0 else -1)
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if pattern[i + 1 : i + 2] == "]" or pattern[i + 1 : i + 3] == "^]":
                i += 2 if pattern[i + 1] == "]" else 3  # a leading ] is a member
                continue
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            alternation = True
        i += 1
    if not at:
        return pattern
    if len(at) > 1 or at[0] < 0 or alternation:
        raise RegexError("\\K is supported once, outside groups and alternatives")
    k = at[0]
    return f"(?:{pattern[:k]})(?P<{KEEP_OUT}>{pattern[k + 2:]})"


# PCRE's POSIX classes (ASCII, as GNU grep -P runs PCRE without UCP)
_PERL_CLASSES = {
    "alpha": "A-Za-z", "alnum": "0-9A-Za-z", "upper": "A-Z", "lower": "a-z", "digit": "0-9",
    "xdigit": "0-9A-Fa-f", "space": " \\t\\n\\r\\f\\v", "blank": " \\t",
    "cntrl": "\\x00-\\x1f\\x7f", "punct": "!-/:-@\\[-`{-~", "print": "\\x20-\\x7e",
    "graph": "\\x21-\\x7e", "word": "\\w",
}


_PCRE_WORDING = {
    "missing ), unterminated subpattern": "missing closing parenthesis",
    "unterminated character set": "missing terminating ] for character class",
    "unbalanced parenthesis": "unmatched closing parenthesis",
    "nothing to repeat": "quantifier does not follow a repeatable item",
    "multiple repeat": "quantifier does not follow a repeatable item",
}


def _pcre_message(e: re.error) -> str:
    """Python's message for a bad -P pattern, in PCRE's words where they are known."""
    return _PCRE_WORDING.get(e.msg, str(e))


def _perl_classes(pattern: str) -> str:
    """PCRE's POSIX classes inside brackets (`[[:alpha:]_]`), which Python's re lacks."""
    if "[:" not in pattern:
        return pattern
    out: list[str] = []
    i, n = 0, len(pattern)
    in_class = False
    while i < n:
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if in_class and pattern.startswith("[:", i):
            end = pattern.find(":]", i + 2)
            chars = _PERL_CLASSES.get(pattern[i + 2 : end]) if end > 0 else None
            if chars is None and end > 0 and pattern[i + 2 : end].isalpha():
                raise RegexError("unknown POSIX class name")
            if chars is not None:
                out.append(chars)
                i = end + 2
                continue
        out.append(c)
        i += 1
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            for lead in ("^", "]"):  # a leading `]` (after an optional `^`) is a member
                if pattern.startswith(lead, i):
                    out.append(lead)
                    i += 1
    return "".join(out)


def translate_kind(pattern: str, kind: Kind, mode: Mode = "line", offset: int = 0) -> Translated:
    """Translate a pattern of any kind grep accepts (`fixed` and `perl` included)."""
    if kind == "fixed":
        return Translated(re.escape(pattern), 0, pattern.isascii())
    if kind == "perl":
        pattern = _keep_out(_perl_classes(pattern))
        try:
            with warnings.catch_warnings():  # never a Python warning on the user's stderr
                warnings.simplefilter("ignore")
                c = re.compile(pattern)
        except re.error as e:
            raise RegexError(_pcre_message(e)) from None
        return Translated(pattern, c.groups, False)
    return translate(pattern, extended=kind == "ere", mode=mode, group_offset=offset)


_SPECIAL_BRE = LazyRegex(r"[\\\[.*^$]")
_SPECIAL_ERE = LazyRegex(r"[\\\[.*^$+?{}()|]")


def compile_patterns(
    patterns: tuple[str, ...],
    kind: Kind = "bre",
    *,
    ignore_case: bool = False,
    word: bool = False,
    line: bool = False,
    mode: Mode = "line",
) -> Compiled:
    """Compile several patterns as one alternation (grep's `-e a -e b`), wrapped for
    `-w`/`-x`; bytes when that means the same as text, else str. Cached."""
    return _compile_patterns(patterns, kind, ignore_case, word, line, mode)


@bounded_memo(256)
def _compile_patterns(patterns: tuple[str, ...], kind: Kind, ignore_case: bool, word: bool,
                      line: bool, mode: Mode) -> Compiled:
    parts: list[str] = []
    groups = 0
    safe = True
    notes: list[str] = []  # GNU warnings about the patterns
    special = None if kind == "fixed" else _SPECIAL_BRE if kind == "bre" else _SPECIAL_ERE
    literal = kind != "perl"
    for pat in patterns:
        t = translate_kind(pat, kind, mode, groups)
        groups += t.groups
        safe = safe and t.ascii_safe and (pat.isascii() or not ignore_case)
        parts.append(t.source)
        notes.extend(t.warnings)
        literal = literal and (special is None or special.search(pat) is None)
    if literal and len(parts) > 1:
        # several plain strings: longest first, so a match is POSIX's longest (`-o`)
        order = sorted(range(len(parts)), key=lambda k: -len(patterns[k]))
        parts = [parts[k] for k in order]
    if not parts:
        body = "(?!)"
    elif len(parts) == 1:
        body = parts[0]
    else:
        if any(KEEP_OUT in s for s in parts):
            raise RegexError("\\K works with a single -P pattern")
        body = "|".join(f"(?:{s})" for s in parts)
    inner = body
    if line:
        body = f"^(?:{body})$"
    elif word:
        # on bytes, a non-ASCII byte is part of a (letter) character: a word constituent
        w = "[\\w\\x80-\\xff]" if safe else "\\w"
        body = f"(?<!{w})(?:{body})(?!{w})"
    flags = re.MULTILINE if mode != "space" else 0
    if ignore_case:
        flags |= re.IGNORECASE
    regex = _compile(body, flags, safe)
    prefilter: engine.Pattern | None = None
    lower = False
    if safe and ignore_case and not re.search(r"\\[A-Za-z]", inner):
        try:
            prefilter = engine.compile(inner.lower().encode(), flags & ~re.IGNORECASE)
            lower = True
        except re.error:
            prefilter = None
    if prefilter is None and (line or word):
        prefilter = _compile(inner, flags, safe)
    return Compiled(
        regex, not safe, min_width(regex), prefilter, lower, line or word, tuple(notes)
    )


def _compile(source: str, flags: int, as_bytes: bool) -> engine.Pattern:
    try:
        if as_bytes:
            return engine.compile(source.encode("utf-8", "surrogateescape"), flags)
        return engine.compile(source, flags)
    except re.error as e:  # a construct the translation let through; report, never crash
        raise RegexError(f"Invalid regular expression ({e})") from None
    except (OverflowError, RecursionError):
        raise RegexError("Regular expression too big") from None


def min_width(regex: engine.Pattern) -> int:
    """The fewest characters a match of `regex` can span (0 when unknown): a pattern
    that cannot match empty needs no special case for empty matches."""
    try:
        from re import _parser  # type: ignore[attr-defined,unused-ignore]

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lo: int = _parser.parse(regex.pattern, regex.flags).getwidth()[0]
        return lo
    except Exception:  # noqa: BLE001 - private API; 0 is always a safe answer
        return 0


@bounded_memo(256)
def compile_text(pattern: str, extended: bool, ignore_case: bool, mode: Mode) -> engine.Pattern:
    """Compile one pattern for matching decoded text (sed's pattern space). Cached."""
    t = translate(pattern, extended=extended, mode=mode)
    if t.bad_start:  # what grep warns about or takes literally, glibc's regcomp (sed's) rejects
        raise RegexError("Invalid preceding regular expression")
    flags = re.MULTILINE if mode != "space" else 0
    if ignore_case:
        flags |= re.IGNORECASE
    try:
        return engine.compile(t.source, flags)
    except re.error as e:
        raise RegexError(f"Invalid regular expression ({e})") from None
    except (OverflowError, RecursionError):
        raise RegexError("Regular expression too big") from None


def validate(pattern: str, kind: Kind = "bre") -> str | None:
    """The GNU error message for an invalid pattern, or None when it is valid."""
    try:
        compile_patterns((pattern,), kind)
    except RegexError as e:
        return e.message
    return None
