"""Running other commands, and waiting: env, timeout, sleep, xargs, nohup, nice."""
