"""Helpers the builtin tools share: operands, lines, file information, cancellation."""
