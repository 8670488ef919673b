"""The tool contract: schemas, typed parameters, the @tool decorator, the Context a tool runs with, its output and help."""
