"""bench/mcp_load.py at a small size: concurrent HTTP sessions give correct results,
and a client killed mid-script leaves no script running."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import mcp_load  # noqa: E402


def test_concurrent_sessions_over_http_all_correct_and_a_killed_client_stops_its_script(
) -> None:
    r = mcp_load.run(3, 12)
    assert r["calls"] == 36
    assert r["bad"] == 0
    assert r["stopped"]


def test_json_response_mode_gives_the_same_results_and_stops_a_killed_clients_script(
) -> None:
    r = mcp_load.run(2, 6, ("--json-response",))
    assert (r["calls"], r["bad"], r["stopped"]) == (12, 0, True)
