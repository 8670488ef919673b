"""Files and directories: ls, find, cp, mv, rm and friends, stat, du, tree."""
