"""Argv to typed arguments: the schema-driven binder, its fast paths, and conversion to a tool's args class."""
