"""The `tysh` command line: -c, files, stdin, options, streaming and errors."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

TYSH = [sys.executable, "-m", "tysh"]


def run(*args: str, stdin: bytes = b"", cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*TYSH, *args], input=stdin, capture_output=True, cwd=cwd, timeout=60)


def test_dash_c_with_arg0_and_args() -> None:
    p = run("-c", 'echo "$0|$1|$#"', "name", "one", "two")
    assert p.returncode == 0 and p.stdout == b"name|one|2\n"


def test_exit_status_is_propagated() -> None:
    assert run("-c", "exit 7").returncode == 7


def test_script_file_with_args(tmp_path: Path) -> None:
    f = tmp_path / "s.sh"
    f.write_text("#!/usr/bin/env tysh\necho \"$0 $1\"\n")
    p = run(str(f), "arg")
    assert p.stdout == f"{f} arg\n".encode()


def test_script_from_stdin() -> None:
    p = run(stdin=b"echo from-stdin\n")
    assert p.stdout == b"from-stdin\n"


def test_syntax_error_prints_position_and_caret_and_runs_nothing() -> None:
    p = run("-c", "echo ran\nfi")
    assert p.returncode == 2
    assert p.stdout == b""
    err = p.stderr.decode()
    assert err.startswith("tysh: syntax error at 2:1:")
    assert "^" in err


def test_no_external_flag_disables_path_lookup() -> None:
    p = run("--no-external", "-c", "hostid")
    assert p.returncode == 127 and b"command not found" in p.stderr


def test_externals_are_on_by_default_and_write_to_fd1() -> None:
    p = run("-c", "echo a; id -u; echo b")
    assert p.stdout.splitlines()[0] == b"a" and p.stdout.splitlines()[-1] == b"b"
    assert len(p.stdout.splitlines()) == 3


def test_version_and_help() -> None:
    assert run("--version").stdout.startswith(b"tysh ")
    assert b"usage" in run("--help").stdout


def test_set_options_from_the_command_line() -> None:
    p = run("-e", "-c", "false; echo no")
    assert p.returncode == 1 and p.stdout == b""


def test_real_environment_is_passed() -> None:
    env = dict(os.environ, TYSH_CLI_TEST="seen")
    p = subprocess.run([*TYSH, "-c", "echo $TYSH_CLI_TEST"], capture_output=True, env=env, timeout=60)
    assert p.stdout == b"seen\n"


def test_pipeline_into_head_returns_at_once() -> None:
    t = time.perf_counter()
    p = run("-c", "seq 1 100000000 | head -n 1")
    assert p.stdout == b"1\n"
    assert time.perf_counter() - t < 10


def test_output_streams_before_the_script_ends(tmp_path: Path) -> None:
    proc = subprocess.Popen([*TYSH, "-c", "echo first; sleep 2; echo second"],
                            stdout=subprocess.PIPE)
    assert proc.stdout is not None
    t = time.perf_counter()
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - t
    proc.wait(timeout=30)
    assert line == b"first\n" and elapsed < 1.8


def test_a_script_ending_without_teardown_still_delivers_all_output_and_files(
        tmp_path: Path) -> None:
    # `tysh` leaves with os._exit after a script: nothing written may be lost by that
    p = run("-c", "seq 200000; seq 50000 > big.txt; printf 'no newline'; exit 7", cwd=tmp_path)
    assert p.returncode == 7
    lines = p.stdout.split(b"\n")
    assert len(lines) == 200001 and lines[-1] == b"no newline"
    assert (tmp_path / "big.txt").read_bytes().count(b"\n") == 50000


def test_unbound_variable_ends_a_dash_c_script_with_127_and_a_file_or_stdin_with_1(
        tmp_path: Path) -> None:
    assert run("-c", "set -u; echo $nope; echo unreached").returncode == 127
    p = run(stdin=b"set -u\necho $nope\necho unreached\n")
    assert p.returncode == 1 and p.stdout == b"" and b"nope: unbound variable" in p.stderr
    f = tmp_path / "s.sh"
    f.write_text("echo ${nope?gone}\necho unreached\n")
    p = run(str(f))
    assert p.returncode == 1 and p.stdout == b"" and b"gone" in p.stderr


def test_compat_bash_splits_and_globs_unquoted_expansions(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("")
    script = 'x="1  2"; g="*.txt"; printf "<%s>" $x $g; echo'
    assert run("-c", script, cwd=tmp_path).stdout == b"<1  2><*.txt>\n"
    assert run("--compat", "bash", "-c", script, cwd=tmp_path).stdout == b"<1><2><a.txt>\n"
    assert run("--compat=bash", "-c", "set -o | grep -w sh_word_split").stdout.split() == [
        b"sh_word_split", b"on"]
    p = run("--compat", "zsh", "-c", "echo hi")
    assert p.returncode == 2 and b"unknown mode" in p.stderr


def test_flags_are_read_as_bash_reads_them(tmp_path: Path) -> None:
    assert run("-c", "-x", "echo hi").stdout == b"hi\n"  # -x is a flag, not the script
    assert run("-c", "--", "echo two").stdout == b"two\n"
    assert run("-oo", "errexit", "noglob", "-c", "echo $-").stdout == b"efhBc\n"
    assert run("+c", "echo plus").stdout == b"plus\n"
    assert run("--login", "-c", "exit 3").returncode == 3
    assert run("-c", "-z", "echo z").returncode == 2
    assert run("-O", "nullglob", "-c", "shopt -p nullglob").stdout == b"shopt -s nullglob\n"
    f = tmp_path / "s.sh"
    f.write_text("echo from-file\n")
    assert run("-e", "-", str(f)).stdout == b"from-file\n"


def test_home_is_not_invented_and_the_environment_cannot_set_uid() -> None:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "UID": "xx"}
    p = subprocess.run([*TYSH, "-c", 'echo "[${HOME-unset}] $UID"'], capture_output=True,
                       env=env, timeout=60)
    assert p.stdout == f"[unset] {os.getuid()}\n".encode()


def test_dash_i_marks_the_shell_interactive_and_set_u_ends_only_the_line() -> None:
    p = run("-i", "-c", 'case $- in *i*) echo interactive;; esac; test -o emacs && echo emacs\n'
            "set -u; echo $nope; echo same-line\necho next-line")
    assert p.stdout == b"interactive\nemacs\nnext-line\n" and p.returncode == 0


def test_exit_with_too_many_arguments_goes_on_in_a_script_file_and_ends_a_dash_c(
        tmp_path: Path) -> None:
    script = "exit 7 8 9\necho status=$?\n"
    f = tmp_path / "s.sh"
    f.write_text(script)
    for p in (run(str(f)), run(stdin=script.encode())):  # as bash: status 1, the script goes on
        assert (p.returncode, p.stdout) == (0, b"status=1\n")
        assert b"exit: too many arguments" in p.stderr
    p = run("-c", script)
    assert (p.returncode, p.stdout) == (1, b"")
