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


def test_resume_request_id_with_a_lone_surrogate_is_build_error() -> None:
    with pytest.raises(gm.BuildError):
        session.ViewerSession().resume("p", "inject", 1, request_id=LONE)


@pytest.mark.parametrize("label, call", [
    ("max_payload_bytes=-1", lambda: gm.create_envelope("node.token", {"nodeId": "n", "deltas": []}, 1, "r", max_payload_bytes=-1)),
    ("max_payload_bytes=2**70", lambda: gm.create_envelope("node.token", {"nodeId": "n", "deltas": []}, 1, "r", max_payload_bytes=2**70)),
    ("max_frame_bytes=-1", lambda: gm.parse_envelope_json("{}", max_frame_bytes=-1)),
    ("max_depth=2**70", lambda: gm.parse_envelope_json("{}", max_depth=2**70)),
    ("ring_max_frames=-1", lambda: session.AppSession(ring_max_frames=-1)),
    ("pause_timeout_ms=-5", lambda: session.AppSession(pause_timeout_ms=-5)),
    ("fast_retry_ms[0]", lambda: session.AppSession(fast_retry_ms=[2**70])),
    ("max_payload_bytes", lambda: session.AppSession(max_payload_bytes=-1)),
    ("timeout_ms", lambda: session.AppSession(id_base="abc123").ready(1, timeout_ms=-1)),
    ("max_resume_token_len", lambda: session.ViewerSession(max_resume_token_len=-1)),
    ("resume_wait_ms", lambda: session.ViewerSession(resume_wait_ms=2**70)),
])
def test_no_bare_overflow_error_for_any_integer_argument(label, call) -> None:
    with pytest.raises(ValueError) as ei:
        call()
    assert type(ei.value) is ValueError, type(ei.value)
    arg = label.split("=")[0]
    assert f"'{arg}'" in str(ei.value), str(ei.value)


def test_a_bool_is_not_a_size() -> None:
    with pytest.raises(TypeError, match="'max_payload_bytes'"):
        gm.create_envelope("node.token", {"nodeId": "n", "deltas": []}, 1, "r", max_payload_bytes=True)


def test_any_mapping_is_accepted_where_the_stubs_say_mapping() -> None:
    from types import MappingProxyType
    hello = MappingProxyType({"versions": {"protocol": 1, "client": "c"}, "capabilities": ["pause"], "app": "a", "sdk": {"name": "python", "version": "1"}})
    assert isinstance(gm.negotiate_hello(hello), gm.Accepted)
    started = gm.RunStarted(app="a", sdk=gm.SdkInfo(name="python", version="1"), meta=MappingProxyType({"k": 1}))
    assert started.meta == {"k": 1}
    matcher = MappingProxyType({"kind": "tool"})
    assert gm.matchers_equal(matcher, {"kind": "tool", "point": "before"})
    env = gm.create_envelope("node.started", MappingProxyType({**STARTED, "input": MappingProxyType({"q": 1})}), 1, "r")
    assert '"input":{"q":1}' in gm.serialize_envelope(env)


def test_accepted_repr_is_python() -> None:
    hello = {"versions": {"protocol": 1, "client": "c"}, "capabilities": [], "app": "a", "sdk": {"name": "python", "version": "1"}, "resumeToken": "t"}
    r = repr(gm.negotiate_hello(hello))
    assert "Some(" not in r and "resume_token='t'" in r or 'resume_token="t"' in r, r


def test_breakpoints_must_be_a_sequence() -> None:
    with pytest.raises(TypeError, match="breakpoints must be a sequence"):
        gm.pause_reason("run", None, "tool", "t", "before")  # type: ignore[arg-type]


def test_a_non_finite_number_in_a_constructor_is_named() -> None:
    with pytest.raises(gm.BuildError) as ei:
        gm.NodeFinished(node_id="n", instance_id="i", duration_ms=math.nan, status="ok")
    [issue] = ei.value.issues
    assert issue.path == "durationMs" and "received nan " in issue.message, issue


def test_enum_and_object_arguments_raise_the_contract_readers_text() -> None:
    """The binding adds no text of its own: each message is the contract's `core::enum_arg` /
    `core::object_arg` text (`contract/src/wire/host.rs`), the accepted values and the type
    name read from the registry."""
    kinds = ", ".join(f'"{k}"' for k in gm.NODE_KINDS)
    with pytest.raises(ValueError) as ei:
        gm.should_pause("run", [], "robot", "n", "before")
    assert str(ei.value) == f'kind must be one of [{kinds}], not "robot"'
    with pytest.raises(ValueError) as ei:
        session.ViewerSession().set_mode("Run", 1)
    assert str(ei.value) == 'mode must be one of ["run", "step"], not "Run"'
    with pytest.raises(ValueError) as ei:
        session.ViewerSession().resume("p", "go", 1)
    assert str(ei.value).startswith('action must be one of ["continue", '), str(ei.value)
    with pytest.raises(ValueError) as ei:
        gm.should_pause("run", [{"kind": "tool"}, {"kind": "robot"}], "tool", "n", "before")
    assert str(ei.value).startswith("breakpoints[1] is not a valid BreakpointMatcher: kind: invalid option"), str(ei.value)
    with pytest.raises(ValueError, match=r"^hello is not a valid Hello: "):
        gm.negotiate_hello({"versions": {}})
    with pytest.raises(ValueError, match=r"^sdk is not a valid SdkInfo: "):
        session.AppSession(sdk={"name": 1})
    started = gm.NodeStarted(node_id="n", kind="tool", name="x", instance_id="i")
    with pytest.raises(TypeError) as ei:
        gm.matchers_equal(started, {})
    assert str(ei.value) == "a must be a dict or a BreakpointMatcher, not a NodeStarted"


# ---- review of issue 11's host arguments ---------------------------------------------------

HELLO = {"versions": {"protocol": 1, "client": "c"}, "capabilities": [], "app": "a", "sdk": {"name": "python", "version": "1"}}


def _no_viewer_session():
    """A ``Session`` whose viewer never answers: frames stay in the core's buffer to read."""
    return session.connect("ws://127.0.0.1:9/ingest", retry_interval_ms=50, fast_retry_ms=[])


def _frames(s):
    import json
    return [json.loads(f) for f in s.core.buffered_frames]


@pytest.mark.parametrize("meta", [[1], "abc", ["ab", ("k", 1)]])
def test_run_meta_goes_to_the_core_unconverted(meta) -> None:
    """``dict(meta)`` raised a raw TypeError/ValueError, or made ``{"a": "b", "k": 1}`` of a
    list of pairs; the core's BuildError names ``meta``."""
    import asyncio

    async def main() -> None:
        async with _no_viewer_session() as s:
            with pytest.raises(gm.BuildError, match="meta: expected object"):
                async with s.run("job", meta=meta):
                    pass
            assert not any(f["type"] == "run.started" for f in _frames(s))

    asyncio.run(asyncio.wait_for(main(), 30))


def test_run_meta_any_mapping_is_sent_as_an_object() -> None:
    import asyncio
    from types import MappingProxyType

    async def main() -> None:
        async with _no_viewer_session() as s:
            async with s.run("job", meta=MappingProxyType({"k": 1})):
                pass
            [started] = [f for f in _frames(s) if f["type"] == "run.started"]
            assert started["payload"]["meta"] == {"name": "job", "k": 1}

    asyncio.run(asyncio.wait_for(main(), 30))


def test_an_abort_of_another_run_still_finishes_this_run_with_an_error() -> None:
    import asyncio

    async def main() -> None:
        async with _no_viewer_session() as s:
            with pytest.raises(session.RunAborted):
                async with s.run("job", run_id="mine"):
                    raise session.RunAborted("someone-else")
            finished = [f for f in _frames(s) if f["type"] == "run.finished" and f["runId"] == "mine"]
            assert len(finished) == 1, _frames(s)
            p = finished[0]["payload"]
            assert p["status"] == "error"
            assert p["error"]["name"] == "RunAborted" and "someone-else" in p["error"]["message"]

    asyncio.run(asyncio.wait_for(main(), 30))


def test_host_value_errors_in_object_arguments_name_the_argument() -> None:
    cyc: list = []
    cyc.append(cyc)
    with pytest.raises(ValueError) as ei:
        gm.should_pause("run", [{"kind": "tool", "x": cyc}], "tool", "n", "before")
    assert str(ei.value).startswith("breakpoints[0].x.0.0"), str(ei.value)
    assert "nests deeper" in str(ei.value)
    with pytest.raises(TypeError) as ei:
        gm.should_pause("run", [{"kind": "tool"}, {1: 2}], "tool", "n", "before")
    assert str(ei.value) == "breakpoints[1]: dict keys must be str, found the int key 1"
    with pytest.raises(TypeError) as ei:
        session.ViewerSession(breakpoints=[{1: 2}])
    assert str(ei.value) == "breakpoints[0]: dict keys must be str, found the int key 1"
    with pytest.raises(TypeError) as ei:
        session.ViewerSession().resume("p", "inject", 1, output={1: 2})
    assert str(ei.value) == "output: dict keys must be str, found the int key 1"


def test_a_contract_object_without_json_form_is_the_wrong_object() -> None:
    env = gm.create_envelope("mode.set", {"mode": "run"}, 1, "r")
    with pytest.raises(TypeError) as ei:
        gm.matcher_matches(env, "tool", "n", "before")
    assert str(ei.value) == "matcher must be a dict or a BreakpointMatcher, not a Envelope"
    with pytest.raises(TypeError) as ei:
        gm.negotiate_hello(env)
    assert str(ei.value) == "hello must be a dict or a Hello, not a Envelope"


@pytest.mark.parametrize("bad, shown", [({"kind": "tool"}, "dict"), ("tool", "str"), (b"tool", "bytes"), (1, "int")])
def test_breakpoints_must_be_a_sequence_of_matchers_everywhere(bad, shown) -> None:
    text = f"breakpoints must be a sequence of dicts or BreakpointMatcher objects, not {shown}"
    for call in (
        lambda: gm.should_pause("run", bad, "tool", "n", "before"),
        lambda: gm.pause_reason("run", bad, "tool", "n", "before"),
        lambda: gm.hello_ack(HELLO, viewer="v", breakpoints=bad, mode="run", seq=1),
        lambda: session.ViewerSession(breakpoints=bad),
    ):
        with pytest.raises(TypeError) as ei:
            call()
        assert str(ei.value) == text


def test_resume_request_id_of_another_type_is_named() -> None:
    with pytest.raises(TypeError) as ei:
        session.ViewerSession().resume("p", "continue", 1, request_id=1)
    assert str(ei.value) == "request_id must be a str or None, not int"


def test_finish_run_error_of_another_contract_type_is_the_wrong_object() -> None:
    a = session.AppSession()
    a.start_run("r", "job", 1)
    with pytest.raises(TypeError) as ei:
        a.finish_run("r", 2, error=gm.SdkInfo(name="a", version="1"))
    assert str(ei.value) == "error must be a dict or a ErrorInfo, not a SdkInfo"


def test_loop_mode_error_reads_as_the_enum_errors_do() -> None:
    with pytest.raises(ValueError) as ei:
        session.AppSession(loop_mode="Pause")
    assert str(ei.value) == 'loop_mode must be one of ["pause", "warn", "off"], not "Pause"'


def test_a_huge_rejected_enum_value_is_echoed_capped() -> None:
    with pytest.raises(ValueError) as ei:
        gm.should_pause("x" * 10_000_000, [], "tool", "n", "before")
    assert len(str(ei.value)) < 200
    assert str(ei.value).endswith('…" (10000000 bytes)'), str(ei.value)[-80:]
