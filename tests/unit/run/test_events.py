"""Tool-call events: the sequences a corpus of scripts emits, pinned; every envelope
valid against the package's JSON Schema of the contract; every update valid for the ACP
SDK's models."""

from __future__ import annotations

import json
import threading
import time
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tysh import Kernel

SCHEMA = json.loads(resources.files("tysh.kernel.run").joinpath("events.schema.json")
                    .read_text())


def _validate(events: list[dict[str, Any]]) -> None:
    acp = pytest.importorskip("acp.schema")
    for e in events:
        if e["sessionUpdate"] == "tool_call":
            jsonschema.validate(e["_meta"]["x.ai/tool"], SCHEMA)
            model: Any = acp.ToolCallStart
        else:
            assert "_meta" not in e or "x.ai/tool" in e["_meta"]
            model = acp.ToolCallProgress
        # the SDK's models drop what they cannot read: what they keep must be all of it
        back = model.model_validate(e).model_dump(mode="json", by_alias=True,
                                                  exclude_unset=True)
        assert back == e
        json.dumps(e)  # plain JSON all through


def run(k: Kernel, src: str) -> tuple[list[dict[str, Any]], Any]:
    events: list[dict[str, Any]] = []
    k.add_listener(events.append)
    try:
        res = k.execute(src)
    finally:
        k.remove_listener(events.append)
    _validate(events)
    return events, res


def compact(events: list[dict[str, Any]], root: str) -> list[tuple[Any, ...]]:
    """Each event as a short tuple, ids numbered in order of appearance, paths relative."""
    ids: dict[str, int] = {}
    out: list[tuple[Any, ...]] = []
    for e in events:
        n = ids.setdefault(e["toolCallId"], len(ids) + 1)
        if e["sessionUpdate"] == "tool_call":
            env = e["_meta"]["x.ai/tool"]
            inp = json.loads(json.dumps(env.get("input")).replace(root, "~"))
            out.append(("start", n, e["title"], e["kind"], env["kind"], env["namespace"],
                        env["label"], env["read_only"], inp))
        elif e["status"] == "in_progress":
            out.append(("run", n))
        else:
            out.append(("end", n, e["status"], e["rawOutput"]["status"]))
    return out


@pytest.fixture
def k(tmp_path: Path) -> Kernel:
    (tmp_path / "f.txt").write_text("one\ntwo\nthree\n")
    return Kernel(str(tmp_path))


def test_a_read_is_a_pending_call_then_in_progress_then_completed(k: Kernel) -> None:
    events, _ = run(k, "cat f.txt")
    assert compact(events, k.cwd) == [
        ("start", 1, "cat f.txt", "read", "read", "tysh", "Read", True, {"path": "~/f.txt"}),
        ("run", 1),
        ("end", 1, "completed", 0),
    ]
    start, _, end = events
    assert start["status"] == "pending"
    assert start["rawInput"] == {"files": ["f.txt"]}
    assert start["locations"] == [{"path": k.cwd + "/f.txt"}]
    assert end["rawOutput"]["stdout"] == "one\ntwo\nthree\n"


def test_sed_in_place_is_an_edit_with_a_diff_block_and_no_script_in_its_input(
        k: Kernel) -> None:
    events, _ = run(k, "sed -i 's/two/TWO/' f.txt")
    assert compact(events, k.cwd) == [
        ("start", 1, "sed -i 's/two/TWO/' f.txt", "edit", "edit", "tysh", "Edit", False,
         {"path": "~/f.txt"}),
        ("run", 1),
        ("end", 1, "completed", 0),
    ]
    assert events[-1]["content"] == [{"type": "diff", "path": k.cwd + "/f.txt",
                                      "oldText": "one\ntwo\nthree\n",
                                      "newText": "one\nTWO\nthree\n"}]


def test_a_line_window_read_carries_offset_and_limit(k: Kernel) -> None:
    events, res = run(k, "sed -n '2,3p' f.txt; head -n 1 f.txt")
    starts = [c for c in compact(events, k.cwd) if c[0] == "start"]
    assert [c[8] for c in starts] == [{"path": "~/f.txt", "offset": 2, "limit": 2},
                                      {"path": "~/f.txt", "limit": 1}]
    assert [c[7] for c in starts] == [True, True]  # sed without -i writes nothing


def test_a_redirection_write_is_a_write_of_its_target_with_a_diff(k: Kernel) -> None:
    events, _ = run(k, "echo hello > out.txt")
    assert compact(events, k.cwd) == [
        ("start", 1, "echo hello > out.txt", "edit", "write", "tysh", "Write", False,
         {"path": "~/out.txt"}),
        ("run", 1),
        ("end", 1, "completed", 0),
    ]
    assert events[0]["locations"] == [{"path": k.cwd + "/out.txt"}]
    assert events[-1]["content"] == [{"type": "diff", "path": k.cwd + "/out.txt",
                                      "oldText": None, "newText": "hello\n"}]


def test_a_heredoc_body_stays_out_of_the_title_and_the_input(k: Kernel) -> None:
    events, _ = run(k, "cat > note.txt <<EOF\nsecret body\nEOF\n")
    start = events[0]
    assert "secret" not in start["title"]
    assert start["_meta"]["x.ai/tool"]["input"] == {"path": k.cwd + "/note.txt"}


def test_a_pipeline_reports_each_stage(k: Kernel) -> None:
    events, res = run(k, "cat f.txt | grep t | wc -l")
    assert res.out.strip() == "2"
    starts = {c[2]: c for c in compact(events, k.cwd) if c[0] == "start"}
    assert set(starts) == {"cat f.txt", "grep t", "wc -l"}
    assert starts["grep t"][4:8] == ("search", "tysh", "Search", True)
    assert starts["grep t"][8] == {"pattern": "t"}
    ends = [e for e in events if e.get("status") in ("completed", "failed")]
    assert len(ends) == 3 and all(e["status"] == "completed" for e in ends)
    # each call's own updates come in order: pending, in_progress, then the end
    for cid in {e["toolCallId"] for e in events}:
        assert [e["status"] for e in events if e["toolCallId"] == cid] == [
            "pending", "in_progress", "completed"]


def test_a_function_call_reports_itself_and_the_commands_of_its_body(k: Kernel) -> None:
    events, _ = run(k, "f() { if true; then ls; fi; }; f")
    assert compact(events, k.cwd) == [
        ("start", 1, "f", "execute", "shell", "tysh", "Run Command", True, None),
        ("run", 1),
        ("start", 2, "true", "execute", "shell", "tysh", "Run Command", True, None),
        ("run", 2),
        ("end", 2, "completed", 0),
        ("start", 3, "ls", "read", "list", "tysh", "List Files", True, {"directory": "~"}),
        ("run", 3),
        ("end", 3, "completed", 0),
        ("end", 1, "completed", 0),
    ]


def test_failures_end_as_failed_with_status_and_stderr(k: Kernel) -> None:
    events: list[dict[str, Any]] = []
    for src in ("cat nope.txt", "grep -q zzz f.txt", "x=nosuchcmd; $x"):
        events += run(k, src)[0]
    ends = [(c[2], c[3]) for c in compact(events, k.cwd) if c[0] == "end"]
    assert ends == [("failed", 1), ("failed", 1), ("failed", 127)]
    assert "nope.txt" in events[2]["rawOutput"]["stderr"]
    host = [e for e in events if e["sessionUpdate"] == "tool_call"][2]
    assert host["_meta"]["x.ai/tool"]["namespace"] == "host"
    assert host["_meta"]["x.ai/tool"]["input"] == {"command": "$x"}


def test_a_binding_error_is_a_failed_call_not_a_fault(k: Kernel) -> None:
    # (an embedded kernel refuses such a script before running it: run it as the CLI does)
    events, res = run(Kernel(k.cwd, validate=False), "head --bogus f.txt")
    assert res.code == 2
    assert [e["status"] for e in events] == ["pending", "in_progress", "failed"]
    assert events[0]["rawInput"] == {"argv": ["head", "--bogus", "f.txt"]}


def test_a_cancelled_run_ends_its_open_calls_as_failed_and_cancelled(k: Kernel) -> None:
    events: list[dict[str, Any]] = []
    started = threading.Event()

    def listen(e: dict[str, Any]) -> None:
        events.append(e)
        if e.get("status") == "in_progress":
            started.set()

    k.add_listener(listen)
    t = threading.Thread(target=lambda: k.execute("sleep 30"))
    t.start()
    assert started.wait(10)
    time.sleep(0.1)
    k.cancel()
    t.join(10)
    _validate(events)
    assert events[-1]["status"] == "failed"
    assert events[-1]["rawOutput"]["cancelled"] is True


def test_events_iterates_a_run_and_leaving_early_cancels_it(k: Kernel) -> None:
    run_ = k.events("echo a; echo b")
    got = list(run_)
    assert [e["status"] for e in got].count("completed") == 2
    assert run_.result is not None and run_.result.out == "a\nb\n"
    it = k.events("while true; do echo x; done")
    first = next(iter(it))
    assert first["sessionUpdate"] == "tool_call"
    it.close()
    assert k.execute("echo free").out == "free\n"  # the kernel is not left busy


def test_a_listener_that_raises_does_not_fail_the_script(k: Kernel) -> None:
    def bad(e: dict[str, Any]) -> None:
        raise RuntimeError("listener bug")

    k.add_listener(bad)
    assert k.execute("echo ok").out == "ok\n"


def test_no_listener_no_emitter(k: Kernel) -> None:
    assert k.interp.events is None
    k.add_listener(print)
    assert k.interp.events is not None
    k.remove_listener(print)
    assert k.interp.events is None


def test_registered_tools_are_user_and_mcp_by_their_registration(k: Kernel) -> None:
    from tysh.kernel.tools.tool import tool

    @tool("hello", kind="fetch")
    def hello(args: Any, ctx: Any) -> int:
        return 0

    @tool("remote")
    def remote(args: Any, ctx: Any) -> int:
        return 0

    k.register(hello)
    k.registry.register(remote, namespace="mcp")
    events, _ = run(k, "hello; remote")
    envs = [e["_meta"]["x.ai/tool"] for e in events if e["sessionUpdate"] == "tool_call"]
    assert [(x["namespace"], x["kind"], x["label"]) for x in envs] == [
        ("user", "fetch", "Fetch"), ("mcp", "other", "Tool")]
    assert "input" not in envs[1]  # an MCP tool's input has no stable shape


def test_the_schema_refuses_a_broken_envelope() -> None:
    good = {"version": 1, "name": "cat", "kind": "read", "namespace": "tysh",
            "label": "Read", "read_only": True, "input": {"path": "/f", "offset": 1}}
    jsonschema.validate(good, SCHEMA)
    for bad in ({**good, "version": 2}, {**good, "namespace": "web"},
                {**good, "input": {"path": "/f", "body": "x"}},
                {k: v for k, v in good.items() if k != "label"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, SCHEMA)


@pytest.mark.parametrize(("src", "window"), [
    ("cat -n f.txt | sed -n '10,30p'", {"offset": 10, "limit": 21}),
    ("cat f.txt | head -n 2", {"offset": 1, "limit": 2}),
    ('cat -n f.txt | sed -n "3,4p"', {"offset": 3, "limit": 2}),  # quoted, nothing expands
    ('n=2; cat f.txt | head -n "$n"', None),
    ("cat f.txt | head", {"offset": 1, "limit": 10}),
    ("cat -s f.txt | head -n 2", None),  # squeezing blank lines: not line for line
    ("cat f.txt | sed -n '/x/p'", None),
    ("cat f.txt g.txt | head -n 2", None),
    ("x=f.txt; cat $x | head -n 2", None),  # only what is written out literally
])
def test_a_file_piped_into_a_line_window_is_a_read_of_that_window(
        k: Kernel, src: str, window: dict[str, int] | None) -> None:
    (Path(k.cwd) / "g.txt").write_text("")
    events, _ = run(k, src)
    cat = next(e for e in events if e["sessionUpdate"] == "tool_call"
               and e["_meta"]["x.ai/tool"]["name"] == "cat")
    got = cat["_meta"]["x.ai/tool"].get("input")
    if window is None:
        assert got is None or set(got) == {"path"}
    else:
        assert got == {"path": k.cwd + "/f.txt", **window}


def test_a_huge_argument_list_is_counted_not_carried(k: Kernel) -> None:
    events, res = run(k, "echo " + " ".join(["word"] * 20000) + " > /dev/null")
    echo = next(e for e in events if e["sessionUpdate"] == "tool_call"
                and e["_meta"]["x.ai/tool"]["name"] == "echo")
    assert echo["rawInput"] == {"argc": 20000, "truncated": True}


def test_a_call_that_cannot_be_described_is_still_reported(
        k: Kernel, monkeypatch: pytest.MonkeyPatch) -> None:
    from tysh.kernel.run import events as ev

    def broken(*a: Any) -> Any:
        raise ValueError("describe bug")

    monkeypatch.setattr(ev, "_describe", broken)
    events, res = run(k, "echo hi")
    assert res.out == "hi\n" and res.code == 0
    assert events[0]["_meta"]["x.ai/tool"]["kind"] == "other"
    assert events[-1]["status"] == "completed"


def test_a_kernel_nobody_listens_to_never_loads_the_emitter() -> None:
    import subprocess
    import sys

    code = ("import sys, tempfile; from tysh import Kernel; "
            "k = Kernel(tempfile.mkdtemp()); k.execute('echo hi | cat; f() { :; }; f'); "
            "print('tysh.kernel.run.events' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60).stdout
    assert out == "False\n"


def test_every_builtin_declares_a_known_kind() -> None:
    from tysh.builtins import all_builtins
    from tysh.kernel.tools.kinds import KINDS

    for t in all_builtins():
        assert t.schema.kind in KINDS and t.schema.kind != "other", t.name


@pytest.mark.parametrize(("name", "kind"), [
    ("cat", "read"), ("head", "read"), ("tail", "read"), ("ls", "list"), ("grep", "search"),
    ("find", "find"), ("sed", "read"), ("tee", "write"), ("rm", "delete"), ("mv", "move"),
    ("cp", "copy"), ("expr", "compute"), ("bc", "compute"), ("seq", "compute"),
    ("cd", "shell"), ("xargs", "execute"), ("patch", "edit"),
])
def test_the_builtins_kinds(name: str, kind: str) -> None:
    from tysh.builtins import get_builtin

    t = get_builtin(name)
    assert t is not None and t.schema.kind == kind


def test_a_schema_keeps_its_kind_declarations_through_the_wire_form() -> None:
    from tysh.builtins import get_builtin
    from tysh.kernel.tools.schema import ToolSchema

    sed = get_builtin("sed")
    assert sed is not None
    back = ToolSchema.from_json(json.loads(json.dumps(sed.schema.to_json())))
    assert (back.kind, back.paths, back.script_params, back.kind_when) == (
        "read", ("operands",), ("expression", "file"), (("in_place", "edit"),))
