"""The REPL driven through a real pseudo-terminal (pexpect).

prompt_toolkit switches bracketed paste on when it starts reading a line (`ESC[?2004h`)
and off when it hands the line over (`ESC[?2004l`), so a command's output is exactly what
the terminal receives between the two. The test prompt is `tysh[STATUS]% ` (a
`tysh_prompt` function in the init file). Every wait has a timeout; the module skips when
no pty can be opened."""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent  # test_repl_complete.py, the KV plugin
PASTE_ON = "\x1b[?2004h"
PASTE_OFF = "\x1b[?2004l"
PROMPT = re.compile(r"tysh\[(\d+)\]%")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
INIT = """\
tysh_prompt() { printf 'tysh[%s]%% ' "$?"; }
alias ll='ls -1'
export FROM_INIT=yes
"""


def _pty_available() -> bool:
    try:
        import pty

        a, b = pty.openpty()
        os.close(a)
        os.close(b)
        return True
    except OSError:
        return False


pytestmark = pytest.mark.skipif(
    not _pty_available() or sys.platform == "win32", reason="no pseudo-terminal"
)


class Term:
    """A tysh REPL on a pty, with helpers that wait for prompts and collect output."""

    def __init__(self, cwd: Path, home: Path, init: str | None = INIT, **extra: str) -> None:
        init_file = home / "init.tysh"
        if init is not None:
            init_file.write_text(init)
        env = {
            "HOME": str(home),
            "PATH": str(home / "bin") + ":" + os.path.dirname(sys.executable),
            "TERM": "xterm-256color",
            "TYSH_HISTFILE": str(home / "history"),
            "TYSH_INIT": str(init_file) if init is not None else "/nonexistent",
            "TYSH_PLUGINS": "test_repl_complete:KV",
            "PYTHONPATH": str(HERE),
            "PROMPT_TOOLKIT_NO_CPR": "1",
            "LANG": "C.UTF-8",
            **extra,
        }
        self.started = time.perf_counter()
        self.child: Any = pexpect.spawn(
            sys.executable, ["-m", "tysh"], cwd=str(cwd), env=env, dimensions=(40, 120),
            encoding="utf-8", timeout=10,
        )
        self.child.expect_exact(PASTE_ON)
        self.startup = time.perf_counter() - self.started

    def run(self, line: str) -> str:
        """Type a line, press Enter, and return the command's output (ANSI kept)."""
        self.child.send(line + "\r")
        self.child.expect_exact(PASTE_OFF)
        self.child.expect_exact(PASTE_ON)
        out: str = self.child.before
        return out

    def status(self) -> int:
        self.child.expect(PROMPT)
        return int(self.child.match.group(1))

    def close(self) -> None:
        if self.child.isalive():
            self.child.sendeof()
            try:
                self.child.expect(pexpect.EOF, timeout=3)
            except pexpect.TIMEOUT:
                self.child.terminate(force=True)


def plain(text: str) -> str:
    return ANSI.sub("", text)


@pytest.fixture
def term(tmp_path: Path) -> Iterator[Term]:
    home = tmp_path / "home"
    home.mkdir()
    (home / "bin").mkdir()
    work = tmp_path / "work"
    work.mkdir()
    (work / "notes.txt").write_text("one\ntwo\n")
    (work / "data.json").write_text('{"a": 1}\n')
    t = Term(work, home)
    yield t
    t.close()


def test_typed_command_prints_its_output(term: Term) -> None:
    assert "hello world" in plain(term.run("echo hello world"))
    assert term.status() == 0


def test_startup_to_first_prompt_is_measured(term: Term) -> None:
    # the budget is 300 ms on an idle machine; CI machines are noisy, so allow slack here
    print(f"startup to first prompt: {term.startup * 1000:.0f} ms")
    assert term.startup < 3.0


def test_tab_completes_command_name(term: Term) -> None:
    term.child.send("gre\t")
    term.child.expect_exact("p")  # the rest of `grep` is drawn
    out = plain(term.run(" -c o notes.txt"))  # runs only if `gre` became `grep`
    assert out.strip() == "2"
    assert term.status() == 0


def test_tab_completes_long_flag(term: Term) -> None:
    term.child.send("grep --ign\t")
    term.child.expect_exact("ore-case")
    out = plain(term.run(" ONE notes.txt"))
    assert out.strip() == "one"


def test_tab_completes_subcommand_of_two_level_tool(term: Term) -> None:
    term.child.send("kv sto\t")
    term.child.expect_exact("re")
    term.child.send(" ge\t")
    term.child.expect_exact("t")
    term.child.send(" k1")  # runs only as `kv store get k1`
    out = term.run("")
    assert "value of k1" in plain(out)


def test_tab_completes_file_name(term: Term) -> None:
    term.child.send("cat no\t")
    term.child.expect_exact("tes.txt")
    out = plain(term.run(""))
    assert "one\ntwo" in out.replace("\r", "")


def test_multiline_if_over_three_lines(term: Term) -> None:
    term.child.send("if true\r")
    term.child.expect_exact(">")
    term.child.send("then echo yes-multi\r")
    term.child.expect_exact(">")
    out = plain(term.run("fi"))
    assert "yes-multi" in out
    assert term.status() == 0


def test_ctrl_c_interrupts_sleep_within_a_second(term: Term) -> None:
    term.child.send("sleep 10\r")
    term.child.expect_exact(PASTE_OFF)
    time.sleep(0.3)
    t0 = time.perf_counter()
    term.child.sendintr()
    term.child.expect_exact(PASTE_ON, timeout=5)
    assert term.status() == 130
    assert time.perf_counter() - t0 < 1.0


def test_ctrl_c_cancels_the_line_and_ctrl_d_exits(term: Term) -> None:
    term.child.send("echo never")
    term.child.expect_exact("never")
    term.child.sendintr()
    term.child.expect_exact(PASTE_OFF)
    term.child.expect_exact(PASTE_ON)
    assert term.status() == 130
    assert "hi" in plain(term.run("echo hi"))
    term.child.sendeof()
    term.child.expect(pexpect.EOF, timeout=5)


def test_exit_ends_the_shell_with_its_status(term: Term) -> None:
    term.child.send("exit 3\r")
    term.child.expect(pexpect.EOF, timeout=5)
    term.child.close()
    assert term.child.exitstatus == 3


def test_history_is_recalled_in_a_second_session(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "bin").mkdir(parents=True)
    first = Term(tmp_path, home)
    first.run("echo remembered-line")
    first.close()
    second = Term(tmp_path, home)
    try:
        second.child.send("\x1b[A")  # Up: the previous session's line
        second.child.expect_exact("remembered-line")
        assert "remembered-line" in plain(second.run(""))
    finally:
        second.close()


def test_ls_json_is_pretty_printed(term: Term) -> None:
    out = plain(term.run("ls --json"))
    assert "[\n" in out.replace("\r", "") and '  "' in out  # indented, one entry a line


def test_table_has_borders_on_terminal_and_plain_text_in_pipe(term: Term) -> None:
    boxed = plain(term.run("tools grep ls"))
    assert "╭" in boxed and "│ grep" in boxed
    piped = plain(term.run("tools grep ls | cat"))
    assert "╭" not in piped and "│" not in piped
    assert "grep\tprint lines" in piped


def test_syntax_error_is_red_with_caret(term: Term) -> None:
    out = term.run("echo a | | b")
    assert "\x1b[1;31m" in out
    text = plain(out)
    assert "syntax error" in text and "^" in text
    assert term.status() == 2


def test_init_file_defines_aliases_and_exports(term: Term) -> None:
    out = plain(term.run("ll; echo $FROM_INIT"))
    assert "notes.txt" in out and "yes" in out


def test_default_prompt_shows_cwd_and_failed_status(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "bin").mkdir(parents=True)
    t = Term(home, home, init=None)
    try:
        t.run("false")
        t.child.expect(re.compile(r"~.*\[1\].*\$"))
    finally:
        t.close()


def test_ctrl_c_interrupts_an_external_command(term: Term) -> None:
    exe = os.path.basename(sys.executable)
    term.child.send(f"{exe} -c 'import time; print(\"start\" + \"ed\", flush=True); time.sleep(10)'\r")
    term.child.expect_exact(PASTE_OFF)
    term.child.expect_exact("started")  # printed by the child, not the echo of the line
    t0 = time.perf_counter()
    term.child.sendintr()
    term.child.expect_exact(PASTE_ON, timeout=5)
    assert term.status() == 130
    assert time.perf_counter() - t0 < 1.0
    assert "ok" in plain(term.run("echo ok"))


def _interrupt_early(term: Term, delay: float) -> float:
    """Type `sleep 10`, Enter, and Ctrl-C `delay` seconds after Enter (not waiting for
    anything the shell draws): the seconds until the next prompt."""
    term.child.send("sleep 10\r")
    t0 = time.perf_counter()
    time.sleep(delay)
    term.child.sendintr()
    term.child.expect_exact(PASTE_OFF, timeout=5)
    term.child.expect_exact(PASTE_ON, timeout=5)
    took = time.perf_counter() - t0
    assert term.status() == 130
    return took


@pytest.mark.parametrize("delay", [0.05, 0.2, 0.5])
def test_ctrl_c_right_after_enter_cancels_the_first_command(tmp_path: Path,
                                                            delay: float) -> None:
    home = tmp_path / "home"
    (home / "bin").mkdir(parents=True)
    t = Term(tmp_path, home)
    try:
        assert _interrupt_early(t, delay) < 1.5
        assert "ok" in plain(t.run("echo ok"))
    finally:
        t.close()


def test_ctrl_c_right_after_enter_cancels_a_later_command(term: Term) -> None:
    assert "hi" in plain(term.run("echo hi"))
    for delay in (0.05, 0.2, 0.5, 0.0):
        assert _interrupt_early(term, delay) < 1.5, delay
    assert "ok" in plain(term.run("echo ok"))
