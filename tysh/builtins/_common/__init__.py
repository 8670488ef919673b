"""Helpers the builtin tools share: raw and verbatim args, operands, lines, file
information, cancellation, and how a command name is described."""
