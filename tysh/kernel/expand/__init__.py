"""Words to arguments: parameter and arithmetic expansion, braces, patterns and globs."""
