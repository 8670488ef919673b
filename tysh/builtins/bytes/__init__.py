"""Looking at bytes: od, xxd, strings."""
