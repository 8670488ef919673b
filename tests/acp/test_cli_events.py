"""`tysh --events FILE|-` and `tysh events summarize FILE`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tysh import ToolCallLog


def tysh(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tysh", *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_events_file_gets_one_json_line_per_update(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("a\nb\n")
    r = tysh("--events", "ev.jsonl", "-c", "cat f | wc -l; sed -i s/a/A/ f", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == "2"
    lines = (tmp_path / "ev.jsonl").read_text().splitlines()
    updates = [json.loads(x) for x in lines]
    assert len(updates) == 9
    log = ToolCallLog()
    log.feed_all(updates)
    assert sorted((c.name, c.label, c.status) for c in log) == [
        ("cat", "Read", "completed"), ("sed", "Edit", "completed"),
        ("wc", "Read", "completed")]


def test_events_dash_writes_to_stderr_and_keeps_stdout_clean(tmp_path: Path) -> None:
    r = tysh("--events=-", "-c", "echo hi; false", cwd=tmp_path)
    assert r.stdout == "hi\n" and r.returncode == 1
    updates = [json.loads(x) for x in r.stderr.splitlines()]
    assert [u["status"] for u in updates] == ["pending", "in_progress", "completed",
                                              "pending", "in_progress", "failed"]


def test_events_file_that_cannot_be_opened_is_a_usage_error(tmp_path: Path) -> None:
    r = tysh("--events", str(tmp_path / "no" / "dir" / "x"), "-c", "echo hi", cwd=tmp_path)
    assert r.returncode == 2 and "--events" in r.stderr and r.stdout == ""


def test_summarize_prints_calls_grouped_by_label(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("a\n")
    tysh("--events", "ev.jsonl", "-c", "cat f; head -n1 f; ls; rm f; cat f", cwd=tmp_path)
    with (tmp_path / "ev.jsonl").open("a") as fh:
        fh.write("garbage\n")
    r = tysh("events", "summarize", "ev.jsonl", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    rows = {line.split("│")[1].strip(): [x.strip() for x in line.split("│")[2:-1]]
            for line in r.stdout.splitlines() if line.count("│") >= 6}
    assert rows["Read"][:4] == ["3", "2", "1", "0"]
    assert rows["List Files"][:2] == ["1", "1"]
    assert rows["Delete"][:2] == ["1", "1"]
    assert "1 lines skipped" in r.stdout
    # from standard input too
    r2 = tysh("events", "summarize", "-", cwd=tmp_path,
              stdin=(tmp_path / "ev.jsonl").read_text())
    assert r2.stdout.splitlines()[0] == r.stdout.splitlines()[0]


def test_summarize_of_a_missing_file_says_so(tmp_path: Path) -> None:
    r = tysh("events", "summarize", "nope.jsonl", cwd=tmp_path)
    assert r.returncode == 1 and "nope.jsonl" in r.stderr
