"""The shell's own commands, which act on the session: variables, control flow, read, cd, options, source, aliases."""
