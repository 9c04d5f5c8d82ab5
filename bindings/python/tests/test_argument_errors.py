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
