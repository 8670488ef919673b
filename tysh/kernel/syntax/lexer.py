"""The shell lexer: source text → Lark tokens for the LALR grammar in `grammar/tysh.lark`.

Shell tokenisation cannot be described by context-free token patterns: whether `if` is a
reserved word depends on command position, `)` may close a subshell, a case pattern or a
`$( )`, `<` compares strings inside `[[ ]]`, a here-document body begins after the end of
the line, and quoting nests arbitrarily (`"${x:-"$(echo ")")"}"`). So this module scans by
hand, keeping the little state bash keeps (command position, case pattern position, `[[`
operand position), and hands the parser tokens whose payload is already an AST fragment:

- WORD carries an `ast.Word` split into parts (Lit / Quoted / DQ / ParamExp / CmdSub /
  ArithSub / ProcSub). `$( )`, backtick and `<( )` bodies are parsed recursively through
  the same grammar; a backtick substitution is a CmdSub like `$( )`.
- ASSIGN / DECL_ASSIGN carry an `ast.Assign` (DECL_ASSIGN also the argument's Word).
- REDIR carries a complete `ast.Redirect`, here-document bodies included.
- ARITH_CMD / ARITH_FOR carry the arithmetic text as Words (the runtime evaluates it).

Scanning uses compiled regular expressions for runs of ordinary characters so that the
per-character Python work is limited to quotes, `$` and operators.
"""

from __future__ import annotations

from bisect import bisect_right

from tysh.kernel.base.errors import TyshSyntaxError
from tysh.kernel.base.hints import Any
from tysh.kernel.base.lazyre import DOTALL, LazyRegex
from tysh.kernel.syntax import ast
from tysh.kernel.syntax.ast import DQ, Assign, Lit, ParamExp, Pos, Quoted, Redirect, Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Iterator, Mapping
    from typing import Literal, overload

# ---------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------


# A token is a plain tuple (type, value, start offset, end offset): cheap to build, and
# the parser driver only ever looks at the type and hands the value to the tree builder.
# value: an AST fragment for WORD/ASSIGN/DECL_ASSIGN/REDIR/ARITH_*, the source position
# (ast.Pos) for tokens that start a node (see _POS_TYPES), else the token's text.
Tok = tuple[str, Any, int, int]

# Tokens whose value is their ast.Pos, because the node they start needs a position.
_POS_TYPES = frozenset({"IF", "WHILE", "UNTIL", "FOR", "CASE", "FUNCTION", "LBRACE", "LPAREN",
                        "BANG", "DBRACK_OPEN", "PIPE_AMP", "TIME"})


RESERVED: dict[str, str] = {
    "if": "IF",
    "then": "_THEN",
    "else": "_ELSE",
    "elif": "ELIF",
    "fi": "_FI",
    "do": "_DO",
    "done": "_DONE",
    "case": "CASE",
    "esac": "_ESAC",
    "while": "WHILE",
    "until": "UNTIL",
    "for": "FOR",
    "function": "FUNCTION",
    "{": "LBRACE",
    "}": "_RBRACE",
    "!": "BANG",
    "time": "TIME",
    "[[": "DBRACK_OPEN",
}

# After these reserved words a new command starts (so reserved words and assignments are
# recognised again).
_OPENS_COMMAND = frozenset({"IF", "_THEN", "_ELSE", "ELIF", "_DO", "WHILE", "UNTIL", "LBRACE", "BANG",
                            "TIME"})

# The reserved words that only open or close a command (no state beyond that): `tokens`
# reads them inline.
_PLAIN_RESERVED = frozenset({"IF", "_THEN", "_ELSE", "ELIF", "_FI", "_DO", "_DONE", "WHILE",
                             "UNTIL", "LBRACE", "_RBRACE", "BANG", "TIME"})

_UNSUPPORTED_WORDS = {
    "select": "'select' is not supported: use a 'for' or 'while read' loop",
    "coproc": "'coproc' is not supported: use a pipeline or '&' and 'wait'",
}

# Commands whose arguments may be assignments (`declare a=(1 2)`; bash reads `let x=( 1 )`
# the same way).
DECLARATION_COMMANDS = frozenset({"declare", "typeset", "local", "export", "readonly", "let"})

COND_UNARY_OPS = frozenset(
    "-a -b -c -d -e -f -g -h -k -p -r -s -t -u -w -x -G -L -N -O -S -z -n -o -v -R".split()
)
COND_BINARY_OPS = frozenset(
    "== = != =~ < > -eq -ne -lt -le -gt -ge -nt -ot -ef".split()
)

# ---------------------------------------------------------------------------
# Regular expressions
# ---------------------------------------------------------------------------

# Characters that may start something other than an ordinary word (digits: `2>file`).
# (`{`: `{fd}>file`)
_SLOW_START = frozenset(" \t\n#;|&()<>'\"\\$`0123456789{")
# The operators and the newline that `tokens` reads inline in the ordinary state: the
# two-character ones, and each one-character one with what would make it longer.
_OP_START = frozenset("\n;|&")
_TWO_OPS = {"&&": "AND_IF", "||": "OR_IF"}
_ONE_OPS = {"\n": ("_NL", ""), ";": ("_SEMI", ";&"), "|": ("PIPE", "|&"), "&": ("_AMP", "&>")}
# The blanks `tokens` steps over itself before a token in the ordinary state (else _next
# skips them).
_STEP_BLANKS = " \t\\"
# Whether `tokens` ends a scanner that is not nested at the end of its text in the ordinary
# state itself, as _next would (the tests turn it off to compare).
_END_INLINE = True
# (`a<(cmd)` is one word: `<(` and `>(` continue it, and so does the `(` of an extended
# pattern, `x@(a|b)`)
_SIMPLE_WORD = LazyRegex(
    r"[^ \t\n|&;()<>'\"\\$`]++(?=[ \t\n|&;)]|(?<![?*+@!])\(|[<>](?!\()|\Z)")
# A word of plain runs, '…', "…" holding only text and `$name`/`${name}`, and
# `$name`/`${name}`, ending where every word ends: what `tokens` reads inline beyond
# the plain words (`_quick_parts` splits it into parts as scan_word would). A `$name`
# may also be a digit's or a special parameter's (`$1`, `$?`, `"$@"`): one character.
# An arithmetic expansion of one line of ordinary text and parentheses nested once
# (`$((i+1))`, `$(( (a+b)*2 ))`), ending at the `))` scan_arith ends it at, is one too.
_QUICK_WORD = LazyRegex(
    r"(?:[^ \t\n|&;()<>'\"\\$`]++|'[^']*+'"
    r'|"(?:[^"\\$`]++|\$(?:[A-Za-z_][A-Za-z0-9_]*+|[0-9@*#?$!-]|\{[A-Za-z_][A-Za-z0-9_]*+\}))*+"'
    r"|\$(?:[A-Za-z_][A-Za-z0-9_]*+|[0-9@*#?$!-]|\{[A-Za-z_][A-Za-z0-9_]*+\}"
    r"|\(\((?:[^()$\"'\\`\n]++|\([^()$\"'\\`\n]*+\))*+\)\)))++"
    r"(?=[ \t\n|&;)]|[<>](?!\()|\Z)")
_QUICK_SEGMENT = LazyRegex(
    r"""([^'"$]+)|'([^']*)'|"([^"]*)"|\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])"""
    r"""|\$\{([A-Za-z_][A-Za-z0-9_]*)\}"""
    r"""|\$\(\(((?:[^()$"'\\`\n]|\([^()$"'\\`\n]*\))*)\)\)""")
# Inside "…" of such a word: text, $name (or a digit or special parameter), ${name}.
_QUICK_DQ_SEGMENT = LazyRegex(
    r"""([^$]+)|\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])|\$\{([A-Za-z_][A-Za-z0-9_]*)\}""")
# A redirection to a plain word (`>out`, `2>&1`, `< in`), read inline by `tokens`: the
# fd, the operator, and the target (which ends as a plain word ends).
_QUICK_REDIR = LazyRegex(
    r"([0-9]?)(>>|>&|>|<&|<)[ \t]*([^ \t\n|&;()<>'\"\\$`]+)(?=[ \t\n|&;)]|\Z)")
_BLANK_LINES = LazyRegex(r"(?:[ \t]*(?:#[^\n]*)?\n)*")
_BLANKS = LazyRegex(r"(?:[ \t]+|\\\n)*")
_COMMENT_TO_EOL = LazyRegex(r"[^\n]*")
_NAME = LazyRegex(r"[A-Za-z_][A-Za-z0-9_]*")
_DIGITS = LazyRegex(r"[0-9]+")
_ASSIGN_HEAD = LazyRegex(r"([A-Za-z_][A-Za-z0-9_]*)(\[|\+?=)")
_REDIR_OP = LazyRegex(r"([0-9]*)(&>>|&>|<<<|<<-|<<|<>|<&|<|>>|>&|>\||>)")
_FD_VAR = LazyRegex(r"\{([A-Za-z_][A-Za-z0-9_]*)\}(?=[<>])")
_OPERATOR = LazyRegex(r";;&|;;|;&|;|\|\||\|&|\||&&|&|\(|\)")
_FUNC_PARENS = LazyRegex(r"[ \t]*\([ \t]*\)")
_ANSI_BODY = LazyRegex(r"(?:[^'\\]|\\.)*'", DOTALL)
_ANSI_ESCAPE = LazyRegex(
    r"\\(?:x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8})|([0-7]{1,3})|c(.)|(.))",
    DOTALL,
)
_ANSI_SIMPLE = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}

# Word-scanning modes: which characters end a word, and the regex for a run of characters
# that need no attention in that mode.
M_WORD = 0  # an ordinary word: ends at blanks and shell metacharacters
M_REGEX = 1  # the right side of =~ : ( ) | are part of the word
M_ARG = 2  # inside ${x…}: ends at }
M_ARG_SLASH = 3  # the pattern of ${x/p/r}: ends at / or }
M_ARG_COLON = 4  # the offset of ${x:o:l}: ends at : or }
M_SUBSCRIPT = 5  # a[…]: ends at the ] that closes it (`a[b[1]]`)
M_EXTGLOB = 6  # inside `@(…)` and the other extended patterns: ends at the closing )

_PLAIN = {
    M_WORD: LazyRegex(r"[^ \t\n|&;()<>'\"\\$`]+"),
    M_REGEX: LazyRegex(r"[^ \t\n|&;()<>'\"\\$`]+"),
    M_ARG: LazyRegex(r"[^}'\"\\$`]+"),
    M_ARG_SLASH: LazyRegex(r"[^/}'\"\\$`]+"),
    M_ARG_COLON: LazyRegex(r"[^:}'\"\\$`]+"),
    M_SUBSCRIPT: LazyRegex(r"[^\[\]'\"\\$`]+"),
    M_EXTGLOB: LazyRegex(r"[^()'\"\\$`]+"),
}
_STOP = {
    M_WORD: " \t\n|&;()<>",
    M_REGEX: " \t\n&;<>)",
    M_ARG: "}",
    M_ARG_SLASH: "/}",
    M_ARG_COLON: ":}",
    M_SUBSCRIPT: "]",
    M_EXTGLOB: ")",
}
_EXTGLOB_OPS = frozenset("?*+@!")
_DQ_PLAIN = LazyRegex(r"[^\"\\$`]+")
_HEREDOC_PLAIN = LazyRegex(r"[^\\$`]+")
_DQ_ESCAPABLE = frozenset('"\\$`')
_DQ_OPERAND_PLAIN = LazyRegex(r"[^}'\"\\$`]+")
_DQ_OPERAND_ESCAPABLE = frozenset('"\\$`}')
_HEREDOC_ESCAPABLE = frozenset("\\$`")
_ARITH_PLAIN = LazyRegex(r"[^()$\"'\\`]+")
_ARITH_BRACKET_PLAIN = LazyRegex(r"[^()\[\]$\"'\\`]+")
_BACKTICK_STOP = LazyRegex(r"[\\`]")

_PARAM_OPS = (":-", ":=", ":?", ":+", "-", "=", "?", "+", "##", "#", "%%", "%", "//", "/#", "/%", "/",
              "^^", "^", ",,", ",", ":")
_SPECIAL_PARAMS = "@*#?$!-"
_TRANSFORMS = "QEULuPaAKk"
_DEFAULT_FAMILY = frozenset((":-", ":=", ":+", "-", "=", "+"))

MAX_NESTING = 64
# How much alias expansion may add to the text one scanner reads, and how much text its
# splices may copy in all (aliases whose texts end in blanks can double a command with
# each one: this ends such a command in a second or so).
MAX_ALIAS_GROWTH = 1 << 20
MAX_ALIAS_COPY = 1 << 30


# ---------------------------------------------------------------------------
# Source bookkeeping
# ---------------------------------------------------------------------------


class Source:
    """The text being scanned and its line starts, shared by nested scanners for positions.

    A text with aliases spliced in (`spliced`) finds its line starts as they are needed
    (`seen`: every start before it is known), so an expansion costs a copy of the text,
    not a pass over its lines in Python; the newlines of the spliced texts (`hidden`)
    start no line."""

    __slots__ = ("text", "line_starts", "line_offset", "parse_sub", "seen", "hidden")

    def __init__(
        self,
        text: str,
        parse_sub: Callable[[Scanner], ast.Script],
        line_offset: int = 0,
        col_offset: int = 0,
    ) -> None:
        self.text = text
        # (a text that starts mid-line, such as a backtick body, numbers the columns of its
        # first line from `col_offset`)
        starts = [-col_offset]
        find = text.find
        i = find("\n")
        while i >= 0:
            starts.append(i + 1)
            i = find("\n", i + 1)
        self.line_starts = starts
        self.line_offset = line_offset
        self.parse_sub = parse_sub
        self.seen = len(text) + 1
        self.hidden: tuple[tuple[int, int], ...] = ()

    def spliced(self, start: int, end: int, value: str) -> Source:
        """A copy with `text[start:end]` replaced by `value` (an alias's text, read in place
        of its name as bash reads it). Line numbers stay those of the original text: the
        value's own newlines start no new line number."""
        self._cover(start + 1)
        new = Source.__new__(Source)
        new.text = self.text[:start] + value + self.text[end:]
        delta = len(value) - (end - start)
        new.line_starts = self.line_starts[:bisect_right(self.line_starts, start)]
        new.seen = start + 1
        # (the spliced texts that end before `start` are behind `seen` for good)
        hidden = [(a, b + delta) if a <= start else (a + delta, b + delta)
                  for a, b in self.hidden if b > start]
        hidden.append((start, start + len(value)))
        new.hidden = tuple(hidden)
        new.line_offset = self.line_offset
        new.parse_sub = self.parse_sub
        return new

    def _cover(self, upto: int) -> None:
        """Know every line start before `upto`."""
        seen = self.seen
        if seen >= upto:
            return
        text = self.text
        starts = self.line_starts
        hidden = self.hidden
        k = text.find("\n", seen - 1, upto - 1)
        while k >= 0:
            if not any(a <= k < b for a, b in hidden):
                starts.append(k + 1)
            k = text.find("\n", k + 1, upto - 1)
        self.seen = upto

    def line_at(self, offset: int) -> tuple[int, int]:
        """The 1-based line number of a character offset, and where that line starts."""
        if offset >= self.seen:
            self._cover(offset + 1)
        ln = bisect_right(self.line_starts, offset)
        return ln + self.line_offset, self.line_starts[ln - 1]

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset."""
        if offset >= self.seen:
            self._cover(offset + 1)
        starts = self.line_starts
        ln = bisect_right(starts, offset)
        return ln + self.line_offset, offset - starts[ln - 1] + 1

    def pos(self, offset: int) -> ast.Pos:
        """The Pos of a character offset (line_col's, made as Pos's __init__ makes it:
        this is called for most nodes the lexer makes)."""
        if offset >= self.seen:
            self._cover(offset + 1)
        starts = self.line_starts
        ln = bisect_right(starts, offset)
        p = _new(Pos)
        p.line = ln + self.line_offset
        p.col = offset - starts[ln - 1] + 1
        return p  # type: ignore[no-any-return]

    def line_text(self, line: int) -> str:
        """The text of a 1-based line (relative to this source), without its newline."""
        self._cover(len(self.text) + 1)
        idx = line - self.line_offset - 1
        if idx < 0 or idx >= len(self.line_starts):
            return ""
        start = max(self.line_starts[idx], 0)
        end = self.text.find("\n", start)
        return self.text[start:] if end < 0 else self.text[start:end]

    def error(self, message: str, offset: int, *, incomplete: bool = False) -> TyshSyntaxError:
        ln, col = self.line_col(offset)
        return TyshSyntaxError(message, ln, col, self.line_text(ln), incomplete=incomplete)


class _Parts:
    """Accumulates word parts, merging adjacent Lit and adjacent Quoted text."""

    __slots__ = ("parts", "kind", "buf")

    def __init__(self) -> None:
        self.parts: list[ast.WordPart] = []
        self.kind = 0  # 0 nothing pending, 1 Lit pending, 2 Quoted pending
        self.buf: list[str] = []

    def flush(self) -> None:
        # (the Lit or Quoted made with its __init__'s store, without the call)
        kind = self.kind
        if kind:
            node = _new(Lit if kind == 1 else Quoted)
            node.text = "".join(self.buf)
            self.parts.append(node)
            self.kind = 0
            self.buf = []

    def lit(self, text: str) -> None:
        if self.kind != 1:
            self.flush()
            self.kind = 1
        self.buf.append(text)

    def quoted(self, text: str) -> None:
        if self.kind != 2:
            self.flush()
            self.kind = 2
        self.buf.append(text)

    def part(self, p: ast.WordPart) -> None:
        self.flush()
        self.parts.append(p)

    def done(self) -> tuple[ast.WordPart, ...]:
        self.flush()
        return tuple(self.parts)

    def empty(self) -> bool:
        return not self.parts and self.kind == 0


class _PendingHeredoc:
    """A `<<DELIM` seen on the current line whose body starts after the line's newline."""

    __slots__ = ("delim", "quoted", "strip_tabs", "fd", "op", "redirect", "offset", "fd_var")

    def __init__(self, delim: str, quoted: bool, strip_tabs: bool, fd: int | None, op: str,
                 offset: int, fd_var: str | None) -> None:
        self.delim = delim
        self.quoted = quoted
        self.strip_tabs = strip_tabs
        self.fd = fd
        self.op = op
        self.offset = offset
        self.fd_var = fd_var
        self.redirect: ast.Redirect | None = None


# Case-context states (one entry per open `case … in`).
_CASE_PATTERN = 0  # reading patterns up to `)`
_CASE_BODY = 1  # reading the commands of an item

# [[ ]] operand states.
_C_OPERAND = 1  # expecting an operand, `!` or `(`
_C_UNOP_ARG = 2  # after a unary operator: the next word is its operand
_C_AFTER = 3  # after an operand: a binary operator, && || ) or ]]
_C_BINOP_ARG = 4  # after a binary operator: the next word is its right side
_C_REGEX_ARG = 5  # after =~ : the next word is a regex

# Pending word roles.
_P_NONE = 0
_P_FOR_NAME = 1
_P_FOR_AFTER_NAME = 2
_P_CASE_WORD = 3
_P_CASE_IN = 4
_P_FUNC_NAME = 5


def _line_span(src: Source, text: str, n: int, lazy: bool, line_offset: int,
               i: int) -> tuple[int, int, int]:
    """The line holding offset `i` as the token loop caches it: its number, where it
    starts and where the next one starts (past the scanner's end `n` for the last).
    `lazy`: the line starts are found as needed (alias text was spliced into `text`)."""
    if lazy:
        line, start = src.line_at(i)
        nl = text.find("\n", i)
        return line, start, n + 1 if nl < 0 else nl + 1
    starts = src.line_starts
    ln = bisect_right(starts, i)
    return ln + line_offset, starts[ln - 1], starts[ln] if ln < len(starts) else n + 1


class Scanner:
    """Scans one token stream: a whole script, or the body of a `$( )` (`nested`).

    A nested scanner stops at the `)` that closes its `$(`, leaving `end_offset` just past it.
    (Slotted: a scanner is made per parse and per `$( )`, and its state is read per token.)
    """

    __slots__ = ("src", "text", "n", "i", "nested", "open_offset", "depth", "end_offset",
                 "close_offset", "cmd_pos", "assign_ok", "decl", "kw_only", "no_reserved",
                 "pending", "case_stack", "pat_start", "paren_depth", "cond", "heredocs",
                 "last_offset", "aliases", "alias_regions", "alias_next", "shift", "copied",
                 "_queue")

    def __init__(self, src: Source, start: int = 0, *, nested: bool = False,
                 open_offset: int = 0, depth: int = 0,
                 aliases: Mapping[str, str] | None = None) -> None:
        self.src = src
        self.text = src.text
        self.n = len(src.text)
        self.i = start
        self.nested = nested
        self.open_offset = open_offset
        self.depth = depth
        self.end_offset = -1
        self.close_offset = -1  # where the closing ) of a nested scanner is
        # command-position state
        self.cmd_pos = True
        self.assign_ok = True
        self.decl = False
        # after a compound command's closing word or parenthesis: a reserved word may
        # follow (`if { a; } then`, `while (b) do`), but not a command name
        self.kw_only = False
        # after an assignment or redirection before the command name: that name is never
        # a reserved word (`x=1 for` runs a command named for, as in bash)
        self.no_reserved = False
        self.pending = _P_NONE
        self.case_stack: list[int] = []
        self.pat_start = False
        self.paren_depth = 0
        self.cond = 0
        self.heredocs: list[_PendingHeredoc] = []
        self.last_offset = start
        # Aliases (bash's, read at lex time): the table in force, or None; the text each
        # expansion spliced in, as [name, start, end]; where an expansion ending in a
        # blank ends (the next word may be an alias too); and how much longer the text
        # has grown (a nested scanner's end, in its parent's text, is end_offset - shift).
        self.aliases = aliases or None
        self.alias_regions: list[list[Any]] = []
        self.alias_next: list[int] = []
        self.shift = 0
        self.copied = 0
        # The scanner sometimes produces two tokens at once (FUNCNAME + FUNC_PARENS, FOR +
        # ARITH_FOR); the second waits here.
        self._queue: Tok | None = None

    # -- helpers -------------------------------------------------------------------

    def _tok(self, type_: str, start: int, end: int, value: Any = None) -> Tok:
        if value is None:
            value = self.src.pos(start) if type_ in _POS_TYPES else self.text[start:end]
        return (type_, value, start, end)

    def error(self, message: str, offset: int, *, incomplete: bool = False) -> TyshSyntaxError:
        return self.src.error(message, offset, incomplete=incomplete)

    def _new_command(self) -> None:
        self.cmd_pos = True
        self.assign_ok = True
        self.decl = False
        self.kw_only = False
        self.no_reserved = False

    def _after_compound(self) -> None:
        """A compound command just closed: only a reserved word may start here."""
        self.cmd_pos = True
        self.assign_ok = False
        self.kw_only = True

    # -- the token stream ------------------------------------------------------------

    def tokens(self) -> Iterator[Tok]:
        """Yield tokens; lines with here-documents are held back until their bodies are read.

        The loop handles the commonest token, an ordinary word in an ordinary place, inline
        (with the line/column lookup cached per line); everything else goes through _next.
        """
        held: list[Tok] = []
        text = self.text
        n = self.n
        simple = _SIMPLE_WORD.match
        line_offset = self.src.line_offset
        cur_start = cur_next = 0
        cur_line = 0
        lazy = False  # line starts found as needed (alias text was spliced in)
        aliasing = self.aliases or _NO_ALIASES  # (fixed for the life of a scanner)
        # Nodes made here are made as their __init__ would make them (a value record's
        # __init__ only stores its fields), without the call: calling a class whose
        # __init__ is Python code costs about half again what object.__new__ and the
        # stores cost (see tests/unit/syntax/test_parser_fast_paths.py).
        new: Any = object.__new__  # (what it makes is filled in as __init__ would)
        new_pos = Pos
        new_word = Word
        lit_cache = _LIT_CACHE
        reserved = RESERVED
        unsupported = _UNSUPPORTED_WORDS
        decl_cmds = DECLARATION_COMMANDS
        next_tok = self._next
        slow_start = _SLOW_START
        op_start = _OP_START
        two_ops = _TWO_OPS
        one_ops = _ONE_OPS
        plain_reserved = _PLAIN_RESERVED
        opens_command = _OPENS_COMMAND
        pos_types = _POS_TYPES
        step_blanks = _STEP_BLANKS
        quick_start = "'\"$"
        redir_start = "<>0123456789{"
        quick_redir = _QUICK_REDIR.match
        quick_word = _QUICK_WORD.match
        assign_head = _ASSIGN_HEAD.match
        end_inline = _END_INLINE
        # Whether the scanner is in the ordinary state the inline paths read: only _next
        # (and the here-document reading after it) leaves it or comes back to it, so it
        # is found again after each token _next reads. (The commands of a case item are
        # read as any others: only its patterns are not.)
        ordinary = not (self.heredocs or self.cond or self.pending
                        or self.case_stack and self.case_stack[-1] == _CASE_PATTERN
                        or aliasing and self.alias_next)
        while True:
            if ordinary:
                i = self.i
                if i < n and text[i] in step_blanks:
                    # spaces (one between two words, or an indentation) are stepped over
                    # here; a tab or a backslash-newline among them leaves the rest to
                    # _BLANKS, which ends where it would from the first blank
                    while text[i] == " ":
                        i += 1
                        if i == n:
                            break
                    else:
                        if text[i] in "\t\\":
                            i = _skip(_BLANKS, text, i)
                    self.i = i
                elif i >= n and end_inline and not self.nested:
                    return  # (where _next would find the end: no here-document is pending)
                m = None
                quick = False
                if i < n:
                    c = text[i]
                    if c not in slow_start:
                        m = simple(text, i)
                        quick = m is None
                    elif c in quick_start:
                        quick = True
                    elif c in redir_start:
                        # `>out`, `2>&1`, `< in`, as _next and _redirect read them
                        rm = quick_redir(text, i)
                        if rm is not None:
                            if self.cmd_pos and not self.kw_only:
                                self.no_reserved = True
                            end = rm.end()
                            self.i = end
                            if not cur_start <= i < cur_next:
                                cur_line, cur_start, cur_next = _line_span(
                                    self.src, text, n, lazy, line_offset, i)
                            fd_text, op, target = rm.groups()
                            node = lit_cache.get(target)
                            if node is None:
                                node = _lit(target)
                            j = rm.start(3)
                            yield ("REDIR", Redirect(
                                op, new_word((node,), new_pos(cur_line, j - cur_start + 1)),
                                int(fd_text) if fd_text else None,
                                new_pos(cur_line, i - cur_start + 1)), i, end)
                            continue
                        if c in "0123456789{":
                            # a word such as `5` or `{a,b}`, unless a redirection
                            # (`5>x`, `{fd}>x`) starts here
                            m = simple(text, i)
                            if m is not None and text[m.end():m.end() + 1] in ("<", ">"):
                                m = None
                    elif c in op_start:
                        # `\n ; | & && ||` as _next and _operator read them in this state
                        two = text[i:i + 2]
                        ty = two_ops.get(two)
                        if ty is not None:
                            end = i + 2
                        else:
                            ty, longer = one_ops[c]
                            end = i + 1
                            if len(two) == 2 and two[1] in longer:
                                ty = None  # `;;`, `;&`, `|&`, `&>`: the general path
                        if ty is not None:
                            self.cmd_pos = self.assign_ok = True
                            self.decl = self.kw_only = self.no_reserved = False
                            if ty == "_NL":
                                # one _NL for a run of newlines, blank and comment lines:
                                # a line that starts, after its indentation, with none
                                # of those ends the run at once
                                j = end
                                while j < n and text[j] == " ":
                                    j += 1
                                if j < n and text[j] in "\t#\n":
                                    j = _skip(_BLANK_LINES, text, end)
                                self.i = j
                                yield ("_NL", "\n", i, end)
                            else:
                                self.i = end
                                yield (ty, two[:end - i], i, end)
                            continue
                if m is not None:
                    lit = m.group()
                    end = m.end()
                    fast = True
                    if self.cmd_pos:
                        ty = reserved.get(lit)
                        if ty in plain_reserved and not self.no_reserved \
                                and not (aliasing and lit in aliasing):
                            # a reserved word that only opens or closes a command, as
                            # _word_token and _reserved read it here
                            self.i = end
                            if ty in opens_command:
                                self.cmd_pos = self.assign_ok = True
                                self.decl = self.kw_only = self.no_reserved = False
                            else:
                                self.cmd_pos = True
                                self.assign_ok = False
                                self.kw_only = True
                            if ty in pos_types:
                                if not cur_start <= i < cur_next:
                                    cur_line, cur_start, cur_next = _line_span(
                                        self.src, text, n, lazy, line_offset, i)
                                yield (ty, new_pos(cur_line, i - cur_start + 1), i, end)
                            else:
                                yield (ty, lit, i, end)
                            continue
                        if ((ty is not None or lit in unsupported) and not self.no_reserved
                                or "=" in lit or self.kw_only
                                or "[" in lit and lit[0] != "["
                                or aliasing and lit in aliasing
                                or end < n and (text[end] == "(" or text[end] == " "
                                                and text[end + 1:end + 2] == "(")):
                            fast = False
                            if "=" in lit and self.assign_ok:
                                # `x=1` before the command name (no word with `=` is reserved),
                                # as _word_token and _assignment read it: the value is the rest
                                # of the plain word (`x=` and `a[i]=v` take the general path)
                                am = assign_head(text, i)
                                if am is not None and am.group(2) != "[" and am.end() < end:
                                    if not cur_start <= i < cur_next:
                                        cur_line, cur_start, cur_next = _line_span(
                                            self.src, text, n, lazy, line_offset, i)
                                    yield self._inline_assign(
                                        am, i, end, (_lit(text[am.end():end]),), cur_line,
                                        cur_start)
                                    continue
                        else:
                            if lit in decl_cmds:
                                self.decl = True
                            self.cmd_pos = self.assign_ok = self.no_reserved = False
                    elif self.decl and "=" in lit:
                        fast = False
                    if fast:
                        while True:
                            self.i = end
                            if not cur_start <= i < cur_next:
                                cur_line, cur_start, cur_next = _line_span(
                                    self.src, text, n, lazy, line_offset, i)
                            node = lit_cache.get(lit)
                            if node is None:
                                node = _lit(lit)
                            pos = new(new_pos)
                            pos.line = cur_line
                            pos.col = i - cur_start + 1
                            word = new(new_word)
                            word.parts = (node,)
                            word.pos = pos
                            yield ("WORD", word, i, end)
                            # A plain word one blank after it, as an argument of the same
                            # command (`a b c`), is read here as the loop's top would read
                            # it in that state (it leaves the state as it is).
                            if self.cmd_pos or self.decl or end >= n or text[end] != " ":
                                break
                            i = end + 1
                            if i >= n or text[i] in slow_start:
                                break
                            m = simple(text, i)
                            if m is None:
                                break
                            lit = m.group()
                            end = m.end()
                        continue
                elif quick:
                    # a word with quotes or `$name` in it (not one that may be an
                    # assignment), as _word_token and scan_word read it
                    qm = quick_word(text, i)
                    if qm is not None:
                        end = qm.end()
                        if not ((self.assign_ok or self.decl)
                                and ("=" in text[i:end] or "[" in text[i:end])):
                            if self.cmd_pos:
                                self.cmd_pos = self.assign_ok = self.kw_only = False
                                self.no_reserved = False
                            self.i = end
                            if not cur_start <= i < cur_next:
                                cur_line, cur_start, cur_next = _line_span(
                                    self.src, text, n, lazy, line_offset, i)
                            pos = new(new_pos)
                            pos.line = cur_line
                            pos.col = i - cur_start + 1
                            word = new(new_word)
                            word.parts = _quick_parts(text, i, end, cur_line, cur_start)
                            word.pos = pos
                            yield ("WORD", word, i, end)
                            continue
                        if self.assign_ok:
                            # `rc=$?`, `s="a b"` before the command name: the value is a
                            # quick word of its own that ends where this one ends
                            am = assign_head(text, i)
                            if am is not None and am.group(2) != "[":
                                j = am.end()
                                vm = quick_word(text, j) if j < end else None
                                if vm is not None and vm.end() == end:
                                    if not cur_start <= i < cur_next:
                                        cur_line, cur_start, cur_next = _line_span(
                                            self.src, text, n, lazy, line_offset, i)
                                    yield self._inline_assign(
                                        am, i, end, _quick_parts(text, j, end, cur_line, cur_start),
                                        cur_line, cur_start)
                                    continue
            tok = next_tok()
            if aliasing and self.text is not text:  # an alias was expanded: the text changed
                text = self.text
                n = self.n
                lazy = True
                cur_start = cur_next = 0
            if tok is None:
                if self.heredocs:
                    doc = self.heredocs[0]
                    raise self.error(
                        f"here-document delimited by end of input (wanted '{doc.delim}')",
                        doc.offset, incomplete=True)
                yield from held
                return
            queued = self._queue
            if queued is not None:
                self._queue = None
            if self.heredocs:
                held.append(tok)
                if queued is not None:
                    held.append(queued)
                if tok[0] == "_NL":
                    self._read_heredoc_bodies(tok[3])
                    for t in held:
                        if t[0] == "REDIR" and isinstance(t[1], _PendingHeredoc):
                            yield (t[0], t[1].redirect, t[2], t[3])
                        else:
                            yield t
                    held = []
            else:
                yield tok
                if queued is not None:
                    yield queued
            ordinary = not (self.heredocs or self.cond or self.pending
                            or self.case_stack and self.case_stack[-1] == _CASE_PATTERN
                            or aliasing and self.alias_next)

    def _next(self) -> Tok | None:
        text = self.text
        while True:
            i = self.i
            if i < self.n and text[i] in " \t\\":
                i = self.i = _skip(_BLANKS, text, i)
            if i >= self.n:
                if self.nested and self.end_offset < 0:
                    opener = self.text[self.open_offset:self.open_offset + 2]
                    raise self.error(f"unterminated '{opener}': expected ')'", self.open_offset,
                                     incomplete=True)
                if self.cond:
                    raise self.error("unterminated '[[': expected ']]'", i, incomplete=True)
                return None
            c = text[i]
            if c == "#":
                self.i = _skip(_COMMENT_TO_EOL, text, i)
                continue
            if c == "\n":
                self.i = i + 1
                if self.cond:
                    continue
                if self.pending == _P_FOR_AFTER_NAME:
                    pass
                elif self.pending not in (_P_NONE, _P_CASE_IN):
                    # `for` / `case` / `function` followed by a newline: let the parser complain.
                    self.pending = _P_NONE
                if self.case_stack and self.case_stack[-1] == _CASE_PATTERN:
                    self.pat_start = True
                else:
                    self._new_command()
                if not self.heredocs:
                    # One _NL token stands for a run of newlines, blank and comment lines
                    # (the grammar relies on it). With here-documents pending, their
                    # bodies start right after this newline: see _read_heredoc_bodies.
                    self.i = _skip(_BLANK_LINES, text, i + 1)
                return ("_NL", "\n", i, i + 1)
            if self.cond:
                return self._cond_token(i, c)
            if c == "{":
                m = _FD_VAR.match(text, i)
                if m is not None:
                    op = _REDIR_OP.match(text, m.end())
                    assert op is not None
                    return self._redirect(i, op, m.group(1))
            if c in "<>" or (c == "&" and text.startswith("&>", i)) or ("0" <= c <= "9"):
                m = _REDIR_OP.match(text, i)
                if m is not None and not (m.group(1) and m.group(2)[0] == "&") and not (
                        m.group(2) in ("<", ">") and text.startswith("(", m.end())):
                    return self._redirect(i, m)
            if c == "(" and self.cmd_pos and text.startswith("((", i) and self.pending == _P_NONE \
                    and not self._in_pattern():
                arith = self.scan_arith(i + 2, i)
                if arith is not None:
                    word, end = arith
                    self.i = end
                    self._after_compound()
                    return self._tok("ARITH_CMD", i, end, (word, self.src.pos(i)))
            if c in ";|&()":
                return self._operator(i)
            tok = self._word_token(i)
            if tok is not _RESCAN:
                return tok
            text = self.text  # an alias's text was spliced in: scan it

    # -- operators -----------------------------------------------------------------------

    def _operator(self, i: int) -> Tok | None:
        m = _OPERATOR.match(self.text, i)
        assert m is not None
        op = m.group()
        end = m.end()
        self.i = end
        in_pattern = bool(self.case_stack) and self.case_stack[-1] == _CASE_PATTERN
        if op == "(":
            if in_pattern:
                return self._tok("LPAREN", i, end)
            self.paren_depth += 1
            self._new_command()
            return self._tok("LPAREN", i, end)
        if op == ")":
            if in_pattern:
                self.case_stack[-1] = _CASE_BODY
                self._new_command()
                return self._tok("_RPAREN", i, end)
            if self.paren_depth == 0 and self.nested:
                self.close_offset = i
                self.end_offset = end
                self.n = i  # nothing after the closing paren belongs to this scanner
                return None
            if self.paren_depth > 0:
                self.paren_depth -= 1
            self._after_compound()
            return self._tok("_RPAREN", i, end)
        if op == "|" and in_pattern:
            self.pat_start = False
            return self._tok("PIPE", i, end)
        if op in (";;", ";&", ";;&"):
            if self.case_stack and self.case_stack[-1] == _CASE_BODY:
                self.case_stack[-1] = _CASE_PATTERN
                self.pat_start = True
            self._new_command()
            return self._tok("CASE_TERM", i, end)
        self._new_command()
        if op == ";":
            if self.pending == _P_FOR_AFTER_NAME:
                self.pending = _P_NONE
            return self._tok("_SEMI", i, end)
        if op == "&":
            return self._tok("_AMP", i, end)
        if op == "&&":
            return self._tok("AND_IF", i, end)
        if op == "||":
            return self._tok("OR_IF", i, end)
        if op == "|&":
            return self._tok("PIPE_AMP", i, end)
        return self._tok("PIPE", i, end)

    # -- redirections ----------------------------------------------------------------------

    def _redirect(self, i: int, m: re.Match[str], fd_var: str | None = None) -> Tok:
        """A redirection at `i` whose operator `m` matched (after `{fd_var}`, if given)."""
        text = self.text
        fd_text, op = m.group(1), m.group(2)
        end = m.end()
        fd = int(fd_text) if fd_text else None
        if self.cmd_pos and not self.kw_only:
            self.no_reserved = True
        self.i = _skip(_BLANKS, text, end)
        j = self.i
        if j >= self.n or text[j] in "\n;|&()<>" and not (
                text[j] in "<>" and text.startswith("(", j + 1)):  # `done < <(cmd)`
            if j >= self.n:
                raise self.error(f"expected a word after '{op}'", i, incomplete=True)
            shown = "newline" if text[j] == "\n" else f"'{text[j]}'"
            raise self.error(f"unexpected {shown} after '{op}': expected a file name or word", j)
        word, self.i = self.scan_word(j, M_WORD)
        if not word.parts:
            raise self.error(f"expected a word after '{op}'", j)
        if op in ("<<", "<<-"):
            delim_text = word.literal_text()
            if delim_text is None:
                delim_text = text[j:self.i]
            quoted = any(not isinstance(p, ast.Lit) for p in word.parts)
            doc = _PendingHeredoc(delim_text, quoted, op == "<<-", fd, op, i, fd_var)
            self.heredocs.append(doc)
            return self._tok("REDIR", i, self.i, doc)
        redirect = Redirect(op, word, fd, self.src.pos(i), fd_var)
        return self._tok("REDIR", i, self.i, redirect)

    def _read_heredoc_bodies(self, start: int) -> None:
        """Read each pending here-document body from `start`, in order, and fill its token."""
        text = self.text
        p = start
        for doc in self.heredocs:
            lines: list[str] = []
            body_start = p
            while True:
                if p >= self.n:
                    raise self.error(
                        f"here-document delimited by end of input (wanted '{doc.delim}')",
                        doc.offset, incomplete=True)
                nl = text.find("\n", p)
                line_end = self.n if nl < 0 else nl
                line = text[p:line_end]
                if doc.strip_tabs:
                    line = line.lstrip("\t")
                p = self.n if nl < 0 else nl + 1
                if line == doc.delim:
                    break
                lines.append(line + "\n")
            body = "".join(lines)
            if doc.quoted:
                word = Word((Quoted(body),) if body else (), self.src.pos(body_start))
            else:
                first_line = self.src.line_col(body_start)[0]
                sub = Scanner(Source(body, self.src.parse_sub, first_line - 1), 0,
                              depth=self.depth, aliases=self.aliases)
                parts = sub.scan_dq_body(0, heredoc=True)
                word = Word(parts, self.src.pos(body_start))
            doc.redirect = Redirect(doc.op, ast.HereDoc(word, doc.quoted, doc.strip_tabs),
                                    doc.fd, self.src.pos(doc.offset), doc.fd_var)
        self.heredocs = []
        self.i = _skip(_BLANK_LINES, text, p)

    # -- words --------------------------------------------------------------------------------

    def _word_token(self, i: int) -> Tok | None:
        text = self.text
        after_blank = False
        if self.aliases is not None and self.alias_next and self.alias_next[0] <= i:
            # the first word after an alias whose text ends in a blank
            after_blank = True
            self.alias_next = [k for k in self.alias_next if k > i]
        # Assignments: before the command name, and as arguments of declaration commands.
        if (self.assign_ok or self.decl) and self.pending == _P_NONE and not self._in_pattern():
            m = _ASSIGN_HEAD.match(text, i)
            if m is not None:
                tok = self._assignment(i, m)
                if tok is not None:
                    return tok
        word: ast.Word | None
        m = _SIMPLE_WORD.match(text, i)
        if m is not None:
            # Fast path: a word of ordinary characters only (most words are).
            end = m.end()
            lit: str | None = m.group()
            word = None
        else:
            if text.startswith("!(", i) and self.cmd_pos and self.pending == _P_NONE \
                    and not self._in_pattern() and not self.no_reserved:
                self.i = i + 1  # `!(cmd)`: negation, not a pattern
                return self._reserved(i, i + 1, "BANG")
            word, end = self.scan_word(i, M_WORD)
            if end == i:
                # Only reachable on a character no rule accepts here.
                raise self.error(f"unexpected '{text[i]}'", i)
            parts = word.parts
            lit = parts[0].text if len(parts) == 1 and isinstance(parts[0], ast.Lit) else None
        self.i = end
        if self.aliases is not None and lit is not None and lit in self.aliases and (
                after_blank or self.cmd_pos and not self.kw_only
                and self.pending == _P_NONE and not self._in_pattern()) \
                and self._expand_alias(i, end, lit):
            return _RESCAN
        if self.pending != _P_NONE or (self.case_stack and self.case_stack[-1] == _CASE_PATTERN):
            if word is None:
                word = Word((_lit(lit),), self.src.pos(i))  # type: ignore[arg-type]
            if self.pending != _P_NONE:
                return self._pending_word(i, end, word, lit)
            if self.pat_start and lit == "esac":
                self.case_stack.pop()
                self._after_compound()
                return ("_ESAC", lit, i, end)
            self.pat_start = False
            return ("WORD", word, i, end)
        if self.cmd_pos:
            if lit is not None:
                rtype = None if self.no_reserved else RESERVED.get(lit)
                if rtype is not None:
                    return self._reserved(i, end, rtype)
                if self.kw_only:
                    # `{ a; } word`: not a command name; the parser reports it
                    self.cmd_pos = self.kw_only = False
                    return ("WORD", Word((_lit(lit),), self.src.pos(i)), i, end)
                if lit in _UNSUPPORTED_WORDS and not self.no_reserved:
                    raise self.error(_UNSUPPORTED_WORDS[lit], i)
                # The command name. `name ( )` makes it a function definition.
                if text.startswith("(", end) or text.startswith(" (", end):
                    fm = _FUNC_PARENS.match(text, end)
                    if fm is not None and _NAME_OR_FUNC.fullmatch(lit):
                        self.i = fm.end()
                        self._new_command()
                        self._queue = ("FUNC_PARENS", text[end:fm.end()], end, fm.end())
                        return ("FUNCNAME", (lit, self.src.pos(i)), i, end)
                if lit in DECLARATION_COMMANDS:
                    self.decl = True
            self.cmd_pos = self.assign_ok = self.kw_only = self.no_reserved = False
        if word is None:
            word = Word((_lit(lit),), self.src.pos(i))  # type: ignore[arg-type]
        return ("WORD", word, i, end)

    def _expand_alias(self, i: int, end: int, name: str) -> bool:
        """Read the alias `name`'s text in place of the word at `i`..`end`, as bash does
        (the text is spliced into this scanner's own copy of the source, so a construct
        may begin in the alias and end after it), unless `name` is being expanded
        already. True when it was expanded."""
        regions = self.alias_regions
        for r in regions:
            if r[0] == name and r[1] <= i < r[2]:
                return False
        assert self.aliases is not None
        value = self.aliases[name]
        delta = len(value) - (end - i)
        self.copied += self.n
        if self.shift + delta > MAX_ALIAS_GROWTH or self.copied > MAX_ALIAS_COPY:
            raise self.error(f"alias {name}: alias expansion makes the command too long", i)
        regions[:] = [r for r in regions if r[2] > i]  # the finished ones
        for r in regions:
            if r[2] > i:
                r[2] += delta
        self.alias_next = [k + delta if k > i else k for k in self.alias_next]
        regions.append([name, i, i + len(value)])
        # the first word of the text is checked in turn, and with a blank at its end,
        # so is the word after it
        self.alias_next.append(i)
        if value.endswith((" ", "\t")):
            self.alias_next.append(i + len(value))
        self.alias_next.sort()
        self.src = self.src.spliced(i, end, value)
        self.text = self.src.text
        self.n += delta
        self.shift += delta
        self.i = i
        return True

    def _in_pattern(self) -> bool:
        return bool(self.case_stack) and self.case_stack[-1] == _CASE_PATTERN

    def _reserved(self, i: int, end: int, rtype: str) -> Tok:
        if rtype in _OPENS_COMMAND:
            self._new_command()
        elif rtype == "FOR":
            self.cmd_pos = self.assign_ok = False
            j = _skip(_BLANKS, self.text, end)
            if self.text.startswith("((", j):
                arith = self.scan_arith(j + 2, j)
                if arith is None:
                    raise self.error("expected '((' arithmetic for-loop header", j)
                word, after = arith
                self.i = after
                init, cond, step = _split_arith_for(word, self, j)
                self._new_command()
                return self._tok("ARITH_FOR", i, after, (init, cond, step, self.src.pos(i)))
            self.pending = _P_FOR_NAME
        elif rtype == "CASE":
            self.cmd_pos = self.assign_ok = False
            self.pending = _P_CASE_WORD
        elif rtype == "FUNCTION":
            self.cmd_pos = self.assign_ok = False
            self.pending = _P_FUNC_NAME
        elif rtype == "DBRACK_OPEN":
            self.cmd_pos = self.assign_ok = False
            self.cond = _C_OPERAND
        elif rtype == "_ESAC":
            if self.case_stack:
                self.case_stack.pop()
            self._after_compound()
        else:  # fi done }
            self._after_compound()
        return self._tok(rtype, i, end)

    def _pending_word(self, i: int, end: int, word: ast.Word, lit: str | None) -> Tok:
        pending = self.pending
        if pending == _P_FOR_NAME:
            self.pending = _P_FOR_AFTER_NAME
            return self._tok("WORD", i, end, word)
        if pending == _P_FOR_AFTER_NAME:
            self.pending = _P_NONE
            if lit == "in":
                return self._tok("_IN", i, end)
            if lit == "do":
                self._new_command()
                return self._tok("_DO", i, end)
            return self._tok("WORD", i, end, word)
        if pending == _P_CASE_WORD:
            self.pending = _P_CASE_IN
            return self._tok("WORD", i, end, word)
        if pending == _P_CASE_IN:
            self.pending = _P_NONE
            if lit == "in":
                self.case_stack.append(_CASE_PATTERN)
                self.pat_start = True
                return self._tok("_IN", i, end)
            return self._tok("WORD", i, end, word)
        # function NAME
        self.pending = _P_NONE
        if lit is None or not _NAME_OR_FUNC.fullmatch(lit):
            raise self.error(f"'{self.text[i:end]}' is not a valid function name", i)
        fm = _FUNC_PARENS.match(self.text, end)
        self._new_command()
        if fm is not None:
            self.i = fm.end()
            self._queue = self._tok("FUNC_PARENS", end, fm.end())
        return self._tok("FUNCNAME", i, end, (lit, self.src.pos(i)))

    # -- assignments ------------------------------------------------------------------------

    def _inline_assign(self, m: re.Match[str], i: int, end: int,
                       parts: tuple[ast.WordPart, ...], line: int, line_start: int) -> Tok:
        """The token of `name=value` or `name+=value` before the command name whose value,
        the word's rest, the token loop read inline as `parts` (`_assignment` with its
        value from scan_word); `line` starts at `line_start` and holds the word."""
        self.i = end
        self.no_reserved = True
        value = Word(parts, Pos(line, m.end() - line_start + 1))
        assign = Assign(m.group(1), value, None, m.group(2) == "+=", Pos(line, i - line_start + 1))
        return ("ASSIGN", assign, i, end)

    def _assignment(self, i: int, m: re.Match[str]) -> Tok | None:
        text = self.text
        name = m.group(1)
        index: ast.Word | None = None
        j = m.end()
        if m.group(2) == "[":
            index, k = self.scan_word(j, M_SUBSCRIPT)
            if k >= self.n or text[k] != "]":
                return None
            # as in bash, a subscript may hold blanks in an assignment before the
            # command name (`a[i + 1]=x`), not in an argument of declare and the like
            # (`local a[i + 1]=x` is three words)
            if any(type(p) is ast.Lit and ("\n" in p.text or not self.assign_ok and (
                    " " in p.text or "\t" in p.text)) for p in index.parts):
                return None
            k += 1
            if text.startswith("+=", k):
                append, j = True, k + 2
            elif text.startswith("=", k):
                append, j = False, k + 1
            else:
                return None
        else:
            append = m.group(2) == "+="
        pos = self.src.pos(i)
        value: ast.Word | ast.ArrayLit
        if j < self.n and text[j] == "(":
            if index is not None:
                raise self.error("an array element cannot be assigned a list", j)
            value, end = self._array_literal(j)
        else:
            value, end = self.scan_word(j, M_WORD)
        self.i = end
        assign = Assign(name, value, index, append, pos)
        if self.assign_ok:
            self.no_reserved = True
            return self._tok("ASSIGN", i, end, assign)
        # An argument of declare/local/export…: also keep it as a word; its subscript
        # is a name's, never a glob (`typeset a[3]=4`)
        if isinstance(value, ast.Word):
            if index is None:
                word = Word((Lit(text[i:j]),) + value.parts, pos)
            else:
                key = tuple(Quoted(p.text) if type(p) is ast.Lit else p for p in index.parts)
                word = Word((Quoted(name + "["), *key, Quoted("]+=" if append else "]="),
                             *value.parts), pos)
        else:
            word = Word((Quoted(text[i:end]),), pos)
        return self._tok("DECL_ASSIGN", i, end, (word, assign))

    def _array_literal(self, open_i: int) -> tuple[ast.ArrayLit, int]:
        """`( elem … )` after `name=`: words, `[key]=value` elements, newlines, comments."""
        text = self.text
        p = open_i + 1
        elems: list[ast.ArrayElem] = []
        while True:
            p = _skip(_BLANKS, text, p)
            if p >= self.n:
                raise self.error("unterminated array literal: expected ')'", open_i,
                                 incomplete=True)
            c = text[p]
            if c == "\n":
                p += 1
                continue
            if c == "#":
                p = _skip(_COMMENT_TO_EOL, text, p)
                continue
            if c == ")":
                return ast.ArrayLit(tuple(elems)), p + 1
            if c == "[":
                key, k = self.scan_word(p + 1, M_SUBSCRIPT)
                if k < self.n and text.startswith("]=", k):
                    value, p = self.scan_word(k + 2, M_WORD)
                    elems.append(ast.ArrayElem(value, key))
                    continue
                if k < self.n and text.startswith("]+=", k):  # `[k]+=v`
                    value, p = self.scan_word(k + 3, M_WORD)
                    elems.append(ast.ArrayElem(value, key, True))
                    continue
            word, q = self.scan_word(p, M_WORD)
            if q == p:
                raise self.error(f"unexpected '{c}' in array literal", p)
            elems.append(ast.ArrayElem(word))
            p = q

    # -- [[ ]] ------------------------------------------------------------------------------

    def _cond_token(self, i: int, c: str) -> Tok:
        text = self.text
        state = self.cond
        if text.startswith("&&", i):
            self.i = i + 2
            self.cond = _C_OPERAND
            return self._tok("AND_IF", i, i + 2)
        if text.startswith("||", i):
            self.i = i + 2
            self.cond = _C_OPERAND
            return self._tok("OR_IF", i, i + 2)
        if state == _C_AFTER and c in "<>":
            self.i = i + 1
            self.cond = _C_BINOP_ARG
            return self._tok("COND_BINOP", i, i + 1)
        if c == "(" and state == _C_OPERAND:
            self.i = i + 1
            return self._tok("LPAREN", i, i + 1)
        if c == ")" and state == _C_AFTER:
            self.i = i + 1
            return self._tok("_RPAREN", i, i + 1)
        mode = M_REGEX if state == _C_REGEX_ARG else M_WORD
        word, end = self.scan_word(i, mode)
        if end == i:
            raise self.error(f"unexpected '{c}' in conditional expression", i)
        self.i = end
        parts = word.parts
        lit = parts[0].text if len(parts) == 1 and isinstance(parts[0], ast.Lit) else None
        if lit == "]]" and state in (_C_AFTER, _C_OPERAND):
            self.cond = 0
            self._after_compound()
            return self._tok("_DBRACK_CLOSE", i, end)
        if state == _C_OPERAND:
            if lit == "!":
                return self._tok("BANG", i, end)
            if lit in COND_UNARY_OPS:
                nxt = _skip(_BLANKS, text, end)
                # `[[ -n ]]` or `[[ -f == x ]]`: the "operator" is really a plain word.
                if not (text.startswith("]]", nxt) or _starts_binop(text, nxt)):
                    self.cond = _C_UNOP_ARG
                    return self._tok("COND_UNOP", i, end, lit)
            self.cond = _C_AFTER
            return self._tok("WORD", i, end, word)
        if state == _C_AFTER and lit in COND_BINARY_OPS:
            self.cond = _C_REGEX_ARG if lit == "=~" else _C_BINOP_ARG
            return self._tok("COND_BINOP", i, end, lit)
        self.cond = _C_AFTER
        return self._tok("WORD", i, end, word)

    # -- word parts -------------------------------------------------------------------------

    def scan_word(self, i: int, mode: int) -> tuple[ast.Word, int]:
        """Scan word parts from `i` until the mode's terminator; return the word and its end."""
        text = self.text
        if mode == M_WORD:
            # a word of ordinary characters only (a file name after `>`, most words in
            # `[[ ]]`): one Lit, as the loop below would make it
            m = _SIMPLE_WORD.match(text, i)
            if m is not None:
                word = _new(Word)
                word.parts = (_lit(m.group()),)
                word.pos = self.src.pos(i)
                return word, m.end()
        n = self.n
        plain = _PLAIN[mode]
        stop = _STOP[mode]
        # (the _Parts, and the Word below, made with their __init__'s stores, without
        # the calls: most words that are not read inline are read here)
        parts = _new(_Parts)
        parts.parts = []
        parts.kind = 0
        parts.buf = []
        start = i
        depth = 0  # parentheses inside a =~ regex, brackets inside a subscript
        while i < n:
            m = plain.match(text, i)
            if m is not None:
                parts.lit(m.group())
                i = m.end()
                if i >= n:
                    break
            c = text[i]
            if c == "'":
                close = text.find("'", i + 1)
                if close < 0:
                    raise self.error("unterminated single-quoted string", i, incomplete=True)
                parts.quoted(text[i + 1:close])
                i = close + 1
            elif c == '"':
                dq, i = self.scan_dq(i)
                parts.part(dq)
            elif c == "\\":
                if i + 1 >= n:
                    parts.lit("\\")
                    i += 1
                elif text[i + 1] == "\n":
                    i += 2
                else:
                    parts.quoted(text[i + 1])
                    i += 2
            elif c == "$":
                i = self.scan_dollar(i, parts, in_dq=False)
            elif c == "`":
                sub, i = self._backtick(i, in_dq=False)
                parts.part(sub)
            elif mode == M_REGEX:
                if c in "(|":
                    depth += c == "("
                    parts.lit(c)
                    i += 1
                elif c == ")" and depth > 0:
                    depth -= 1
                    parts.lit(c)
                    i += 1
                elif depth > 0 and c in " \t<>;&":
                    parts.lit(c)
                    i += 1
                else:
                    break
            elif c in stop:
                if mode == M_WORD:
                    if c == "(" and parts.kind == 1 and parts.buf[-1][-1:] in _EXTGLOB_OPS:
                        i = self._extglob(i, parts)
                        continue
                    if c in "<>" and text.startswith("(", i + 1):
                        script, end = self._command_sub(i)
                        parts.part(ast.ProcSub(script, c, self.src.pos(i)))
                        i = end
                        continue
                elif mode == M_SUBSCRIPT and depth > 0:  # the ] of a nested subscript
                    depth -= 1
                    parts.lit(c)
                    i += 1
                    continue
                break
            elif c == "(":  # a nested group inside an extended pattern
                i = self._extglob(i, parts)
            elif c == "[":  # a nested subscript
                depth += 1
                parts.lit(c)
                i += 1
            else:  # pragma: no cover - the plain regex consumes everything else
                parts.lit(c)
                i += 1
        word = _new(Word)
        word.parts = parts.done()
        word.pos = self.src.pos(start)
        return word, i

    def _dq_operand(self, i: int) -> tuple[ast.Word, int]:
        """The word of `${x:-…}` (and `:=`, `:+`, `-`, `=`, `+`) inside double quotes, from
        `i` to its `}`, read as bash reads it there: quoted as the string around it, so a
        backslash escapes only `$`, `` ` ``, `"`, `\\` and `}` (`"${u-\\z}"` is `\\z`); a
        single quote is an ordinary character that still hides `}` until the next one,
        and expansions inside it happen (`"${u:-'$v'}"` is `'` + $v + `'`)."""
        text = self.text
        n = self.n
        parts = _Parts()
        start = i
        in_sq = False
        while i < n:
            m = _DQ_OPERAND_PLAIN.match(text, i)
            if m is not None:
                parts.quoted(m.group())
                i = m.end()
                if i >= n:
                    break
            c = text[i]
            if c == "}":
                if not in_sq:
                    break
                parts.quoted(c)
                i += 1
            elif c == "'":
                in_sq = not in_sq
                parts.quoted(c)
                i += 1
            elif c == '"':
                dq, i = self.scan_dq(i)
                parts.part(dq)
            elif c == "\\":
                nxt = text[i + 1:i + 2]
                if nxt == "\n":
                    i += 2
                elif nxt and nxt in _DQ_OPERAND_ESCAPABLE:
                    parts.quoted(nxt)
                    i += 2
                else:
                    parts.quoted("\\" + nxt)
                    i += 1 + len(nxt)
            elif c == "$":
                i = self.scan_dollar(i, parts, in_dq=True)
            else:  # backtick
                sub, i = self._backtick(i, in_dq=True)
                parts.part(sub)
        return Word(parts.done(), self.src.pos(start)), i

    def _extglob(self, i: int, parts: _Parts) -> int:
        """The group of an extended pattern (`@(a|b)`, `!(*.o)`, and nested ones), from
        its `(`, added to `parts` as pattern text: `(`, `|` and `)` in unquoted Lit
        parts, quoted characters Quoted and expansions as parts, so the matcher sees the
        operators and matches the quoted text literally. As bash reads them: always
        inside `[[ ]]`, and the syntax is an error in bash without `shopt -s extglob`."""
        inner, end = self.scan_word(i + 1, M_EXTGLOB)
        if end >= self.n:
            op = self.text[i - 1:i + 1]
            raise self.error(f"unterminated extended pattern '{op}': expected ')'", i - 1,
                             incomplete=True)
        parts.lit("(")
        for p in inner.parts:
            if type(p) is ast.Lit:
                parts.lit(p.text)
            elif type(p) is ast.Quoted:
                parts.quoted(p.text)
            else:
                parts.part(p)
        parts.lit(")")
        return end + 1

    def scan_dq(self, i: int, *, heredoc: bool = False) -> tuple[ast.DQ, int]:
        """Scan `"…"` starting at the opening quote; with `heredoc`, scan an unquoted
        here-document body from `i` to the end of the text instead (`"` is ordinary
        there, and only `\\`, `$` and `` ` `` are escapable)."""
        text = self.text
        n = self.n
        parts = _Parts()
        if heredoc:
            j, plain, escapable = i, _HEREDOC_PLAIN, _HEREDOC_ESCAPABLE
        else:
            j, plain, escapable = i + 1, _DQ_PLAIN, _DQ_ESCAPABLE
        while True:
            m = plain.match(text, j)
            if m is not None:
                parts.quoted(m.group())
                j = m.end()
            if j >= n:
                if heredoc:
                    return DQ(parts.done()), j
                raise self.error("unterminated double-quoted string", i, incomplete=True)
            c = text[j]
            if c == '"':  # never in a here-document: its plain regex takes `"`
                return DQ(parts.done()), j + 1
            if c == "\\":
                nxt = text[j + 1] if j + 1 < n else ""
                if nxt == "\n":
                    j += 2
                elif nxt in escapable:
                    parts.quoted(nxt)
                    j += 2
                else:
                    parts.quoted("\\")
                    j += 1
            elif c == "$":
                j = self.scan_dollar(j, parts, in_dq=True)
            else:  # backtick
                sub, j = self._backtick(j, in_dq=not heredoc)
                parts.part(sub)

    def scan_dq_body(self, i: int, *, heredoc: bool) -> tuple[ast.WordPart, ...]:
        """The parts of an unquoted here-document body: like "…" but `"` is ordinary."""
        return self.scan_dq(i, heredoc=True)[0].parts

    def scan_dollar(self, i: int, parts: _Parts, *, in_dq: bool) -> int:
        """Scan an expansion starting at `$`; append its part(s); return the end offset."""
        text = self.text
        n = self.n
        c = text[i + 1] if i + 1 < n else ""
        if c == "{":
            pe, end = self._param_braced(i, in_dq)
            parts.part(pe)
            return end
        if c == "(":
            if i + 2 < n and text[i + 2] == "(":
                arith = self.scan_arith(i + 3, i)
                if arith is not None:
                    word, end = arith
                    parts.part(ast.ArithSub(word, self.src.pos(i)))
                    return end
            script, end = self._command_sub(i)
            parts.part(ast.CmdSub(script, self.src.pos(i)))
            return end
        if c == "[":  # `$[…]`: bash's older spelling of `$((…))`
            word, end = self.scan_arith(i + 2, i, brackets=True)
            parts.part(ast.ArithSub(word, self.src.pos(i)))
            return end
        if c and (c.isalpha() or c == "_") and c.isascii():
            m = _NAME.match(text, i + 1)
            assert m is not None
            parts.part(ParamExp(m.group()))
            return m.end()
        if "0" <= c <= "9":
            parts.part(ParamExp(c))
            return i + 2
        if c and c in _SPECIAL_PARAMS:
            parts.part(ParamExp(c))
            return i + 2
        if c == "'" and not in_dq:
            m = _ANSI_BODY.match(text, i + 2)
            if m is None:
                raise self.error("unterminated $'…' string", i, incomplete=True)
            body = decode_ansi_c(text[i + 2:m.end() - 1])
            if "\0" in body:
                body = body[: body.index("\0")]  # bash's strings are C strings: NUL ends them
            parts.quoted(body)
            return m.end()
        if c == '"' and not in_dq:
            dq, end = self.scan_dq(i + 1)
            parts.part(dq)
            return end
        if in_dq:
            parts.quoted("$")
        else:
            parts.lit("$")
        return i + 1

    def _command_sub(self, i: int) -> tuple[ast.Script, int]:
        if self.depth >= MAX_NESTING:
            raise self.error("command substitutions nested too deeply", i)
        sub = Scanner(self.src, i + 2, nested=True, open_offset=i, depth=self.depth + 1,
                      aliases=self.aliases)
        script = self.src.parse_sub(sub)
        if sub.shift:
            # aliases expanded inside: its end, in this scanner's text
            close = sub.close_offset
            if any(r[1] <= close < r[2] for r in sub.alias_regions):
                raise sub.error("an alias's text closes the substitution", close)
            return script, sub.end_offset - sub.shift
        return script, sub.end_offset

    def _backtick(self, i: int, *, in_dq: bool) -> tuple[ast.CmdSub, int]:
        """A backtick substitution starting at the backtick: the same CmdSub as `$(…)`. As
        in bash, the text up to the next unescaped backtick is read first, a backslash
        dropped before a dollar sign, a backtick or a backslash (and before a double quote
        inside double quotes), and the result is parsed as a script; so an inner
        substitution nests as backslash-backtick."""
        text = self.text
        escapable = '$`\\"' if in_dq else "$`\\"
        out: list[str] = []
        j = i + 1
        while True:
            m = _BACKTICK_STOP.search(text, j, self.n)
            if m is None:
                raise self.error("unterminated '`': expected a closing '`'", i, incomplete=True)
            k = m.start()
            out.append(text[j:k])
            if text[k] == "`":
                end = k + 1
                break
            if k + 1 < self.n and text[k + 1] in escapable:
                out.append(text[k + 1])
                j = k + 2
            else:
                out.append("\\")
                j = k + 1
        if self.depth >= MAX_NESTING:
            raise self.error("command substitutions nested too deeply", i)
        line, col = self.src.line_col(i)
        sub = Scanner(Source("".join(out), self.src.parse_sub, line - 1, col), 0,
                      depth=self.depth + 1, aliases=self.aliases)
        return ast.CmdSub(self.src.parse_sub(sub), self.src.pos(i)), end

    if TYPE_CHECKING:
        @overload
        def scan_arith(self, i: int, open_offset: int) -> tuple[ast.Word, int] | None: ...

        @overload
        def scan_arith(self, i: int, open_offset: int,
                       brackets: Literal[True]) -> tuple[ast.Word, int]: ...

    def scan_arith(self, i: int, open_offset: int,
                   brackets: bool = False) -> tuple[ast.Word, int] | None:
        """Scan arithmetic text from `i` (just after `((`) to the matching `))`.

        Returns None when the parentheses do not close as `))` (then `((` was two subshell
        parens, or `$((` a command substitution starting with a subshell, as in bash).
        With `brackets`, the text of `$[…]` (from just after `$[`) up to the `]` that
        closes it, subscripts nesting (`$[a[1] + 1]`).
        """
        text = self.text
        n = self.n
        parts = _Parts()
        depth = 0
        sub_depth = 0
        j = i
        plain = _ARITH_BRACKET_PLAIN if brackets else _ARITH_PLAIN
        while True:
            m = plain.match(text, j)
            if m is not None:
                parts.quoted(m.group())
                j = m.end()
            if j >= n:
                if brackets:
                    raise self.error("unterminated '$[': expected ']'", open_offset,
                                     incomplete=True)
                what = "$((" if text[open_offset] == "$" else "(("
                raise self.error(f"unterminated '{what}': expected '))'", open_offset,
                                 incomplete=True)
            c = text[j]
            if brackets and c in "[]":
                if c == "]" and sub_depth == 0:
                    return Word(parts.done(), self.src.pos(i)), j + 1
                sub_depth += 1 if c == "[" else -1
                parts.quoted(c)
                j += 1
            elif brackets and c == ")" and depth == 0:
                parts.quoted(c)  # unbalanced: an error when it is evaluated
                j += 1
            elif c == "(":
                depth += 1
                parts.quoted(c)
                j += 1
            elif c == ")":
                if depth == 0:
                    if j + 1 < n and text[j + 1] == ")":
                        return Word(parts.done(), self.src.pos(i)), j + 2
                    return None
                depth -= 1
                parts.quoted(c)
                j += 1
            elif c == "$":
                j = self.scan_dollar(j, parts, in_dq=True)
            elif c == '"':
                dq, j = self.scan_dq(j)
                for p in dq.parts:
                    if isinstance(p, ast.Quoted):
                        parts.quoted(p.text)
                    else:
                        parts.part(p)
            elif c == "'":
                close = text.find("'", j + 1)
                if close < 0:
                    raise self.error("unterminated single-quoted string", j, incomplete=True)
                parts.quoted(text[j + 1:close])
                j = close + 1
            elif c == "\\":
                if j + 1 < n and text[j + 1] == "\n":
                    j += 2
                else:
                    parts.quoted("\\")
                    j += 1
            else:  # backtick
                sub, j = self._backtick(j, in_dq=True)
                parts.part(sub)

    def _bad_substitution(self, i: int) -> tuple[ast.ParamExp, int]:
        """A `${…}` starting at `i` that is no substitution bash knows: as bash does, it is
        an error only when it is expanded (status 1, ending the shell), so a script may
        hold one on a path it never takes. Its text is kept, with op "bad"."""
        _, end = self.scan_word(i + 2, M_ARG)
        if end >= self.n:
            raise self.error("unterminated '${': expected '}'", i, incomplete=True)
        return ParamExp(self.text[i + 2:end], None, False, False, "bad", None, None, True), end + 1

    def _param_braced(self, i: int, in_dq: bool = False) -> tuple[ast.ParamExp, int]:
        """`${…}` starting at `$`."""
        text = self.text
        n = self.n
        j = i + 2
        length = indirect = False
        if j < n and text[j] == "#" and j + 1 < n and text[j + 1] != "}" \
                and _is_length_form(text, j + 1):
            length = True
            j += 1
        elif j < n and text[j] == "!" and j + 1 < n and text[j + 1] != "}":
            indirect = True
            j += 1
        m = _NAME.match(text, j) or _DIGITS.match(text, j)
        if m is not None:
            name = m.group()
            j = m.end()
        elif j < n and text[j] in _SPECIAL_PARAMS:
            name = text[j]
            j += 1
        else:
            if j >= n:
                raise self.error("unterminated '${': expected '}'", i, incomplete=True)
            return self._bad_substitution(i)
        index: ast.Word | None = None
        if j < n and text[j] == "[":
            index, k = self.scan_word(j + 1, M_SUBSCRIPT)
            if k >= n:
                raise self.error("unterminated '${': expected '}'", i, incomplete=True)
            j = k + 1
            lt = index.literal_text()
            if lt in ("@", "*") and len(index.parts) == 1:
                index = Word((Quoted(lt),), index.pos)
        if j >= n:
            raise self.error("unterminated '${': expected '}'", i, incomplete=True)
        if text[j] == "}":
            return ParamExp(name, index, length, indirect, "", None, None, True), j + 1
        if j + 1 < n and text[j + 1] == "}":
            c = text[j]
            if indirect and index is None and c in "*@" and name not in _SPECIAL_PARAMS:
                # `${!prefix*}` / `${!prefix@}`: the names of the set variables with a prefix
                return ParamExp(name, None, False, False, "!" + c, None, None, True), j + 2
        if text[j] == "@" and j + 2 < n and text[j + 1] in _TRANSFORMS and text[j + 2] == "}" \
                and not length:
            # `${x@Q}` and the other transformations bash has (see expand); `${!r@a}`
            # transforms what r names
            return ParamExp(name, index, False, indirect, "@" + text[j + 1], None, None,
                            True), j + 3
        op = ""
        for cand in _PARAM_OPS:
            if text.startswith(cand, j):
                op = cand
                break
        if not op or length or op == ":" and text.startswith("}", j + 1):
            return self._bad_substitution(i)  # (`${x:}` has no offset)
        j += len(op)
        arg: ast.Word | None
        arg2: ast.Word | None = None
        if op in ("/", "//", "/#", "/%"):
            if op in ("/", "//") and j < n and text[j] == "/":
                # bash: a pattern's leading '/' is part of it (`${PWD////_}`)
                lead, j = self.scan_word(j + 1, M_ARG_SLASH)
                rest = lead.parts
                if rest and type(rest[0]) is ast.Lit:
                    arg = Word((Lit("/" + rest[0].text), *rest[1:]), lead.pos)
                else:
                    arg = Word((Lit("/"), *rest), lead.pos)
            else:
                arg, j = self.scan_word(j, M_ARG_SLASH)
            if j < n and text[j] == "/":
                arg2, j = self.scan_word(j + 1, M_ARG)
        elif op == ":":
            arg, j = self.scan_word(j, M_ARG_COLON)
            open_q = _open_conditionals(arg)
            while open_q and j < n and text[j] == ":":
                # the `:` of a `?:` in the offset (`${s:x?1:2:3}`), not the length's
                more, j = self.scan_word(j + 1, M_ARG_COLON)
                arg = _joined(arg, more)
                open_q = _open_conditionals(arg)
            if j < n and text[j] == ":":
                arg2, j = self.scan_word(j + 1, M_ARG)
        elif op in ("^^", "^", ",,", ","):
            arg, j = self.scan_word(j, M_ARG)
            if not arg.parts:
                arg = None
        elif in_dq and op in _DEFAULT_FAMILY:
            arg, j = self._dq_operand(j)
        else:
            arg, j = self.scan_word(j, M_ARG)
        if j >= n or text[j] != "}":
            raise self.error("unterminated '${': expected '}'", i, incomplete=True)
        return ParamExp(name, index, length, indirect, op, arg, arg2, True), j + 1


def script_scanner(text: str, parse_sub: Callable[[Scanner], ast.Script],
                   aliases: Mapping[str, str] | None = None) -> Scanner:
    """`Scanner(Source(text, parse_sub), aliases=aliases)`: the scanner of a whole script,
    its Source and itself made with the stores their __init__ make, without the calls (a
    parse of a line or two spends a good part of its time making these two)."""
    src = _new(Source)
    src.text = text
    starts = [0]
    find = text.find
    k = find("\n")
    while k >= 0:
        starts.append(k + 1)
        k = find("\n", k + 1)
    src.line_starts = starts
    src.line_offset = 0
    src.parse_sub = parse_sub
    n = len(text)
    src.seen = n + 1
    src.hidden = ()
    sc = _new(Scanner)
    sc.src = src
    sc.text = text
    sc.n = n
    sc.i = 0
    sc.nested = False
    sc.open_offset = 0
    sc.depth = 0
    sc.end_offset = -1
    sc.close_offset = -1
    sc.cmd_pos = True
    sc.assign_ok = True
    sc.decl = False
    sc.kw_only = False
    sc.no_reserved = False
    sc.pending = _P_NONE
    sc.case_stack = []
    sc.pat_start = False
    sc.paren_depth = 0
    sc.cond = 0
    sc.heredocs = []
    sc.last_offset = 0
    sc.aliases = aliases or None
    sc.alias_regions = []
    sc.alias_next = []
    sc.shift = 0
    sc.copied = 0
    sc._queue = None
    return sc  # type: ignore[no-any-return]


def _open_conditionals(word: ast.Word) -> int:
    """How many `?` of conditional expressions in an arithmetic word's text have no `:` yet."""
    text = "".join(p.text for p in word.parts if type(p) is ast.Lit or type(p) is ast.Quoted)
    return text.count("?") - text.count(":")


def _joined(word: ast.Word, more: ast.Word) -> ast.Word:
    """`word` + `:` + `more`, as one word."""
    parts = _Parts()
    for p in (*word.parts, Lit(":"), *more.parts):
        if type(p) is ast.Lit:
            parts.lit(p.text)
        elif type(p) is ast.Quoted:
            parts.quoted(p.text)
        else:
            parts.part(p)
    return Word(parts.done(), word.pos)


def _is_length_form(text: str, j: int) -> bool:
    """Whether `${#` before `j` asks for a length (`${#x}`, `${##}` is the length of
    `$#`, `${#a[1]}`), rather than naming `$#` with an operator after it (`${#-x}`,
    `${###}` is `$#` with an empty `##` pattern), as bash decides."""
    c = text[j]
    if c.isalpha() or c == "_":
        return True  # `${#name…`: a length, or a bad substitution
    m = _DIGITS.match(text, j)
    k = m.end() if m is not None else j + 1 if c in _SPECIAL_PARAMS else -1
    return k >= 0 and text.startswith(("}", "["), k)


def _skip(pattern: LazyRegex, text: str, i: int) -> int:
    """The end of `pattern` (one that can match empty, so it always matches) at `i`."""
    m = pattern.match(text, i)
    assert m is not None
    return m.end()


def _quick_parts(text: str, i: int, end: int, line: int = 1, line_start: int = 0
                 ) -> tuple[ast.WordPart, ...]:
    """The parts of the word `_QUICK_WORD` matched at `i`..`end`, on the line `line` that
    starts at `line_start`, as scan_word makes them (adjacent single-quoted strings make
    one Quoted). The nodes are made with the stores their __init__ makes, without the
    call (`_param` for a ParamExp)."""
    new = _new
    c = text[i]
    if c == "'" or c == '"':
        # a word of one quoted string (`'a b'`, `"a b"`), the commonest, without the
        # segment loop
        body = text[i + 1:end - 1]
        if c not in body and text[end - 1] == c:
            if c == "'":
                return (_quoted(body),)
            if "$" not in body:
                return (_plain_dq(body),)
    parts: list[ast.WordPart] = []
    for m in _QUICK_SEGMENT.finditer(text, i, end):
        k = m.lastindex
        if k == 6:
            # `$((…))`: its text, quoted, as scan_arith reads it
            body = m.group(6)
            expr = new(Word)
            expr.parts = (_quoted(body),) if body else ()
            start = m.start()
            expr.pos = Pos(line, start + 4 - line_start)
            sub = new(ast.ArithSub)
            sub.expr = expr
            sub.pos = Pos(line, start + 1 - line_start)
            parts.append(sub)
            continue
        if k == 1:
            node = new(Lit)
            node.text = m.group(1)
            parts.append(node)
        elif k == 2:
            q = m.group(2)
            if parts and parts[-1].__class__ is Quoted:
                q = parts.pop().text + q  # type: ignore[union-attr]
            parts.append(_quoted(q))
        elif k == 3:
            body = m.group(3)
            if "$" not in body:
                parts.append(_plain_dq(body))
                continue
            dq = new(DQ)
            inner: list[ast.WordPart] = []
            for d in _QUICK_DQ_SEGMENT.finditer(body):
                k = d.lastindex
                if k == 1:
                    inner.append(_quoted(d.group(1)))
                elif k == 2:
                    inner.append(_param(d.group(2), False))
                else:
                    inner.append(_param(d.group(3), True))
            dq.parts = tuple(inner)
            parts.append(dq)
        elif k == 4:
            parts.append(_param(m.group(4), False))
        else:
            parts.append(_param(m.group(5), True))
    return tuple(parts)


def _quoted(text: str) -> ast.Quoted:
    """`Quoted(text)`: its __init__'s store, without the call."""
    node = _new(Quoted)
    node.text = text
    return node  # type: ignore[no-any-return]


def _plain_dq(body: str) -> ast.DQ:
    """The double-quoted string `"body"` of a body without `$`."""
    dq = _new(DQ)
    dq.parts = (_quoted(body),) if body else ()
    return dq  # type: ignore[no-any-return]


def _param(name: str, braced: bool) -> ast.ParamExp:
    """`ParamExp(name)` or `ParamExp(name, braced=True)`: its __init__'s stores, without
    the call."""
    p = _new(ParamExp)
    p.name = name
    p.index = None
    p.length = False
    p.indirect = False
    p.op = ""
    p.arg = None
    p.arg2 = None
    p.braced = braced
    return p  # type: ignore[no-any-return]


_LIT_CACHE: dict[str, ast.Lit] = {}
_new: Any = object.__new__
_NO_ALIASES: dict[str, str] = {}

# What _word_token gives back after an alias expansion: scan again at the same place.
_RESCAN: Tok = ("", None, 0, 0)


def _lit(text: str) -> ast.Lit:
    """Share Lit nodes for repeated text (`echo`, `-n`…): they are immutable."""
    node = _LIT_CACHE.get(text)
    if node is None:
        if len(_LIT_CACHE) > 4096:
            _LIT_CACHE.clear()
        node = _LIT_CACHE[text] = Lit(text)
    return node


_NAME_OR_FUNC = LazyRegex(r"[^\s$`'\"\\|&;()<>]+")
_DBRACK_END = LazyRegex(r"\]\](?=[ \t\n;&|)]|\Z)")
_BINOP_AHEAD = LazyRegex(r"(?:==|=~|!=|=|<|>|-eq|-ne|-lt|-le|-gt|-ge|-nt|-ot|-ef)(?=[ \t\n]|$)")


def _starts_binop(text: str, i: int) -> bool:
    """A binary operator with an operand after it starts at `i` (in `[[ -f == ]]`, `==`
    is the operand of `-f`, as in bash)."""
    m = _BINOP_AHEAD.match(text, i)
    if m is None:
        return False
    after = _skip(_BLANKS, text, m.end())
    return not _DBRACK_END.match(text, after)


def _split_arith_for(word: ast.Word, scanner: Scanner, offset: int
                     ) -> tuple[ast.Word | None, ast.Word | None, ast.Word | None]:
    """Split the text of `for ((a; b; c))` at its top-level semicolons."""
    sections: list[list[ast.WordPart]] = [[]]
    for p in word.parts:
        if isinstance(p, ast.Quoted) and ";" in p.text:
            pieces = p.text.split(";")
            for k, piece in enumerate(pieces):
                if k:
                    sections.append([])
                if piece:
                    sections[-1].append(Quoted(piece))
        else:
            sections[-1].append(p)
    if len(sections) != 3:
        raise scanner.error("expected 'for ((init; condition; step))'", offset)
    out: list[ast.Word | None] = []
    for sec in sections:
        if all(isinstance(p, ast.Quoted) and not p.text.strip() for p in sec):
            out.append(None)
        else:
            out.append(Word(tuple(sec), word.pos))
    return out[0], out[1], out[2]


def decode_ansi_c(body: str) -> str:
    """Decode the escapes of a `$'…'` string the way bash does."""
    if "\\" not in body:
        return body

    def repl(m: re.Match[str]) -> str:
        hx, u4, u8, octal, ctl, other = m.groups()
        if hx is not None:
            return _byte(int(hx, 16))
        if u4 is not None:
            return _code_point(int(u4, 16))
        if u8 is not None:
            cp = int(u8, 16)
            return _code_point(cp) if cp <= 0x10FFFF else "\ufffd"
        if octal is not None:
            return _byte(int(octal, 8) & 0xFF)
        if ctl is not None:
            return "\x1c" if ctl == "\\" else chr(ord(ctl.upper()) & 0x1F) if ctl != "?" else "\x7f"
        assert other is not None
        return _ANSI_SIMPLE.get(other, "\\" + other)

    out = _ANSI_ESCAPE.sub(repl, body)
    if any("\udc80" <= c <= "\udcff" for c in out):
        # bytes from \xHH / \NNN escapes: reassemble them, so `$'\xc3\xa9'` is "é"
        # and a lone `$'\xff'` stays the raw byte (surrogateescape, as streams use)
        out = out.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")
    return out


def _code_point(cp: int) -> str:
    """A `\\uHHHH` escape's character; a surrogate (which UTF-8 cannot hold) becomes the
    bytes bash writes for it, ED A0 80 for U+D800, as the escapes of raw bytes."""
    if 0xD800 <= cp <= 0xDFFF:
        return "".join(_byte(b) for b in chr(cp).encode("utf-8", "surrogatepass"))
    return chr(cp)


def _byte(b: int) -> str:
    """One byte of a `$'…'` escape: ASCII as is, others as a surrogate escape."""
    return chr(b) if b < 0x80 else chr(0xDC00 + b)

