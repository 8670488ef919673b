"""sed: the script parser, the interpreter and its compiled fast paths."""
