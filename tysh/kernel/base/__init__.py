"""The leaves every stage stands on: errors, control-flow signals, values, records, limits, argv words, paths, caches and threads."""
