"""Source text to syntax tree and back: the lexer, the Lark LALR parser, the AST, walks over it and the unparser."""
