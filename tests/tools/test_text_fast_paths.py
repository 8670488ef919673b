"""The short ways of cat, cut, sort, uniq, tr, head/tail and wc (their filters among
them) give what their general paths give: the same output, messages, status and typed
value (text mode, `--json`, `$(…)`, a pipeline's last stage and the stages before it),
for inputs and options drawn at random, read in chunks of every size. The general path is forced by putting each
tool's remembered decision back to the answer that sends it there."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tysh.builtins._common.operands as operands_mod
import tysh.builtins.text.cat as cat_mod
import tysh.builtins.text.headtail as headtail_mod
import tysh.builtins.text.sort as sort_mod
import tysh.builtins.text.tr as tr_mod
import tysh.builtins.text.uniq as uniq_mod
import tysh.builtins.text.wc as wc_mod
from tysh.builtins._common.args import by_args
from tysh.builtins._common.lines import chunks
from tysh.kernel.base.limits import Limits
from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.run import pipeline


class _NoHostReader:
    """Stands for HostReader in copy_inputs: nothing is one, so every file is copied
    by the read loop."""


def _wc_sized_plan(a: Any) -> Any:
    """wc's plan, always finding the column width from the inputs' sizes."""
    sel, names, only, show_total, _, *counted = wc_mod._plan(a)
    return (sel, names, only, show_total, True, *counted)


def _wc_counted(f: Any, words: bool, chars: bool, longest: bool) -> wc_mod.Counts:
    """wc's counts by its general counter, whatever is counted."""
    counter = wc_mod._Counter(words, chars, longest)
    for chunk in chunks(f):
        counter.feed(chunk)
    return counter.finish()


@contextmanager
def general_paths(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with monkeypatch.context() as m:
        m.setattr(sort_mod, "_plain_of", lambda a: None)
        # (a plain uniq counted through as runs, as uniq -c counts them)
        m.setattr(uniq_mod, "_how_of", lambda a: uniq_mod._refusal(a) or False)
        # (a plain cat rewritten line by line, as cat -n rewrites them)
        m.setattr(cat_mod, "_copies_of", lambda a: False)
        m.setattr(wc_mod, "_plan_of", _wc_sized_plan)
        m.setattr(wc_mod, "_count", _wc_counted)
        m.setattr(operands_mod, "HostReader", _NoHostReader)
        m.setattr(tr_mod, "_plan_by_args", tr_mod._plan_of)
        # (a stage of a pipeline run as the tool, never as its filter)
        m.setattr(pipeline, "RUN_FILTERS", False)

        def no_one(head: bool) -> Any:
            def made(a: Any) -> Any:
                got = headtail_mod._made(a, head)
                return got if isinstance(got, str) else (*got[:3], None)
            return made

        m.setattr(headtail_mod, "_head_made", no_one(True))
        m.setattr(headtail_mod, "_tail_made", no_one(False))
        yield


LINES = st.lists(st.sampled_from(["a", "b", "B", "", "a b", "é", "\t1", "10", "2"]),
                 max_size=8)


@st.composite
def inputs(draw: Any) -> bytes:
    lines = draw(LINES)
    text = "\n".join(lines)
    if lines and draw(st.booleans()):
        text += "\n"
    data = text.encode()
    if draw(st.booleans()):
        data = data.replace(b"b", b"\0")
    return data


COMMANDS = {
    "sort": ["", "-r", "-z", "-s", "-u", "-n", "-k2", "-c", "-rz", "-t, -k1", "-rn",
             "-k2,2n -u", "-f", "-bk2", "-m", "-o out"],
    "uniq": ["", "-z", "-c", "-d", "-u", "-i", "-f1", "--group"],
    "tr": ["a-z A-Z", "-d a", "-s a", "a b", "-c a x", "-ds a b"],
    "head": ["", "-n 2", "-n -2", "-c 3", "-n 0", "-z -n 1", "-n x"],
    "tail": ["", "-n 2", "-n +2", "-c 3", "-n 0", "-n +0"],
    "cat": ["", "-n", "-A", "-s"],
    "cut": ["-f1", "-d' ' -f2", "-d' ' -f2 -s", "-c1-2", "-b1 --complement", "-f1 -c1",
            "-d ab -f1", "-c2 --output-delimiter=:", "-z -f2"],
    "wc": ["", "-l", "-c", "-w", "-lc", "-m", "-L", "--total=always", "--total=only",
           "-l --total=never"],
}
# how the input reaches the tool (IN: the input file; tr reads stdin only)
OPERANDS = ["", "-", "IN", "< IN", "IN IN", "/dev/stdin", "missing", "- IN"]
# where the command runs: {} is the command
PLACES = ["{}", "cat IN | {}", "{} | cat", "x=$({}); echo \"$x\"", "{} --json",
          "cat IN | {} | head -n 1", "cat IN | {} | cat", "cat IN | cat | {0} | {0} | wc -c",
          "cat IN | {} | sort -r | uniq -c"]


def _run(k: Kernel, src: str) -> tuple[Any, ...]:
    r = k.execute(src)
    return r.code, r.out, r.err, r.data


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=inputs(), tool=st.sampled_from(sorted(COMMANDS)), pick=st.data())
def test_the_text_tools_short_ways_answer_as_their_general_paths(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: bytes, tool: str,
        pick: Any) -> None:
    options = pick.draw(st.sampled_from(COMMANDS[tool]))
    operand = "" if tool == "tr" else pick.draw(st.sampled_from(OPERANDS))
    place = pick.draw(st.sampled_from(PLACES))
    (tmp_path / "in.txt").write_bytes(data)
    cmd = f"{tool} {options} {operand}".replace("IN", "in.txt")
    # (a stage after `cat IN |` reads what it is given)
    if "< in" not in cmd and operand in ("", "-", "/dev/stdin", "- IN") and not (
            place.startswith("cat IN |")):
        cmd += " < in.txt"
    src = place.format(cmd).replace("IN", "in.txt")
    k = Kernel(cwd=str(tmp_path))
    fast = [_run(k, src) for _ in range(2)]  # the second run: the remembered answers
    with general_paths(monkeypatch):
        want = _run(Kernel(cwd=str(tmp_path)), src)
    assert fast == [want, want], src


# the modules whose reads take BIG bytes at a time, for reading in small chunks
CHUNKED = [sort_mod, uniq_mod, wc_mod, headtail_mod, tr_mod, operands_mod]
PLAIN = ["sort", "sort -r", "uniq", "wc -l", "wc", "wc -c", "head -n 2", "cat", "tr a-z A-Z"]
# lines of every kind: empty, a NUL, a byte that is not UTF-8, longer than most chunks
CHUNK_LINES = st.lists(st.sampled_from([b"", b"a", b"b", b"a b", b"\0", b"\xff", b"x" * 23,
                                        b"b" * 9]), max_size=10)


def _oracle(cmd: str, data: bytes, piped: bool) -> bytes:
    """What a plain text tool writes for `data` (from a pipe, or from the file), worked
    out here."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    ended = [ln + b"\n" for ln in lines]
    if cmd.startswith("sort"):
        return b"".join(ln + b"\n" for ln in sorted(lines, reverse=cmd == "sort -r"))
    if cmd == "uniq":
        return b"".join(ln + b"\n" for ln, _ in itertools.groupby(lines))
    if cmd.startswith("wc"):
        # (a control or a byte that is not UTF-8 is neither in a word nor between two)
        words = len(data.replace(b"\0", b"").replace(b"\xff", b"").split())
        counts = {"wc -l": [data.count(b"\n")], "wc -c": [len(data)],
                  "wc": [data.count(b"\n"), words, len(data)]}[cmd]
        # (GNU's width: a pipe's 7, a file's size's digits)
        width = 1 if len(counts) == 1 else 7 if piped else len(str(len(data)))
        return (" ".join(str(n).rjust(width) for n in counts) + "\n").encode()
    if cmd == "head -n 2":
        return b"".join(ended[:2]) if len(lines) > 2 or data.endswith(b"\n") else data
    if cmd == "tr a-z A-Z":
        return data.upper()
    return data


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=CHUNK_LINES, ended=st.booleans(), size=st.integers(1, 9),
       cmd=st.sampled_from(PLAIN), piped=st.booleans(), last=st.booleans())
def test_the_short_ways_read_input_in_chunks_of_any_size_as_the_general_paths_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lines: list[bytes], ended: bool,
        size: int, cmd: str, piped: bool, last: bool) -> None:
    data = b"\n".join(lines) + (b"\n" if ended and lines else b"")
    (tmp_path / "in.txt").write_bytes(data)
    src = f"cat in.txt | {cmd}" if piped else f"{cmd} < in.txt"
    if not last:  # a stage whose value nobody reads
        src += " | cat"
    with monkeypatch.context() as m:
        for mod in CHUNKED:
            m.setattr(mod, "BIG", size)
        k = Kernel(cwd=str(tmp_path))
        fast = [_run(k, src) for _ in range(2)]
        with general_paths(monkeypatch):
            want = _run(Kernel(cwd=str(tmp_path)), src)
    assert fast == [want, want], src
    assert want[:3] == (0, _oracle(cmd, data, piped).decode("utf-8", "surrogateescape"), ""), src


@pytest.mark.parametrize("src", [
    "yes | head -n 1", "yes | cat | head -n 1", "yes | tr y n | head -n 2",
    "seq 1000000000 | uniq | head -n 1",
])
def test_an_endless_input_still_ends_at_once(tmp_path: Path, src: str) -> None:
    r = Kernel(cwd=str(tmp_path), limits=Limits(timeout=20)).execute(src)
    assert r.code == 0 and r.out in ("y\n", "n\nn\n", "1\n")


def test_a_long_line_read_by_plain_uniq_is_charged_as_it_gathers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "big").write_bytes(b"x" * (3 << 20) + b"\nx\n")
    src = "cat big | uniq | wc -c"
    limits = Limits(max_memory=4 << 20)
    r = Kernel(cwd=str(tmp_path), limits=limits).execute(src)
    assert "uniq: memory limit of" in r.err
    with general_paths(monkeypatch):
        want = Kernel(cwd=str(tmp_path), limits=limits).execute(src)
    assert (r.code, r.out, r.err) == (want.code, want.out, want.err)
    r = Kernel(cwd=str(tmp_path)).execute(src)
    assert r.out.strip() == str((3 << 20) + 3)


@given(st.lists(st.integers(0, 40), max_size=60))
def test_by_args_answers_what_its_function_answers_for_each_args_object(
        picks: list[int]) -> None:
    objs = [object() for _ in range(41)]
    asked: list[int] = []

    def fn(a: object) -> int:
        asked.append(id(a))
        return id(a) * 7

    remembered = by_args(fn)
    for i in picks:
        assert remembered(objs[i]) == id(objs[i]) * 7
    # worked out again only when another object was asked about in between
    assert len(asked) == sum(1 for k, i in enumerate(picks) if k == 0 or picks[k - 1] != i)
