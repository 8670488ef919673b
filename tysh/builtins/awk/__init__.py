"""awk: lexer, parser, compiler to Python closures, runtime, values and formatting."""
