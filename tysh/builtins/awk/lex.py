"""awk's lexer: program text → a list of tokens, tokenised once up front.

Whether `/` starts a regex or divides depends only on the previous token (after an
operand it divides), so the whole program can be tokenised before parsing, which lets
the parser look ahead and backtrack (`print (a, b) > f` against `print (a)(b)`).
A name directly followed by `(` is a FUNC_NAME (user calls allow no blank there)."""

from __future__ import annotations

from tysh.kernel.base.errors import TyshError
from tysh.kernel.base.lazyre import LazyRegex
from tysh.kernel.base.record import Record, frozen


class AwkSyntaxError(TyshError):
    status = 2


@frozen
class Tok(Record):
    kind: str  # NAME FUNC_NAME BUILTIN NUMBER STRING ERE NEWLINE EOF, a keyword, an operator
    value: str
    line: int
    num: float = 0.0


KEYWORDS = frozenset({
    "BEGIN", "END", "function", "func", "if", "else", "while", "for", "do", "break",
    "continue", "next", "nextfile", "exit", "return", "delete", "getline", "print",
    "printf", "in",
})
BUILTINS = frozenset({
    "length", "substr", "index", "split", "sub", "gsub", "match", "sprintf", "sin",
    "cos", "atan2", "exp", "log", "sqrt", "int", "rand", "srand", "tolower", "toupper",
    "system", "close", "fflush",
})
# longest first
_OPS = sorted([
    "+=", "-=", "*=", "/=", "%=", "^=", "**=", "**", "==", "<=", ">=", "!=", "++", "--",
    "&&", "||", ">>", "!~", "{", "}", "(", ")", "[", "]", ";", ",", "+", "-", "*", "/",
    "%", "^", "!", ">", "<", "|", "?", ":", "~", "$", "=",
], key=len, reverse=True)
# after these a `/` divides
_OPERAND_END = frozenset({"NAME", "NUMBER", "STRING", "ERE", ")", "]", "BUILTIN", "++",
                          "--"})

_NUM = LazyRegex(r"(?:0[xX][0-9a-fA-F]+)|(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)")
_NAME = LazyRegex(r"[A-Za-z_][A-Za-z0-9_]*")
_BLANK = LazyRegex(r"(?:[ \t\r]|\\\r?\n)+")
_STR_ESC = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "/": "/", "a": "\a",
            "b": "\b", "f": "\f", "v": "\v"}


def unescape(body: str) -> str:
    """Process awk's string escapes (`\\n`, `\\t`, `\\"`, `\\/`, `\\ddd` octal, and `\\xHH`
    with at most two digits, as gawk and mawk); an unknown `\\c` keeps the backslash as
    mawk does, so `"\\."` stays a literal dot in a dynamic regex."""
    if "\\" not in body:
        return body
    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        d = body[i + 1]
        if d in _STR_ESC:
            out.append(_STR_ESC[d])
            i += 2
        elif d in "01234567":
            j = i + 1
            while j < n and j < i + 4 and body[j] in "01234567":
                j += 1
            out.append(_raw_byte(int(body[i + 1:j], 8) & 0xFF))
            i = j
        elif d == "x" and i + 2 < n and body[i + 2] in _HEX:
            j = i + 3 if i + 3 < n and body[i + 3] in _HEX else i + 2
            out.append(_raw_byte(int(body[i + 2:j + 1], 16)))
            i = j + 1
        elif d == "\n":
            i += 2
        else:
            out.append("\\" + d)
            i += 2
    text = "".join(out)
    if _HAS_RAW.search(text):  # escaped bytes that spell UTF-8 become the characters they spell
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")
    return text


_HEX = frozenset("0123456789abcdefABCDEF")
_HAS_RAW = LazyRegex("[\udc80-\udcff]")


def _raw_byte(b: int) -> str:
    """An escaped byte as the text the output encoder turns back into that byte (gawk
    writes `\351` as the single byte 0xE9, not as the character é)."""
    return chr(b) if b < 0x80 else chr(0xDC00 + b)


def tokenize(src: str) -> list[Tok]:
    toks: list[Tok] = []
    i, n, line = 0, len(src), 1
    append = toks.append

    def fail(msg: str) -> AwkSyntaxError:
        return AwkSyntaxError(f"syntax error at line {line}: {msg}")

    while i < n:
        m = _BLANK.match(src, i)
        if m:
            line += m.group().count("\n")
            i = m.end()
            continue
        c = src[i]
        if c == "\n":
            append(Tok("NEWLINE", "\n", line))
            line += 1
            i += 1
            continue
        if c == "#":
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                if src[j] == "\\":
                    j += 1
                elif src[j] == "\n":
                    raise fail("unterminated string")
                j += 1
            if j >= n:
                raise fail("unterminated string")
            body = src[i + 1:j]
            append(Tok("STRING", unescape(body), line))
            line += body.count("\\\n")
            i = j + 1
            continue
        prev = toks[-1].kind if toks else ""
        if c == "/" and prev not in _OPERAND_END:
            j = i + 1
            in_br = False
            while j < n:
                d = src[j]
                if d == "\\":
                    j += 2
                    continue
                if d == "\n":
                    raise fail("unterminated regexp")
                if in_br:
                    if d == "]" and src[j - 1] != "[" and src[j - 2:j] != "[^":
                        in_br = False
                elif d == "[":
                    in_br = True
                elif d == "/":
                    break
                j += 1
            if j >= n:
                raise fail("unterminated regexp")
            append(Tok("ERE", src[i + 1:j], line))
            i = j + 1
            continue
        if c.isdigit() or (c == "." and i + 1 < n and src[i + 1].isdigit()):
            m = _NUM.match(src, i)
            assert m is not None
            text = m.group()
            if text[:2] in ("0x", "0X"):  # gawk --posix/mawk: no hex literals; 0 then x…
                text = "0"
            append(Tok("NUMBER", text, line, float(text)))
            i += len(text)
            continue
        m = _NAME.match(src, i)
        if m:
            w = m.group()
            i = m.end()
            if w in KEYWORDS:
                append(Tok("func" if w == "function" else w, w, line))
            elif w in BUILTINS:
                append(Tok("BUILTIN", w, line))
            elif i < n and src[i] == "(":
                append(Tok("FUNC_NAME", w, line))
            else:
                append(Tok("NAME", w, line))
            continue
        for op in _OPS:
            if src.startswith(op, i):
                append(Tok(op, op, line))
                i += len(op)
                break
        else:
            raise fail(f"invalid char '{c}' in expression")
    append(Tok("EOF", "", line))
    return toks
