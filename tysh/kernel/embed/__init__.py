"""The composition root: the Kernel an embedder constructs, with validation and planning before anything runs."""
