"""Pipelines of builtin filters run their stages in turn on the calling thread, holding
each stage's output in memory, and switch to concurrent stages joined by pipes as soon
as a stage writes more than a pipe holds; any other pipeline runs concurrently."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harness import events_run

from tysh.kernel.base.limits import Limits
from tysh.kernel.base.threads import NoThread
from tysh.kernel.embed.kernel import Kernel
from tysh.kernel.run import pipeline


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The stage threads the pipelines start (their names). The test process's own
    threads (left by earlier tests, a test runner's) are not counted as a host's: the
    tests here pin what runs in turn when the host has none."""
    monkeypatch.setattr(pipeline, "_host_threads", lambda: False)
    names: list[str] = []
    real = pipeline.start_deep

    def spy(t: threading.Thread) -> None:
        names.append(t.name)
        real(t)

    monkeypatch.setattr(pipeline, "start_deep", spy)
    return names


def test_builtin_filters_over_small_input_start_no_thread(
        kernel: Kernel, tmp_path: Path, started: list[str]) -> None:
    (tmp_path / "in.txt").write_text("pear\napple\nfig\napple\nkiwi\n")
    r = kernel.execute("cat in.txt | sort | uniq | tr a-z A-Z | head -n 2; "
                       "echo ${PIPESTATUS[@]}")
    assert (r.code, r.out, r.err) == (0, "APPLE\nFIG\n0 0 0 0 0\n", "")
    assert started == []


def test_output_past_the_bound_streams_into_the_later_stages(
        kernel: Kernel, started: list[str]) -> None:
    r = kernel.execute("yes | head -n 2; echo ${PIPESTATUS[@]}")
    assert (r.code, r.out) == (0, "y\ny\n141 0\n")
    assert started == ["tysh-stage"]
    r = kernel.execute("seq 1 200000 | sort -n | tail -n 1; echo ${PIPESTATUS[@]}")
    assert (r.code, r.out) == (0, "200000\n0 0 0\n")
    r = kernel.execute("yes | head -c 20 | wc -c; echo ${PIPESTATUS[@]}")
    assert (r.code, r.out) == (0, "20\n141 0 0\n")
    # the bound passed in a middle stage: the stages before it already ran in turn
    r = kernel.execute("echo x | yes | tr y z | head -n 1; echo ${PIPESTATUS[@]}")
    assert (r.code, r.out) == (0, "z\n0 141 141 0\n")


def test_a_writer_that_ends_into_a_reader_that_read_nothing_ends_with_0(
        kernel: Kernel, started: list[str]) -> None:
    r = kernel.execute("printf 'a\\nb\\nc\\n' | head -n 1; echo ${PIPESTATUS[@]}")
    assert r.out == "a\n0 0\n"
    r = kernel.execute("set -o pipefail; false | true; echo $?; true | false; echo $?; "
                       "false | true | true; echo ${PIPESTATUS[@]}")
    assert r.out == "1\n1\n1 0 0\n"


def test_a_stage_run_in_turn_is_a_subshell(kernel: Kernel, started: list[str]) -> None:
    r = kernel.execute('x=1; printf -v x %s 2 | cat; echo "$x"; '
                       ': ${y:=set} | cat; echo "[$y]"; '
                       'a=(p q); echo ${a[i++]} $((j++)) | cat; echo "[$i$j]"; '
                       'echo ${x:k++:1} | cat; echo "[$k]"; [ -v "a[m++]" ] | cat; echo "[$m]"')
    assert r.out == "1\n[]\np 0\n[]\n1\n[]\n[]\n"
    r = kernel.execute('declare -n r="a[n++]"; echo $r | cat; echo "[$n]"')
    assert r.out == "p\n[]\n"


def test_a_stage_that_only_reads_variables_sees_them_and_the_session_keeps_them(
        kernel: Kernel, started: list[str]) -> None:
    r = kernel.execute('x=hello; f() { local l=in; echo "$x $l ${x^^} ${#x}" | tr a-z A-Z '
                       '| cat; }; f; echo "$x [${l-}]"; echo "$_"')
    assert r.out == "HELLO IN HELLO 5\nhello []\nhello []\n"


def test_a_stage_that_changes_nothing_reads_the_sessions_functions_options_and_arguments(
        kernel: Kernel, started: list[str]) -> None:
    r = kernel.execute("set -- a b; set -o pipefail; f() { :; }; alias ll='ls -l'; "
                       'echo "$1 $#" | cat; echo x | type -t f | cat; echo x | test -o pipefail; '
                       'echo $?; type ll | tr a-z A-Z | cat; echo "$@ ${PIPESTATUS[*]}"')
    assert (r.out, r.err) == ("a 2\nfunction\n0\nLL IS ALIASED TO `LS -L'\na b 0 0 0\n", "")
    assert started == []


def test_a_trap_that_assigns_in_a_stage_assigns_in_the_stages_own_copy(
        kernel: Kernel, started: list[str]) -> None:
    # bash: the DEBUG trap runs in each stage's subshell too (set -T), counting there
    r = kernel.execute("set -T; y=0; trap 'y=$((y+1))' DEBUG; echo a | cat | cat; "
                       'trap - DEBUG; echo "y=$y"')
    assert r.out == "a\ny=4\n"
    assert started == []


@pytest.mark.parametrize("script", [
    "sleep 0 | cat",  # waits on a clock
    "f() { cat; }; echo x | f",  # a function
    "echo x | { cat; }",  # a compound command
    "echo $(echo x) | cat",  # a command substitution
    "echo x | tail -f /dev/null -n 1 --pid=1 | head -c 0",  # tail may follow
    "echo x | tail -n1 $opt",  # tail's words known only when it runs
    "echo x | awk '{ system(\"true\") }'",  # awk may run a command
    "echo x | cat > out.txt",  # a redirection to a file
    "echo x | x=1 cat",  # a prefix assignment
    "echo x | xargs echo",  # a builtin that runs commands
])
def test_stages_that_could_wait_on_something_else_run_concurrently(
        kernel: Kernel, started: list[str], script: str) -> None:
    r = kernel.execute(script, timeout=10)
    assert r.code == 0, r.err
    assert started


def _in_turn(k: Kernel, src: str, fds: dict[int, Any]) -> Any:
    """What `pipeline._in_turn` answers for the pipeline `src`."""
    cmds = k.parse(src).statements[0].body.first.commands
    return pipeline._in_turn(k.interp, pipeline._staged(k.interp, cmds), fds)


def test_input_from_a_pipe_or_terminal_is_not_read_in_turn(
        tmp_path: Path, started: list[str]) -> None:
    k = Kernel(cwd=str(tmp_path))
    fds: dict[int, Any]
    r, w = os.pipe()
    os.write(w, b"b\na\n")
    os.close(w)
    out = io.BytesIO()
    with open(r, "rb") as stdin:
        fds = {0: stdin, 1: out, 2: io.BytesIO()}
        assert not _in_turn(k, "sort | cat", fds)
        # a first stage that never reads its input runs in turn whatever that input is
        assert _in_turn(k, "echo a | cat", fds)


@pytest.mark.parametrize(("src", "given"), [
    ("grep -r x | cat", True), ("grep -rn x . | cat", True), ("grep -Rl x d | cat", True),
    ("grep --recursive x | cat", True), ("grep -n x f.txt | cat", True),
    ("grep x f.txt g.txt | wc -l", True), ("grep -ciw x f.txt | cat", True),
    ("grep x | cat", False), ("grep -n x | cat", False), ("grep -r x - | cat", False),
    ("grep x /dev/stdin | cat", False), ("grep x /proc/self/fd/0 | cat", False),
    ("grep -e x f.txt | cat", False), ("grep -f pats f.txt | cat", False),
    ("grep -m1 x f.txt | cat", False), ("grep -A 1 x | cat", False),
    ("grep -- -r x | cat", False), ("grep --include=*.c x | cat", False),
    ("grep $p f.txt | cat", False), ("sort f.txt | cat", False),
])
def test_a_first_stage_given_files_runs_in_turn_whatever_its_input(
        tmp_path: Path, src: str, given: bool) -> None:
    """grep searching recursively or given files never reads its standard input, so a
    pipe or terminal there cannot keep it waiting; any other words count as reading."""
    k = Kernel(cwd=str(tmp_path))
    r, w = os.pipe()
    os.close(w)
    with open(r, "rb") as stdin:
        fds = {0: stdin, 1: io.BytesIO(), 2: io.BytesIO()}
        assert bool(_in_turn(k, src, fds)) == given


def test_a_recursive_grep_into_a_pipeline_reads_the_files_not_its_input(
        tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "f.txt").write_text("a needle\nno\n")
    script = "grep -rn needle . | wc -l; grep needle | wc -l; grep -c needle d/f.txt | cat"
    p = subprocess.run([sys.executable, "-m", "tysh", "-c", script], cwd=tmp_path,
                       input=b"needle 1\nneedle 2\n", capture_output=True, timeout=60)
    assert (p.returncode, p.stdout, p.stderr) == (0, b"1\n2\n1\n", b"")


def test_a_host_with_threads_of_its_own_gets_concurrent_stages(
        kernel: Kernel, tmp_path: Path) -> None:
    (tmp_path / "in.txt").write_text("b\na\n")
    fds = {0: io.BytesIO(), 1: io.BytesIO()}
    stop = threading.Event()
    host = threading.Thread(target=stop.wait, name="host-ticker")
    host.start()
    try:
        assert pipeline._host_threads()
        assert not _in_turn(kernel, "cat in.txt | sort", fds)
        assert kernel.execute("cat in.txt | sort").out == "a\nb\n"
    finally:
        stop.set()
        host.join()
    # tysh's own threads (a background job's) are not the host's
    r = kernel.execute("sleep 0.5 & cat in.txt | sort; wait")
    assert r.out == "a\nb\n"


def test_cancel_stops_a_pipeline_run_in_turn(kernel: Kernel, started: list[str]) -> None:
    timer = threading.Timer(0.3, kernel.cancel)
    timer.start()
    t0 = time.monotonic()
    try:
        r = kernel.execute("yes | grep -v y | wc -l")
    finally:
        timer.cancel()
    assert r.code == 130
    assert time.monotonic() - t0 < 10


def test_the_time_and_output_limits_hold_in_turn(tmp_path: Path, started: list[str]) -> None:
    k = Kernel(cwd=str(tmp_path), limits=Limits(max_output_bytes=1000))
    r = k.execute("yes | grep -v y | head -n 1", timeout=0.5)
    assert r.code == 124
    r = k.execute("yes | tr y z | cat")
    assert r.code == 3 and r.truncated and r.out.startswith("z\nz\n")
    r = k.execute("seq 1 1000 | tr 1 x | head -c 5000")
    assert r.code == 3 and r.truncated


def test_events_see_every_stage_run_in_turn(tmp_path: Path, started: list[str]) -> None:
    seen: list[dict[str, Any]] = []
    k = Kernel(cwd=str(tmp_path), on_event=seen.append)
    r = k.execute("echo b a | tr ' ' '\\n' | sort | head -n 1")
    assert (r.code, r.out) == (0, "a\n")
    done = [e for e in seen if e.get("status") == "completed"]
    assert len(done) == 4, seen


def test_no_thread_for_the_later_stages_ends_the_script(
        kernel: Kernel, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(_t: threading.Thread) -> None:
        raise NoThread()

    monkeypatch.setattr(pipeline, "_host_threads", lambda: False)
    monkeypatch.setattr(pipeline, "start_deep", refuse)
    r = kernel.execute("yes | head -n 1; echo after")
    assert r.code == 1
    assert "cannot start a thread" in r.err
    assert "after" not in r.out
    r = kernel.execute("echo small | cat")
    assert (r.code, r.out) == (0, "small\n")


def test_held_input_reads_as_a_pipe(kernel: Kernel, started: list[str]) -> None:
    # GNU wc gives a pipe's counts 7-wide columns, a file's as wide as its size
    r = kernel.execute("printf 'one two\\nthree\\n' | wc")
    assert r.out == "      2       3      14\n"
    assert started == []


def test_here_documents_and_descriptor_copies_run_in_turn(
        kernel: Kernel, started: list[str]) -> None:
    r = kernel.execute("cat <<EOF | sort 2>&1 | tr a-z A-Z 2>/dev/null\nb\na\nEOF\n"
                       "grep -c x <<< xx | cat")
    assert (r.code, r.out) == (0, "A\nB\n1\n")
    assert started == []


def test_stages_run_in_turn_leave_nothing_for_the_cycle_collector(
        kernel: Kernel, tmp_path: Path, started: list[str]) -> None:
    from harness import cycle_garbage

    (tmp_path / "in.txt").write_text("pear\napple\nfig\napple\nkiwi\n")
    src = "cat in.txt | sort | uniq -c | tr a-z A-Z | head -n 2"
    found, r = cycle_garbage(kernel, src)
    assert found == 0
    # the last stage's typed value is still the pipeline's, the others' are let go
    assert (r.out, r.data) == ("      2 APPLE\n      1 FIG\n", ["      2 APPLE", "      1 FIG"])
    assert started == []


@pytest.mark.parametrize("command", [
    "uniq", "uniq -c", "uniq -d", "uniq -u", "uniq -i -c", "uniq -D", "uniq -z",
    "head -n 2", "head -n -1", "head -c 5", "head -v -n 1", "head -n 1 a.txt b.txt",
    "head -q -n 1 a.txt b.txt", "head -n 1 a.txt nope.txt", "tail -n 2", "tail -n +2",
    "tail -c 4", "tail -n 1 a.txt b.txt", "tail -n 0",
])
def test_a_filter_before_the_last_stage_writes_what_it_writes_last(
        kernel: Kernel, tmp_path: Path, started: list[str], command: str) -> None:
    """Before the last stage nobody can read a tool's typed value, and the tool writes
    its text straight through; the text and status are those of the same tool last."""
    (tmp_path / "a.txt").write_text("b\nb\nB\na\nc\nc\n")
    (tmp_path / "b.txt").write_text("x\ny\n")
    last = kernel.execute(f"cat a.txt | {command}; echo $?")
    before = kernel.execute(f"cat a.txt | {command} | cat; echo ${{PIPESTATUS[1]}}")
    assert (before.out, before.err) == (last.out, last.err)
    assert started == []


# ------------------------------------------------ stages that assign nothing share a shell


class _ReferenceHeld(io.BufferedIOBase):
    """A write-only io object of the standard library's making: what `_Held` answers as."""

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        return len(b)

    def flush(self) -> None:
        pass


_STREAM_CALLS: list[tuple[str, tuple[Any, ...]]] = [
    ("writable", ()), ("readable", ()), ("seekable", ()), ("isatty", ()), ("fileno", ()),
    ("tell", ()), ("seek", (0,)), ("seek", (0, 2)), ("truncate", ()), ("truncate", (0,)),
    ("detach", ()), ("read", ()), ("read", (1,)), ("read1", ()), ("readinto", (bytearray(2),)),
    ("readinto1", (bytearray(2),)), ("readline", ()), ("readlines", ()), ("flush", ()),
    ("writelines", ([],)), ("__enter__", ()),
]


def _outcome(stream: Any, name: str, args: tuple[Any, ...]) -> tuple[str, Any]:
    try:
        got = getattr(stream, name)(*args)
    except Exception as e:  # noqa: BLE001 — the exception is the answer compared
        return (type(e).__name__, str(e))
    return ("value", "self" if got is stream else got)


@pytest.mark.parametrize("closed", [False, True])
def test_held_output_answers_as_a_write_only_io_object(
        kernel: Kernel, closed: bool) -> None:
    held = pipeline._held(lambda sub, first: io.BytesIO(), None, 1)  # type: ignore[arg-type]
    ref = _ReferenceHeld()
    assert isinstance(held, io.BufferedIOBase) and isinstance(held, io.IOBase)
    if closed:
        held.close()
        ref.close()
    assert held.closed == ref.closed
    for name, args in _STREAM_CALLS:
        assert _outcome(held, name, args) == _outcome(ref, name, args), name
    if closed:
        assert _outcome(held, "write", (b"x",))[0] == "ValueError"
        assert _outcome(held, "writelines", ([b"x"],))[0] == "ValueError"
    else:
        held.writelines([b"a", bytearray(b"b"), memoryview(b"c")])
        assert held.held() == b"abc"
        with held as same:
            assert same is held
        assert held.closed


def _fields(obj: Any) -> dict[str, Any]:
    """Every slot of an Interpreter or a State, in a form that compares by content
    where the slot holds a container another shell may share (the variables' frames
    down to each Var's attributes). `due`, when the shell next reads the clock, moves
    with time, not with what a command does: it is left out."""
    out: dict[str, Any] = {}
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if name in ("__weakref__", "due") or not hasattr(obj, name):
                continue
            v = getattr(obj, name)
            if name == "frames":
                v = [{k: (id(var), repr(var.value), var.exported, var.readonly, var.integer,
                          var.case, var.nameref) for k, var in f.items()} for f in v]
            elif isinstance(v, (list, dict, set)):
                v = (id(v), repr(v))
            elif name in ("key_text", "key_index") and v is not None:
                v = ("method", id(v.__self__))
            elif not isinstance(v, (str, int, float, bool, type(None), tuple, frozenset)):
                v = ("object", id(v))
            out[name] = v
    return out


def _turn_commands(kernel: Kernel) -> list[str]:
    """Each builtin that runs in turn, in the uses its help shows (its examples' simple
    commands that assign nothing) and a few more."""
    from tysh.kernel.syntax.unparse import command_source

    tools = {t.name: t for t in kernel.interp.all_tools()
             if t.schema.kind in pipeline._TURN_KINDS or t.name in pipeline._TURN_SHELL}
    assert len(tools) > 60
    found = list(_MORE_TURN_COMMANDS)
    for name, tool in sorted(tools.items()):
        for ex in tool.schema.examples:
            try:
                script = kernel.parse(ex.code)
            except Exception:  # noqa: BLE001, S112 — an example that is not a script
                continue
            for stmt in script.statements:
                for p in [stmt.body.first, *(p for _, p in stmt.body.rest)]:
                    for cmd in p.commands:
                        if pipeline._judged(cmd)[1] == name and pipeline._judged(cmd)[2]:
                            found.append(command_source(cmd))
    return found


_MORE_TURN_COMMANDS = (
    "true", "false", "pwd", "pwd -P", "pwd -L", ":", "echo $_ $? ${PIPESTATUS[*]}",
    "echo $BASH_SUBSHELL $BASHPID $$ $RANDOM $LINENO $-", "type -a cat", "type -t f",
    "which cat", "printenv HOME", "test -n x", "[ -f in.txt ]", "[ -v x ]", "date +%s",
    "uname -a", "hostname", "whoami", "id -u", "nproc", "printf '%s\\n' a b", "cat nope",
    "sort -o sorted.txt in.txt", "tee copy.txt", "head -n 1 in.txt", "wc -l in.txt",
    "grep -c a in.txt", "jq .", "ls -la", "echo ${x:-d} ${x#h} ${#x} ${x^^} \"$@\"",
    "cat --nope", "sort --help", "echo ${undefined:?gone}", "seq 3", "yes",
    "tr -d", "cut", "echo \"$x\" 2>&1 >/dev/null",
)


def test_a_stage_that_assigns_nothing_changes_its_shell_only_where_renew_restores(
        kernel: Kernel, tmp_path: Path, started: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every builtin that runs in turn, run as a stage on the shared shell: after it,
    and after `_renew`, every field of its shell and its session is as before."""
    (tmp_path / "in.txt").write_text("b\na\n")
    kernel.execute("x=hello; f() { :; }; set -- p q")
    real = pipeline._run_stage
    checked: list[str] = []
    diffs: list[tuple[str, str, Any, Any]] = []

    def spy(sub: Any, cmd: Any, fds: Any, *rest: Any) -> None:
        if not pipeline._judged(cmd)[2]:
            real(sub, cmd, fds, *rest)
            return
        before = (_fields(sub), _fields(sub.state))
        fresh = (sub.cur_fds, sub.state.last_arg)  # (as a new fork has them)
        real(sub, cmd, fds, *rest)
        pipeline._renew(sub, *fresh)
        after = (_fields(sub), _fields(sub.state))
        for b, a in zip(before, after, strict=True):
            for k in b:
                if b[k] != a[k] and k != "keeps_value":
                    diffs.append((command_of(cmd), k, b[k], a[k]))
        checked.append(command_of(cmd))

    from tysh.kernel.syntax.unparse import command_source as command_of

    monkeypatch.setattr(pipeline, "_run_stage", spy)
    commands = _turn_commands(kernel)
    assert len(commands) > 150
    for c in commands:
        kernel.execute(f"{c} | head -c 100", timeout=10)
        kernel.execute(f"echo x | {c} | head -c 100", timeout=10)
    assert not diffs
    assert len(checked) > 3 * len(commands)


_SHARING_SCRIPTS = [
    "cat in.txt | sort | uniq | tr a-z A-Z | head -n 2; echo $? ${PIPESTATUS[*]} $_",
    "echo a b | cat | cat; echo \"$_\"; false | true | cat; echo $? ${PIPESTATUS[*]}",
    "true | false; echo $?; set -o pipefail; false | true | true; echo $? ${PIPESTATUS[*]}",
    "echo $_ | cat; echo x y | echo \"[$_]\" | cat; echo \"[$_]\"",
    "echo $? | cat; false; echo $? | cat; echo $? | cat",
    "echo $BASH_SUBSHELL | cat; echo $BASH_SUBSHELL; echo $$ | cat | wc -c",
    "set -x; echo a | tr a b | cat; set +x",
    "set -e; echo a | false | cat; echo survived; echo a | cat | false; echo not here",
    "set -u; echo ${nope} | cat; echo after $?",
    "echo ${nope:?unset here} | cat; echo after ${PIPESTATUS[*]}",
    "f() { :; }; type f | cat | tr a-z A-Z; type -t cat | cat",
    "printf '%s\\n' b a | sort | printf -v v %s x | cat; echo \"[$v]\" ${PIPESTATUS[*]}",
    "x=1; echo $x | [ -v 'a[x++]' ] | cat; echo $x",
    "seq 1 20000 | sort -rn | head -n 2 | cat",
    "seq 1 30000 | cat | tail -n 1; echo ${PIPESTATUS[*]}",
    "echo x | cat nope | cat; echo ${PIPESTATUS[*]}",
    "echo '{\"a\":1}' | jq .a | cat",
    "keys '{\"b\":1,\"a\":2}' | cat",
    "ls in.txt | cat",
    "cat in.txt | wc -l | cat | tr -d ' '",
    # later stages started streaming from a stage that runs on the session itself
    "x=1; echo a b >/dev/null; seq 1 30000 | tail -n 1 | sed \"s/^/[$_] $BASH_SUBSHELL $x /\"; "
    "echo \"$_\"",
    "seq 1 30000 | tail -n 2 | sort -r; echo ${PIPESTATUS[*]} $_",
    "cat in.txt | values '[1,2]' | cat",
    "echo x | keys '{\"a\":1}'",
]


def _plain_run(cwd: Path, script: str) -> tuple[Any, ...]:
    """`events_run` without events, so constant stages run on kept bindings."""
    k = Kernel(cwd=str(cwd), env={"HOME": str(cwd)})
    got = []
    for _ in range(2):  # (the second run reuses what the first bound)
        r = k.execute(script, timeout=20)
        after = k.execute('echo "$? $_ ${PIPESTATUS[*]} $BASH_SUBSHELL"')
        got.append((r.code, r.out, r.err, r.data, after.out))
    return tuple(got)


@pytest.mark.parametrize("run", [events_run, _plain_run], ids=["events", "plain"])
@pytest.mark.parametrize("script", _SHARING_SCRIPTS)
def test_stages_sharing_one_shell_run_as_with_a_shell_each(
        tmp_path: Path, started: list[str], monkeypatch: pytest.MonkeyPatch,
        script: str, run: Callable[[Path, str], tuple[Any, ...]]) -> None:
    """Stages that assign nothing share one shell (the session itself when every stage
    is such), with events reported and without (then constant stages run on kept
    bindings): what they print, their statuses, `$_`, PIPESTATUS and typed value are
    those of a shell per stage."""
    (tmp_path / "in.txt").write_text("pear\napple\nfig\napple\nkiwi\n")
    shared = run(tmp_path, script)
    monkeypatch.setattr(pipeline, "SHARE_QUIET_STAGES", False)
    assert shared == run(tmp_path, script)


@pytest.mark.parametrize("script", [
    "cat in.txt | sort | uniq | tr a-z A-Z | head -n 2",
    "echo a | cat nope | cat",
    "seq 1 30000 | cat | tail -n 1",
    "cat in.txt | keys '{\"a\":1}'",
])
def test_a_session_lent_to_its_stages_gets_its_own_fields_back(
        kernel: Kernel, tmp_path: Path, started: list[str], script: str) -> None:
    """A pipeline whose every stage assigns nothing runs them on the session itself:
    afterwards every field of the session is as before but the pipeline's own results
    (its typed value; its status and PIPESTATUS are set by the caller)."""
    (tmp_path / "in.txt").write_text("b\na\n")
    kernel.execute("x=hello; f() { :; }; set -- p q; echo last")
    interp = kernel.interp
    seen: list[Any] = []
    real = pipeline._run_stage

    def spy(sub: Any, *rest: Any) -> None:
        seen.append(sub)
        real(sub, *rest)

    real_stages = pipeline.run_stages

    def run_stages(shell: Any, cmds: Any, fds: Any) -> list[int]:
        before = (_fields(shell), _fields(shell.state))
        statuses = real_stages(shell, cmds, fds)
        after = (_fields(shell), _fields(shell.state))
        for b, a in zip(before, after, strict=True):
            assert {k: v for k, v in b.items() if k not in ("last_data", "last_typed")} == {
                k: v for k, v in a.items() if k not in ("last_data", "last_typed")}
        return statuses

    with pytest.MonkeyPatch.context() as m:
        m.setattr(pipeline, "_run_stage", spy)
        m.setattr(pipeline, "run_stages", run_stages)
        r = kernel.execute(script)
    assert r.code in (0, 1)
    assert interp in seen  # (it ran on the session)


def test_a_held_input_that_cannot_be_refilled_is_made_anew(
        kernel: Kernel, started: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The stages share one held input, refilled in place; when a view of its buffer is
    still held (refilling raises BufferError), the next stage gets a new one."""
    refills: list[bytes] = []

    def refuse(stream: io.BytesIO, data: bytes) -> None:
        refills.append(data)
        raise BufferError("Existing exports of data: object cannot be re-sized")

    monkeypatch.setattr(pipeline, "_refill", refuse)
    r = kernel.execute("printf 'b\\na\\nb\\n' | sort | uniq | tr a-z A-Z")
    assert (r.code, r.out, r.err) == (0, "A\nB\n", "")
    assert refills == [b"a\nb\nb\n", b"a\nb\n"]
    assert started == []
