"""ToolCallLog: merging tool-call streams from any agent, loosely, never raising."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tysh import Kernel, ToolCallLog

ENV = {"version": 1, "name": "cat", "kind": "read", "namespace": "tysh", "label": "Read",
       "read_only": True}


def start(cid: str, **kw: Any) -> dict[str, Any]:
    return {"sessionUpdate": "tool_call", "toolCallId": cid, "title": kw.pop("title", cid),
            "status": "pending", **kw}


def update(cid: str, **kw: Any) -> dict[str, Any]:
    return {"sessionUpdate": "tool_call_update", "toolCallId": cid, **kw}


def test_updates_of_one_call_merge_last_write_wins() -> None:
    log = ToolCallLog()
    log.feed(start("a", kind="read", rawInput={"files": ["f"]}, _meta={"x.ai/tool": ENV}))
    log.feed(update("a", status="in_progress", title="cat f (running)"))
    log.feed(update("a", status="completed", rawOutput={"status": 0}))
    (call,) = log
    assert (call.title, call.status, call.raw_output) == ("cat f (running)", "completed",
                                                         {"status": 0})
    assert (call.kind, call.label, call.namespace, call.name) == ("read", "Read", "tysh", "cat")


def test_a_mixed_stream_keeps_tool_calls_and_skips_the_rest() -> None:
    log = ToolCallLog()
    log.feed_all([
        {"jsonrpc": "2.0", "method": "session/update",
         "params": {"sessionId": "s", "update": start("a", kind="execute")}},
        {"sessionId": "s", "update": {"sessionUpdate": "agent_message_chunk",
                                      "content": {"type": "text", "text": "hi"}}},
        start("b", kind="search"),
        update("a", status="completed"),
        {"sessionUpdate": "plan", "entries": []},
    ])
    assert [c.id for c in log] == ["a", "b"]
    assert log.get("a").status == "completed"  # type: ignore[union-attr]
    assert log.skipped == 2
    assert {k: [c.id for c in v] for k, v in log.by_label().items()} == {
        "Run Command": ["a"], "Search": ["b"]}


def test_out_of_order_updates_before_the_start_and_a_late_pending() -> None:
    log = ToolCallLog()
    log.feed(update("a", status="completed", rawOutput={"status": 0}))
    log.feed(update("a", status="in_progress"))  # reordered: the call stays over
    log.feed(start("a", kind="edit", title="sed -i"))  # the start arrives last
    call = log.get("a")
    assert call is not None
    assert (call.status, call.title, call.acp_kind, call.started) == (
        "completed", "sed -i", "edit", True)


def test_input_arriving_on_a_later_update_merges_into_the_envelope() -> None:
    log = ToolCallLog()
    log.feed(start("a", _meta={"x.ai/tool": ENV}))
    assert log.get("a").input is None  # type: ignore[union-attr]
    log.feed(update("a", _meta={"x.ai/tool": {"input": {"path": "/f", "offset": 10}}}))
    call = log.get("a")
    assert call is not None and call.input == {"path": "/f", "offset": 10}
    assert call.label == "Read"


def test_a_missing_envelope_falls_back_to_raw_input_and_the_acp_kind() -> None:
    log = ToolCallLog()
    log.feed(start("a", kind="fetch", rawInput={"url": "http://x"}))
    call = log.get("a")
    assert call is not None and call.envelope is None
    assert (call.kind, call.label, call.input) == ("other", "Fetch", {"url": "http://x"})


def test_unknown_kind_reads_as_other_and_unknown_namespace_is_kept() -> None:
    log = ToolCallLog()
    log.feed(start("a", kind="execute", _meta={"x.ai/tool": {
        **ENV, "kind": "teleport", "namespace": "plugin", "label": "Teleport"}}))
    call = log.get("a")
    assert call is not None
    assert (call.kind, call.namespace, call.label) == ("other", "plugin", "Teleport")


def test_garbage_meta_and_broken_envelopes_are_treated_as_absent() -> None:
    garbage: list[Any] = ["x", 3, None, [], {"x.ai/tool": "cat"}, {"x.ai/tool": []},
                          {"x.ai/tool": {**ENV, "version": "1"}},
                          {"x.ai/tool": {**ENV, "version": 2}},
                          {"x.ai/tool": {**ENV, "read_only": "yes"}},
                          {"x.ai/tool": {k: v for k, v in ENV.items() if k != "name"}}]
    for i, meta in enumerate(garbage):
        log = ToolCallLog()
        log.feed(start(str(i), kind="search", rawInput={"q": i}, _meta=meta))
        call = log.get(str(i))
        assert call is not None
        assert (call.envelope, call.label, call.input) == (None, "Search", {"q": i}), meta


def test_malformed_lines_and_values_are_skipped_never_raised() -> None:
    log = ToolCallLog()
    for line in ["", "not json", "[1,2]", '{"sessionUpdate": "tool_call"}',
                 '{"sessionUpdate": "tool_call", "toolCallId": 5}',
                 '{"sessionUpdate": "tool_call_update", "toolCallId": "a", "locations": 7,'
                 ' "status": "exploded", "kind": ["x"]}', b"\xff\xfe", "{" * 5000 + "}" * 5000]:
        log.feed_line(line)
    call = log.get("a")
    assert call is not None and (call.status, call.locations, call.acp_kind) == (None, [], None)
    assert log.skipped == 6


def test_a_tysh_run_read_back_through_the_log(tmp_path: Any) -> None:
    (tmp_path / "f").write_text("x\n")
    log = ToolCallLog()
    k = Kernel(str(tmp_path), on_event=log.feed)
    k.execute("cat f; ls; grep x f > out")
    assert [(c.name, c.label, c.status) for c in log] == [
        ("cat", "Read", "completed"), ("ls", "List Files", "completed"),
        ("grep", "Write", "completed")]
    assert log.get([c.id for c in log][0]).locations == [str(tmp_path / "f")]  # type: ignore[union-attr]


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(
                        ["sessionUpdate", "toolCallId", "status", "kind", "title", "_meta",
                         "x.ai/tool", "version", "update", "params", "rawInput", "locations",
                         "content", "label", "namespace", "read_only", "input", "name"]),
                        inner, max_size=6),
                    max_leaves=20)
UPDATE = st.fixed_dictionaries(
    {"sessionUpdate": st.sampled_from(["tool_call", "tool_call_update"]),
     "toolCallId": st.sampled_from(["a", "b"])},
    optional={"status": st.sampled_from(["pending", "in_progress", "completed", "failed",
                                         "bogus"]) | JSON,
              "kind": st.sampled_from(["read", "edit", "nope"]) | JSON,
              "_meta": JSON | st.fixed_dictionaries({"x.ai/tool": JSON}),
              "title": JSON, "locations": JSON, "rawInput": JSON, "content": JSON})


@settings(max_examples=300, deadline=None)
@given(st.lists(JSON | UPDATE, max_size=12))
def test_any_stream_is_taken_without_raising(stream: list[Any]) -> None:
    log = ToolCallLog()
    log.feed_all(stream)
    for line in stream:
        log.feed_line(json.dumps(line))
    for c in log:  # every derived view answers too
        assert isinstance(c.label, str) and isinstance(c.kind, str)
        _ = (c.input, c.namespace, c.name, c.envelope)
    assert isinstance(log.by_label(), dict)
