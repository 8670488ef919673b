"""Running a syntax tree: the interpreter, simple commands, pipelines, redirects, conditionals, session state, external programs and command lookup."""
