"""date: formats, the session's TZ, -I/-R, relative inputs and -f, through the binder
and a kernel. The GNU pins (-d items, formats, precisions) are
tests/conformance/pins/tools/date.cases."""

from __future__ import annotations

from pathlib import Path

from harness import FakeShell, invoke
from harness_text import run as text_run

from tysh.builtins import get_builtin
from tysh.builtins.system.date import render
from tysh.kernel.base.argv import classify
from tysh.kernel.embed.kernel import Kernel


def _shell(tmp: Path, **vars: str) -> FakeShell:
    from harness_text import _child

    return FakeShell(str(tmp), vars=dict(vars), child=_child)


def _date(tmp: Path, *argv: str, tz: str = "UTC") -> str:


    tool = get_builtin("date")
    r = invoke(tool, "date", classify(list(argv)), _shell(tmp, TZ=tz))
    return r.out.decode() if r.code == 0 else f"{r.code}:{r.err.decode()}"


def _kernel(tmp: Path) -> Kernel:
    k = Kernel(cwd=str(tmp))
    k.execute("TZ=UTC")
    return k


def _ours(k: Kernel, argv: list[str], stdin: bytes = b"") -> tuple[int, bytes, str]:
    r = k.execute_argv(argv[0], argv[1:], stdin, binary=True)
    out = r.out if isinstance(r.out, bytes) else r.out.encode()
    return r.code, out, r.err


def test_date_epoch_and_formats(tmp_path: Path) -> None:
    assert _date(tmp_path, "-d", "@1700000000") == "Tue Nov 14 22:13:20 UTC 2023\n"
    assert _date(tmp_path, "-d", "@1700000000", "+%F %T %s %:z %P %-d %_m|%e") == (
        "2023-11-14 22:13:20 1700000000 +00:00 pm 14 11|14\n")


def test_date_respects_the_session_tz(tmp_path: Path) -> None:
    assert _date(tmp_path, "-d", "@0", "+%H:%M %Z %z", tz="Asia/Tokyo") == "09:00 JST +0900\n"
    assert _date(tmp_path, "-u", "-d", "@0", "+%H", tz="Asia/Tokyo") == "00\n"


def test_date_iso_rfc_options(tmp_path: Path) -> None:
    assert _date(tmp_path, "-I", "-d", "@0") == "1970-01-01\n"
    assert _date(tmp_path, "--iso-8601=ns", "-d", "@0.5") == (
        "1970-01-01T00:00:00,500000000+00:00\n")
    assert _date(tmp_path, "-R", "-d", "@0") == "Thu, 01 Jan 1970 00:00:00 +0000\n"


def test_date_relative_and_iso_inputs(tmp_path: Path) -> None:
    assert _date(tmp_path, "-d", "2024-01-31 + 1 month", "+%F") == "2024-03-02\n"
    assert _date(tmp_path, "-d", "2024-03-10 3 days ago", "+%F") == "2024-03-07\n"
    assert _date(tmp_path, "-d", "2024-01-31T12:00:00+02:00", "+%T") == "10:00:00\n"


def test_date_invalid_input_is_gnus_error(tmp_path: Path) -> None:
    assert _date(tmp_path, "-d", "xyz") == "1:date: invalid date 'xyz'\n"


def test_date_json_gives_epoch_and_iso(tmp_path: Path) -> None:
    assert text_run(["date", "--json", "-u", "-d", "@0"], tmp_path).json() == {
        "epoch": 0, "iso": "1970-01-01T00:00:00+00:00"}


def test_date_render_flags_and_widths() -> None:
    from datetime import UTC, datetime

    dt = datetime(2024, 3, 5, 7, 8, 9, tzinfo=UTC)
    assert render("%^a %10A|%-H %_H %3N %k%l", dt, 0, 123456789) == (
        "TUE    Tuesday|7  7 123  7 7")


def test_date_f_reads_one_date_per_line_and_reports_bad_ones(tmp_path: Path) -> None:
    (tmp_path / "dates").write_text("2020-01-05\nbogus\n@0\n")
    code, out, err = _ours(_kernel(tmp_path), ["date", "-f", "dates", "+%s"])
    assert (code, out) == (1, b"1578182400\n0\n")
    assert err == "date: invalid date 'bogus'\n"
