"""The typed route of the JSON-value DSL, checked by mypy --strict: required properties
read as T, optional ones as T | None, defaulted ones as T, enums as their Literal; and a
wrong use fails to type-check with the error expected on its line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TYPING = Path(__file__).resolve().parents[1] / "typing"


def _mypy(path: Path) -> tuple[str, int]:
    api = pytest.importorskip("mypy.api")
    out, err, status = api.run(["--strict", "--no-error-summary", "--no-incremental",
                                str(path)])
    return out + err, status


def test_the_typed_example_module_passes_mypy_strict_with_every_assert_type() -> None:
    out, status = _mypy(TYPING / "values_usage.py")
    assert status == 0, out


def test_mypy_rejects_reading_an_optional_property_as_non_optional() -> None:
    path = TYPING / "values_misuse.py"
    expected = {
        (i, m.group(1))
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if (m := re.search(r"# E: ([\w-]+)", line))
    }
    out, status = _mypy(path)
    got = {(int(m.group(1)), m.group(2))
           for m in re.finditer(r":(\d+): error: .*\[([\w-]+)\]$", out, flags=re.M)}
    assert status == 1
    assert got == expected, out
    assert 'expression has type "int | None", variable has type "int"' in out
