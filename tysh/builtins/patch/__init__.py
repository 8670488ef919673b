"""patch: GNU patch's reading of unified, context and normal diffs (git's extended
headers too) and its way of applying them — offsets, fuzz, reversed-patch detection,
rejects and backups — through the session's filesystem."""
