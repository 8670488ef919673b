"""Text tools: cat, head, tail, sort, uniq, cut, tr, wc and the rest of the line-oriented family."""
