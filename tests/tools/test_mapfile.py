"""mapfile / readarray: what the pins (tests/conformance/pins/lang/mapfile.cases) cannot
say — the refusal of callbacks, and reading from a descriptor."""

from __future__ import annotations

from pathlib import Path

from tysh.kernel.embed.kernel import Kernel


def test_mapfile_callbacks_are_refused_with_a_hint() -> None:
    r = Kernel.isolated().execute("mapfile -C f -c 1 x < /dev/null")
    assert r.code == 2 and "not supported in tysh" in r.err


def test_mapfile_reads_from_a_file_descriptor_given_with_u(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("1\n2\n")
    r = Kernel(cwd=str(tmp_path)).execute("mapfile -t -u 0 a < f; echo ${a[1]}")
    assert r.out == "2\n"
