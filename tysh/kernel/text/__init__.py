"""Text engines the language and the tools share: POSIX regex translation, test expressions, printf formats."""
