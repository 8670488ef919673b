"""Arithmetic tools: expr, bc, factor, numfmt."""
