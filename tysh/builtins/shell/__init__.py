"""The shell's own commands, which act on the session: variables, control flow, read,
cd, options, source, aliases, jobs. They are the only builtins given the interpreter's
`Session` (kernel/run/session.py), by declaring `@tool(..., session=True)`."""
