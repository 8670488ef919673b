"""Wrong calls mypy must reject (tests/test_public_api.py runs mypy and expects each)."""

from __future__ import annotations

from tysh import Kernel

Kernel().execute(42)  # E: arg-type
Kernel().no_such_method()  # E: attr-defined
