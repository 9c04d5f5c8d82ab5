"""Errors name what the caller wrote: the argument, the path, the value (issue 12 review).

Each case failed before: a repeated issue in the message, a path ending in ``.`` for a bad
dict key, a bare ``OverflowError``, the Rust identifier ``r#type`` in a ``TypeError``, and
``received null`` for a NaN the caller passed.
"""

import math

import pytest

from wirecontract import graphmind as gm
from wirecontract.graphmind import session

STARTED = {"nodeId": "n", "kind": "tool", "name": "x", "instanceId": "i"}


def test_a_host_value_error_states_its_one_issue_once() -> None:
    with pytest.raises(gm.BuildError) as ei:
        gm.create_envelope("node.started", {**STARTED, "input": {"ok": [1, {2: "x"}]}}, 1, "r")
    e = ei.value
    assert [(i.path, i.message) for i in e.issues] == [("payload.input.ok.1", "dict keys must be str, found the int key 2")]
    assert str(e).count("dict keys must be str") == 1, str(e)
    assert not any(i.path.endswith(".") for i in e.issues)


@pytest.mark.parametrize("call, arg", [
    (lambda: gm.shrink_payload({}, max_bytes=2**70), "max_bytes"),
    (lambda: gm.shrink_payload({}, max_bytes=-1), "max_bytes"),
    (lambda: gm.shrink_payload_json("{}", max_bytes=-1), "max_bytes"),
])
def test_out_of_range_integers_name_the_argument(call, arg) -> None:
    with pytest.raises(ValueError) as ei:
        call()
    assert not isinstance(ei.value, OverflowError)
    assert f"'{arg}'" in str(ei.value), str(ei.value)


@pytest.mark.parametrize("call", [
    lambda: gm.create_envelope(1, {}, 1, "r"),
    lambda: gm.shrink_payload({}, type=1),
    lambda: gm.shrink_payload_json("{}", type=b"node.started"),
])
def test_a_wrong_type_argument_is_named_as_written(call) -> None:
    with pytest.raises(TypeError) as ei:
        call()
    assert "'type'" in str(ei.value) and "r#" not in str(ei.value), str(ei.value)


def test_session_arguments_are_named() -> None:
    s = session.AppSession(id_base="abc123")
    with pytest.raises(ValueError, match="'now_ms'"):
        s.transport_opened(-1)
    with pytest.raises(TypeError, match="'now_ms'"):
        s.transport_opened("1")
    with pytest.raises(TypeError) as ei:
        s.emit(3, {}, 1)
    assert "'type'" in str(ei.value) and "r#" not in str(ei.value)


@pytest.mark.parametrize("value, shown", [(math.nan, "nan"), (math.inf, "inf"), (-math.inf, "-inf")])
def test_a_non_finite_number_in_a_typed_field_is_named(value, shown) -> None:
    payload = {"nodeId": "n", "instanceId": "i", "durationMs": value, "status": "ok"}
    with pytest.raises(gm.BuildError) as ei:
        gm.create_envelope("node.finished", payload, 1, "r")
    [issue] = ei.value.issues
    assert issue.path == "payload.durationMs"
    assert f"received {shown} " in issue.message and "JSON.stringify" in issue.message, issue.message


def test_a_non_finite_opaque_value_is_written_null_as_json_stringify_does() -> None:
    env = gm.create_envelope("node.started", {**STARTED, "input": [math.inf, math.nan]}, 1, "r")
    assert '"input":[null,null]' in gm.serialize_envelope(env)


LONE = "x\udc00"


def _lone_surrogate_calls():
    app = session.AppSession(id_base="abc123")
    viewer = session.ViewerSession()
    node = session.GateNode("n", "tool", "t", "c")
    return [
        ("AppSession(url)", lambda: session.AppSession(url=LONE)),
        ("AppSession(app)", lambda: session.AppSession(app=LONE)),
        ("AppSession(capabilities)", lambda: session.AppSession(capabilities=[LONE])),
        ("AppSession(id_base)", lambda: session.AppSession(id_base=LONE)),
        ("GateNode(node_id)", lambda: session.GateNode(LONE, "tool", "t", "c")),
        ("GateNode(instance_id)", lambda: session.GateNode("n", "tool", "t", LONE)),
        ("emit(run)", lambda: app.emit("node.token", {"nodeId": "n", "deltas": []}, 1, LONE)),
        ("gate(point)", lambda: app.gate(LONE, node, 1)),
        ("gate(run)", lambda: app.gate("before", node, 1, LONE)),
        ("cancel", lambda: app.cancel(LONE, 1)),
        ("ViewerSession(viewer_version)", lambda: session.ViewerSession(viewer_version=LONE)),
        ("set_mode", lambda: viewer.set_mode(LONE, 1)),
        ("resume(pause_id)", lambda: viewer.resume(LONE, "continue", 1)),
        ("resume(action)", lambda: viewer.resume("p", LONE, 1)),
        ("negotiate_hello", lambda: gm.negotiate_hello({"versions": {"protocol": 1}}, [LONE])),
        ("hello_ack(viewer)", lambda: gm.hello_ack({"versions": {"protocol": 1}}, viewer=LONE, breakpoints=[], mode="run", seq=1)),
        ("pause_reason(name)", lambda: gm.pause_reason("run", [], "tool", LONE, "before")),
    ]


@pytest.mark.parametrize("index", range(17))
def test_a_lone_surrogate_in_any_str_argument_is_build_error(index) -> None:
    label, call = _lone_surrogate_calls()[index]
    with pytest.raises(gm.BuildError) as ei:
        call()
    assert "lone surrogate" in str(ei.value), label
