"""The POSIX basics: echo, printf, test and [, true, false, :."""
