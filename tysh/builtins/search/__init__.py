"""Searching text: grep."""
