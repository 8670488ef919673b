"""The POSIX basics: echo, printf, test, true, false, :, sleep, env, timeout."""
