"""numfmt: invalid numbers and typed output. Results checked against GNU numfmt are
tests/conformance/pins/tools/numfmt.cases."""

from __future__ import annotations

import json

from tysh import Kernel


def run(script: str, files: dict[str, str] | None = None) -> tuple[str, str, int]:
    res = Kernel.isolated(files=files or {}).execute(script)
    return res.text_out(), res.err, res.code


def test_numfmt_invalid_number_aborts_with_status_2() -> None:
    assert run("numfmt abc 12") == ("", "numfmt: invalid number: 'abc'\n", 2)
    assert run("numfmt 1K")[1] == "numfmt: rejecting suffix in input: '1K' (consider using --from)\n"


def test_numfmt_invalid_warn_passes_through() -> None:
    assert run("numfmt --invalid=warn abc 12") == ("abc\n12\n", "numfmt: invalid number: 'abc'\n", 0)


def test_numfmt_json_values() -> None:
    assert json.loads(run("numfmt --json --to=iec 2048 1")[0]) == ["2.0K", "1"]
