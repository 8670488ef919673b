"""Every ```python example in docs/embedding.md runs and its assertions hold — the guide
cannot drift from the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "embedding.md"
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def _examples() -> list[tuple[int, str]]:
    text = DOC.read_text()
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in BLOCK.finditer(text)]


def test_the_guide_has_examples() -> None:
    assert len(_examples()) >= 10


@pytest.mark.parametrize(("line", "code"), _examples(), ids=[f"line{n}" for n, _ in _examples()])
def test_example_runs_and_its_assertions_hold(line: int, code: str, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert "assert" in code, f"the example at line {line} checks nothing"
    exec(compile(code, f"{DOC.name}:{line}", "exec"), {"__name__": "__doc_example__"})


def test_the_readme_example_prints_what_its_comment_says(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    readme = (DOC.parents[1] / "README.md").read_text()
    [code] = BLOCK.findall(readme)
    said = [line.split("# ", 1)[1] for line in code.splitlines()
            if line.startswith("print(") and "# " in line]
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {"__name__": "__doc_example__"})
    assert capsys.readouterr().out.splitlines() == said
