"""Process substitution: `<(…)` and `>(…)` name a pipe that builtins open through the
session (in a sandbox too) and external programs inherit."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tysh import Kernel


@pytest.fixture
def k(tmp_path: Path) -> Kernel:
    (tmp_path / "a.txt").write_text("b\na\n")
    (tmp_path / "b.txt").write_text("a\nc\n")
    return Kernel(str(tmp_path))


def test_builtins_read_the_names_in_a_sandbox(k: Kernel) -> None:
    r = k.execute("diff <(sort a.txt) <(sort b.txt); echo status $?")
    assert r.out == "2c2\n< b\n---\n> c\nstatus 1\n"
    assert k.execute("cat <(echo one) <(echo two)").out == "one\ntwo\n"


def test_the_name_is_a_dev_fd_path(k: Kernel) -> None:
    assert k.execute("echo <(true)").out.startswith("/dev/fd/")


def test_redirect_from_a_substitution_feeds_a_loop(k: Kernel) -> None:
    r = k.execute('n=0; while read l; do n=$((n+1)); echo "got $l"; done < <(printf "x\\ny\\n");'
                  ' echo "n=$n"')
    assert r.out == "got x\ngot y\nn=2\n"  # the loop ran in this shell


def test_output_substitution_receives_what_the_command_writes(k: Kernel) -> None:
    assert k.execute("printf 'a\\nb\\n' | tee >(wc -l) >/dev/null").out.strip() == "2"


def test_a_reader_that_stops_early_ends_an_endless_writer(k: Kernel) -> None:
    r = k.execute("head -n 1 <(yes); echo done", timeout=10)
    assert (r.code, r.out) == (0, "y\ndone\n")


def test_other_dev_fd_names_still_go_to_the_sandbox(k: Kernel) -> None:
    # (a number no substitution's descriptor can have, however many the process holds)
    r = k.execute("cat <(echo x) /dev/fd/100000")
    assert r.out == "x\n" and r.code == 1


def test_a_substitution_named_again_after_it_was_read_reads_as_ended(k: Kernel) -> None:
    r = k.execute('f() { cat "$1" "$1"; echo $?; }; f <(echo x)')
    assert (r.code, r.out, r.err) == (0, "x\n0\n", "")


@pytest.mark.skipif(shutil.which("diff") is None, reason="needs a host diff")
def test_external_programs_receive_a_real_pipe(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("b\na\n")
    k = Kernel(str(tmp_path), allow_external=True)
    r = k.execute(f"{shutil.which('diff')} <(sort a.txt) <(printf 'a\\nb\\n'); echo $?")
    assert r.out == "0\n"
