"""JSON tools: jq and the typed-value helpers (fromjson, tojson, keys, values, typeof, split)."""
