"""The kernel: syntax, values, expansion, schemas, binder, output, interpreter."""
