from tysh.cli import entry

entry()
