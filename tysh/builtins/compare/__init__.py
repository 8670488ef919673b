"""Comparing files: diff, cmp, comm."""
