"""Tools that run other commands: xargs, nohup, nice."""
