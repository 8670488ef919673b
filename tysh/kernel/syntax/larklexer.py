"""The adapter Lark is configured with; imported only when Lark itself is needed (the
grammar's tables are compiled, or `Lark.parse` is called for debugging)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from lark.lexer import Lexer, LexerState, Token

from tysh.kernel.syntax.lexer import Scanner


class LarkShellLexer(Lexer):
    """The lexer Lark is configured with: tysh.lark declares its terminals without patterns.

    The parser module drives Lark's LALR tables itself, straight from `Scanner.tokens()`;
    this adapter makes `Lark.parse(scanner)` work too (for debugging and tests), wrapping
    the tuples as Lark Tokens. It must live at module level: Lark pickles it in its cache.
    """

    __future_interface__ = 2  # Lark calls lex(lexer_state, parser_state) directly

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        scanner = lexer_state.text
        assert isinstance(scanner, Scanner)
        for ty, value, start, _end in scanner.tokens():
            line, col = scanner.src.line_col(start)
            yield Token(ty, value, start, line, col)
