"""The public API: every exported name loads, the lazy table and the typed re-exports say
the same thing, mypy sees real types (a wrong call is an error), and the docs import
only from `tysh`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import tysh

ROOT = Path(__file__).resolve().parents[2]
TYPING = ROOT / "tests" / "typing"


def _typed_reexports() -> dict[str, str]:
    tree = ast.parse((ROOT / "tysh" / "__init__.py").read_text(encoding="utf-8"))
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom) and stmt.module
                for a in stmt.names:
                    assert a.asname == a.name, f"{a.name} must be re-exported as itself"
                    out[a.name] = stmt.module
    return out


def test_every_exported_name_loads_from_its_module() -> None:
    for name in tysh.__all__:
        assert getattr(tysh, name) is not None, name


def test_the_lazy_table_and_the_typed_reexports_agree() -> None:
    assert _typed_reexports() == tysh._EXPORTS


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        tysh.no_such_name  # noqa: B018


def _mypy(path: Path) -> tuple[str, int]:
    api = pytest.importorskip("mypy.api")
    out, err, status = api.run(["--strict", "--no-error-summary", str(path)])
    return out + err, status


def test_typed_use_of_the_api_passes_mypy_strict() -> None:
    out, status = _mypy(TYPING / "api_usage.py")
    assert status == 0, out


def test_mypy_rejects_each_wrong_call_and_nothing_else() -> None:
    path = TYPING / "api_misuse.py"
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


def test_docs_import_only_the_public_api() -> None:
    private = re.compile(r"^\s*(from tysh\.[\w.]+ import|import tysh\.)", flags=re.M)
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        hits = private.findall(doc.read_text(encoding="utf-8"))
        assert hits == [], f"{doc.name} imports a private path"
