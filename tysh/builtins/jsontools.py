"""The JSON family: jq (libjq semantics, jq 1.6 output) and the typed-value tools
fromjson tojson keys values typeof split. Importing this module does not load libjq;
jq imports it on first use."""

from __future__ import annotations

from tysh.builtins.json_jq import jq
from tysh.builtins.json_values import fromjson, keys, split, tojson, typeof, values
from tysh.kernel.tooldef import Tool

TOOLS: list[Tool] = [jq, fromjson, tojson, keys, values, typeof, split]
