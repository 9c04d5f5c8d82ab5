"""The Python API: result classes in match statements, typed payloads, builders, helpers."""

from __future__ import annotations

import json
import threading

import pytest

import wirecontract
from wirecontract import graphmind as gm

FRAME = (
    '{"gm":1,"seq":7,"ts":1756200000000,"runId":"run_1","type":"node.started",'
    '"payload":{"nodeId":"tool:search","kind":"tool","name":"search","instanceId":"c1",'
    '"input":{"q":"x","n":[1,2.5,1e400,123456789012345678901234567890]},"future":{"a":1}},"traceparent":"00-ab"}'
)

# One minimal valid payload per known type.
PAYLOADS: dict[str, dict] = {
    "run.started": {"app": "demo", "sdk": {"name": "python", "version": "1"}, "meta": {"k": [1]}},
    "run.finished": {"status": "error", "error": {"name": "E", "message": "m"}},
    "graph.hint": {"nodes": [{"nodeId": "a", "kind": "agent", "name": "a"}]},
    "node.started": {"nodeId": "n", "kind": "llm", "name": "m", "instanceId": "i", "input": None},
    "node.token": {"nodeId": "n", "deltas": [{"t": "text", "v": "hi"}]},
    "node.finished": {"nodeId": "n", "durationMs": 1.5, "status": "ok", "usage": {"inputTokens": 1, "outputTokens": 2}},
    "node.error": {"nodeId": "n", "error": {"name": "E", "message": "boom", "stack": "s"}},
    "exec.paused": {"pauseId": "p", "nodeId": "n", "point": "before", "loop": {"repeats": 2, "firstSeq": 1, "lastSeq": 3, "fingerprint": "f"}},
    "exec.refused": {"pauseId": "p", "code": "schema"},
    "exec.resumed": {"pauseId": "p", "action": "inject", "edited": {"after": None}},
    "exec.resume": {"pauseId": "p", "action": "inject", "output": {"x": 1}},
    "breakpoint.set": {"matcher": {"kind": "tool"}},
    "breakpoint.clear": {"matcher": {}},
    "mode.set": {"mode": "step"},
    "hello": {"versions": {"protocol": 1, "client": "0.5.1"}, "capabilities": ["pause"]},
    "hello.ack": {"versions": {"protocol": 1, "viewer": "v"}, "capabilities": [], "breakpoints": [], "mode": "run"},
}


def _minimal(schema: dict, node: dict) -> object:
    """The smallest value a schema node accepts: required members only, first enum value."""
    defs = schema["$defs"]
    while "$ref" in node:
        node = defs[node["$ref"].split("/")[-1]]
    if "const" in node:
        return node["const"]
    if "enum" in node:
        return node["enum"][0]
    for key in ("oneOf", "anyOf"):
        if key in node:
            return _minimal(schema, node[key][0])
    kind = node.get("type")
    kind = kind[0] if isinstance(kind, list) else kind
    if kind == "object" or "properties" in node:
        props = node.get("properties", {})
        return {k: _minimal(schema, props.get(k, {})) for k in node.get("required", [])}
    return {"array": [], "string": "x", "integer": 1, "number": 1, "boolean": True}.get(kind)


def payload_for(message_type: str) -> dict:
    """The hand fixture, or (for a type added after this file was written) the minimal
    payload the exported schema describes, so a new message type is covered untouched."""
    if message_type in PAYLOADS:
        return PAYLOADS[message_type]
    schema = gm.export_json_schema()
    envelope = schema["$defs"][f"envelope.{message_type}"]
    return _minimal(schema, envelope["properties"]["payload"])  # type: ignore[return-value]


def test_every_known_type_has_a_payload_fixture_or_a_schema_minimal_one() -> None:
    assert set(PAYLOADS) <= set(gm.MESSAGE_TYPES), "a fixture for a type the contract does not know"
    groups = len(gm.EVENT_TYPES) + len(gm.CONTROL_TYPES) + len(gm.HANDSHAKE_TYPES)
    assert groups == len(gm.MESSAGE_TYPES) == len(set(gm.MESSAGE_TYPES))
    for t in gm.MESSAGE_TYPES:
        env = gm.create_envelope(t, payload_for(t), 1, "r")  # every fixture is a valid payload
        assert env.type == t


def test_results_work_in_match_statements() -> None:
    frames = [FRAME, '{"gm":1,"seq":1,"ts":1,"runId":"r","type":"future.x"}', '{"gm":2,"seq":1,"ts":1,"runId":"r","type":"x"}', "nope"]
    seen = []
    for f in frames:
        match gm.parse_envelope_json(f):
            case gm.Ok(env):
                seen.append(("ok", env.type))
            case gm.UnknownType(env):
                seen.append(("unknown-type", env.type, env.payload, env.has_payload))
            case gm.VersionMismatch(received, supported):
                seen.append(("version-mismatch", received, supported))
            case gm.Invalid(reason, issues):
                seen.append(("invalid", reason.split(":")[0], issues))
    assert seen == [
        ("ok", "node.started"),
        ("unknown-type", "future.x", None, False),
        ("version-mismatch", 2, 1),
        ("invalid", "frame is not valid JSON", None),
    ]


def test_typed_payload_attributes_and_opaque_values() -> None:
    env = gm.parse_envelope_json(FRAME).envelope
    assert (env.gm, env.seq, env.ts, env.run_id, env.type) == (1, 7, 1756200000000, "run_1", "node.started")
    p = env.payload
    assert isinstance(p, gm.NodeStarted) and isinstance(p, gm.WireObject)
    assert (p.node_id, p.kind, p.name, p.instance_id) == ("tool:search", "tool", "search", "c1")
    assert p.parent_id is None and p.collapsed is None
    assert p.input == {"q": "x", "n": [1, 2.5, float("inf"), 123456789012345678901234567890]}
    assert p.extra == {"future": {"a": 1}}
    assert env.extra == {"traceparent": "00-ab"}
    with pytest.raises(AttributeError):
        p.no_such_field  # noqa: B018
    match p:
        case gm.NodeStarted(node_id, parent_id, kind):
            assert (node_id, parent_id, kind) == ("tool:search", None, "tool")
        case _:
            pytest.fail("class pattern did not match")
    d = env.to_dict()
    assert list(d) == ["gm", "seq", "ts", "runId", "type", "payload", "traceparent"]
    assert d["payload"]["future"] == {"a": 1}


def test_nested_objects_and_lists_are_typed() -> None:
    env = gm.create_envelope("hello.ack", {**PAYLOADS["hello.ack"], "breakpoints": [{"kind": "tool", "x": 1}, {"point": "error"}]}, seq=1, run_id="*")
    bps = env.payload.breakpoints
    assert [type(b).__name__ for b in bps] == ["BreakpointMatcher", "BreakpointMatcher"]
    assert bps[0].kind == "tool" and bps[0].point is None and bps[0].extra == {"x": 1}
    assert bps[1].to_dict() == {"point": "error"}
    assert env.payload.versions.viewer == "v"


def test_lone_surrogates_and_1e400_survive_in_opaque_values() -> None:
    f = '{"gm":1,"seq":1,"ts":1,"runId":"r","type":"node.started","payload":{"nodeId":"n","kind":"tool","name":"\\ud800x","instanceId":"i","input":["\\udfff",1e400]}}'
    env = gm.parse_envelope_json(f).envelope
    assert env.payload.input == ["\udfff", float("inf")]
    assert env.payload.name == "\ufffdx"  # typed strings decode lone surrogates to U+FFFD (§5.9)
    assert '"input":["\\udfff",1e400]' in gm.serialize_envelope(env)


@pytest.mark.parametrize("message_type", sorted(gm.MESSAGE_TYPES))
def test_create_and_serialize_every_type(message_type: str) -> None:
    env = gm.create_envelope(message_type, payload_for(message_type), seq=3, run_id="run_x", ts=42)
    text = gm.serialize_envelope(env)
    assert json.loads(text) == {"gm": 1, "seq": 3, "ts": 42, "runId": "run_x", "type": message_type, "payload": payload_for(message_type)}
    r = gm.parse_envelope_json(text)
    assert r.kind == "ok" and r.envelope == env
    assert type(env.payload).__name__ == type(r.envelope.payload).__name__


def test_create_envelope_fills_ts_with_now_and_gm_1() -> None:
    import time

    before = int(time.time() * 1000)
    env = gm.create_envelope("mode.set", {"mode": "run"}, 0, gm.WILDCARD_RUN_ID)
    assert before <= env.ts <= int(time.time() * 1000) + 1
    assert gm.serialize_envelope(env).startswith('{"gm":1,"seq":0,"ts":')


def test_create_envelope_rejects_invalid_payload_naming_path_and_rule() -> None:
    with pytest.raises(gm.BuildError) as ei:
        gm.create_envelope("node.token", {"nodeId": "n", "deltas": [{"t": "image", "v": "x"}]}, 1, "r")
    assert isinstance(ei.value, ValueError)
    assert [i.path for i in ei.value.issues] == ["payload.deltas.0.t"]
    assert '"text"|"reasoning"|"tool-args"' in ei.value.issues[0].message
    with pytest.raises(gm.BuildError) as ei:
        gm.create_envelope("mode.set", {"mode": "run"}, 2**53, "r")
    assert ei.value.issues[0].path == "seq"
    with pytest.raises(gm.BuildError, match="no JSON form"):
        gm.create_envelope("node.started", {**PAYLOADS["node.started"], "input": {1, 2}}, 1, "r")


def test_create_unknown_envelope_is_a_deprecated_alias() -> None:
    with pytest.deprecated_call():
        env = gm.create_unknown_envelope("run.cancel", {"why": "x"}, 5, "*", ts=1)
    assert gm.serialize_envelope(env) == '{"gm":1,"seq":5,"ts":1,"runId":"*","type":"run.cancel","payload":{"why":"x"}}'
    assert gm.parse_envelope_json(gm.serialize_envelope(env)).kind == "unknown-type"
    with pytest.deprecated_call():
        env = gm.create_unknown_envelope("run.cancel", None, 5, "*", ts=1, omit_payload=True)
    assert '"payload"' not in gm.serialize_envelope(env)
    # A known type is built typed now (validated), as create_envelope does.
    with pytest.deprecated_call():
        env = gm.create_unknown_envelope("mode.set", {"mode": "run"}, 1, "*")
    assert env.payload.mode == "run"
    with pytest.deprecated_call(), pytest.raises(gm.BuildError):
        gm.create_unknown_envelope("mode.set", {"mode": "warp"}, 1, "*")


def test_payload_objects_can_be_reused_when_building() -> None:
    env = gm.parse_envelope_json(FRAME).envelope
    copy = gm.create_envelope("node.started", env.payload, seq=8, run_id="run_1", ts=env.ts)
    assert copy.payload == env.payload
    assert copy.payload.extra == {"future": {"a": 1}}


def test_matcher_helpers_follow_the_equality_rule() -> None:
    assert gm.matchers_equal({"kind": "tool"}, {"kind": "tool", "point": "before", "unknown": 1})
    assert not gm.matchers_equal({"kind": "tool"}, {"kind": "tool", "point": "after"})
    assert not gm.matchers_equal({}, {"name": "x"})
    assert gm.matcher_matches({}, "llm", "x", "before")
    assert not gm.matcher_matches({}, "llm", "x", "after")
    assert gm.matcher_matches({"kind": "tool", "name": "s", "point": "error"}, "tool", "s", "error")
    assert not gm.matcher_matches({"kind": "tool"}, "llm", "s", "before")
    assert gm.should_pause("step", [], "llm", "x", "before")
    assert gm.should_pause("step", [], "llm", "x", "error")
    assert not gm.should_pause("step", [], "llm", "x", "after")
    assert gm.should_pause("run", [{"point": "after", "name": "x"}], "llm", "x", "after")
    m = gm.breakpoint_matcher({"kind": "tool"})
    assert isinstance(m, gm.BreakpointMatcher) and gm.matchers_equal(m, {"kind": "tool"})
    with pytest.raises(ValueError, match="point"):
        gm.breakpoint_matcher({"point": "sometimes"})


def test_constants() -> None:
    assert gm.PROTOCOL_VERSION == 1 and gm.WILDCARD_RUN_ID == "*"
    assert gm.KNOWN_CAPABILITIES == ("pause", "step", "inject", "retry", "abort", "run-claim", "edit-input")
    assert gm.NODE_KINDS == tuple(gm.export_json_schema()["$defs"]["NodeKind"]["enum"])
    assert gm.DEFAULT_MAX_FRAME_BYTES == 16 * 1024 * 1024
    assert gm.DEFAULT_MAX_DEPTH >= 10_000
    assert wirecontract.__version__


def test_schema_export() -> None:
    schema = gm.export_json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == gm.SCHEMA_ID
    assert len(schema["anyOf"]) == len(gm.MESSAGE_TYPES) + 1  # plus the unknown-type branch
    assert gm.export_json_schema_string().endswith("}\n")


def test_size_cap_and_depth_cap_are_invalid_with_a_clear_reason() -> None:
    r = gm.parse_envelope_json(FRAME, max_frame_bytes=10)
    assert r.kind == "invalid" and r.reason == "frame exceeds 10 bytes" and r.issues is None
    deep = '{"gm":1,"seq":1,"ts":1,"runId":"r","type":"x","payload":' + "[" * 1_000_000 + "]" * 1_000_000 + "}"
    r = gm.parse_envelope_json(deep)
    assert r.kind == "invalid" and "deeper than" in r.reason


def test_deep_frames_in_a_small_stack_thread() -> None:
    deep = '{"gm":1,"seq":1,"ts":1,"runId":"r","type":"x","payload":' + "[" * 50_000 + "]" * 50_000 + "}"
    results = []
    threading.stack_size(256 * 1024)
    try:
        t = threading.Thread(target=lambda: results.append(gm.parse_envelope_json(deep)))
        t.start()
        t.join()
    finally:
        threading.stack_size(0)
    assert results[0].kind == "unknown-type"
    # Converting the deep opaque payload to Python values is iterative too.
    payload = results[0].envelope.payload
    depth = 0
    while isinstance(payload, list) and payload:
        payload = payload[0]
        depth += 1
    assert depth == 49_999


def test_bad_arguments_raise_exceptions_not_panics() -> None:
    for bad in (None, 12, ["x"]):
        with pytest.raises(TypeError):
            gm.parse_envelope_json(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        gm.serialize_envelope({"gm": 1})  # type: ignore[arg-type]
    r = gm.parse_envelope({"gm": 1, "seq": 1, "ts": 1, "runId": "r", "type": "mode.set", "payload": {"mode": object()}})
    assert r.kind == "invalid" and "payload.mode" in r.reason
    assert [i.path for i in r.issues] == ["payload.mode"]
    for garbage in (b"\xff\xfe", b"\x00", "\udc00", bytearray(b"{}")):
        assert gm.parse_envelope_json(garbage).kind == "invalid"


def test_int_subclasses_are_written_by_value_never_by_str() -> None:
    import enum

    class Status(enum.IntEnum):
        ONE = 1

        def __str__(self) -> str:
            return "Status.ONE"

    class Evil(int):
        def __str__(self) -> str:
            return '0,"injected":true'

    env = gm.create_envelope("node.finished", {"nodeId": "n", "durationMs": Status.ONE, "status": "ok"}, 1, "r", ts=0)
    assert '"durationMs":1,' in gm.serialize_envelope(env)
    env = gm.create_envelope("x", {"a": Evil(5)}, 1, "r", ts=0)
    assert gm.serialize_envelope(env).endswith('"payload":{"a":5}}')
    assert gm.parse_envelope({"gm": 1, "seq": Evil(3), "ts": 0, "runId": "r", "type": "mode.set", "payload": {"mode": "run"}}).envelope.seq == 3


def test_build_errors_always_carry_reason_and_dotted_issues() -> None:
    with pytest.raises(gm.BuildError) as ei:
        gm.create_envelope("exec.resume", {"pauseId": "p", "action": "inject", "output": [0, {1, 2}]}, 1, "r")
    assert ei.value.reason.startswith("payload has no JSON form")
    assert [i.path for i in ei.value.issues] == ["payload.output.1"]
    with pytest.raises(gm.BuildError) as ei:
        gm.create_envelope("exec.resume", {"pauseId": "p", "action": "inject", "output": {1: "x"}}, 1, "r")
    assert "dict keys must be str" in ei.value.issues[0].message
    for bad in (-1, 2**53, True, 1.5):
        with pytest.raises(gm.BuildError) as ei:
            gm.create_envelope("mode.set", {"mode": "run"}, bad, "r")
        assert ei.value.issues[0].path == "seq"
        with pytest.raises(gm.BuildError) as ei:
            gm.create_envelope("mode.set", {"mode": "run"}, 1, "r", ts=bad)
        assert ei.value.issues[0].path == "ts"


def test_only_matchers_are_matchers() -> None:
    other = gm.parse_envelope_json(FRAME).envelope.payload
    with pytest.raises(TypeError, match="NodeStarted"):
        gm.matchers_equal(other, {})
