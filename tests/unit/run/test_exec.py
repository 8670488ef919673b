"""exec: persistent descriptors of the shell, `{name}` descriptors, and `exec CMD`."""

from __future__ import annotations

from pathlib import Path

from tysh import Kernel


def test_exec_redirection_persists_for_the_rest_of_the_script(tmp_path: Path) -> None:
    k = Kernel(str(tmp_path))
    r = k.execute("exec 3>f.txt; echo a >&3; echo b >&3; exec 3>&-; cat f.txt; "
                  "echo c >&3; echo status $?")
    assert r.out == "a\nb\nstatus 1\n" and "3: Bad file descriptor" in r.err


def test_exec_of_stdout_and_stderr_sends_everything_after_to_the_file(
        tmp_path: Path) -> None:
    k = Kernel(str(tmp_path))
    r = k.execute("exec >log.txt 2>&1; echo out; echo err >&2; ls nosuch")
    assert r.out == "" and r.err == ""
    text = (tmp_path / "log.txt").read_text()
    assert text.startswith("out\nerr\n") and "nosuch" in text


def test_named_descriptor_is_allocated_from_ten_and_stored(tmp_path: Path) -> None:
    k = Kernel(str(tmp_path))
    r = k.execute("exec {fd}>g.txt; echo $fd; echo x >&$fd; exec {fd}>&-; cat g.txt; "
                  "cat {in}<<<hi <&$in")
    assert r.out == "10\nx\nhi\n"


def test_exec_inside_eval_and_a_function_changes_the_callers_descriptors(
        tmp_path: Path) -> None:
    k = Kernel(str(tmp_path))
    r = k.execute("eval 'exec 3>a.txt'; f() { exec 4>b.txt; }; f; echo 1 >&3; echo 2 >&4; "
                  "exec 3>&- 4>&-; cat a.txt b.txt")
    assert r.out == "1\n2\n"


def test_exec_in_a_subshell_stays_there(tmp_path: Path) -> None:
    k = Kernel(str(tmp_path))
    assert k.execute("(exec >sub.txt; echo in); echo out; cat sub.txt").out == "out\nin\n"


def test_exec_command_ends_the_shell_with_its_status(tmp_path: Path) -> None:
    k = Kernel(str(tmp_path))
    r = k.execute("exec sh -c 'exit 3'; echo never")
    assert r.code == 127 and r.out == ""  # externals are off in this sandbox
    r = k.execute("f() { echo in f; }; exec f; echo never")  # as bash: not a function
    assert (r.code, r.out) == (127, "")
    r = k.execute("exec cat <<<piped; echo never")
    assert (r.code, r.out) == (0, "piped\n")
    r = k.execute("exec echo hi; echo never")
    assert (r.code, r.out) == (0, "hi\n")


def test_exec_files_are_closed_when_the_run_ends(tmp_path: Path) -> None:
    k = Kernel(str(tmp_path))
    k.execute("exec 3>kept.txt; echo data >&3")
    assert (tmp_path / "kept.txt").read_text() == "data\n"
    assert k.interp.exec_opened == []
