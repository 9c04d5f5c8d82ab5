"""Issue 12, from the Rust core: salvage on Invalid, the one builder, serialize of parse
results, the handshake helpers and pause_reason."""

from __future__ import annotations

import pytest

from wirecontract import graphmind as gm

BAD_TOKEN = (
    '{"gm":1,"seq":7,"ts":1756200000000,"runId":"run_1","type":"node.token",'
    '"payload":{"nodeId":"n","deltas":[{"t":"hologram","v":"x"}]}}'
)


def test_invalid_payload_salvages_the_envelope_and_match_still_works() -> None:
    r = gm.parse_envelope_json(BAD_TOKEN)
    assert isinstance(r, gm.Invalid) and r.kind == "invalid"
    assert (r.seq, r.ts, r.run_id, r.type) == (7, 1756200000000, "run_1", "node.token")
    assert gm.Invalid.__match_args__ == ("reason", "issues")
    match r:
        case gm.Invalid(reason, issues):
            assert reason == 'invalid payload for message type "node.token"'
            assert issues is not None and issues[0].path == "payload.deltas.0.t"
        case _:
            pytest.fail("no match")
    # parse_envelope (a decoded dict) salvages the same way.
    d = gm.parse_envelope({"gm": 1, "seq": 2, "ts": 3, "runId": "*", "type": "mode.set", "payload": {"mode": "x"}})
    assert isinstance(d, gm.Invalid) and (d.seq, d.ts, d.run_id, d.type) == (2, 3, "*", "mode.set")


@pytest.mark.parametrize(
    "frame",
    [
        "nope",
        "[]",
        '{"gm":1,"seq":-1,"ts":2,"runId":"r","type":"mode.set","payload":{"mode":"x"}}',
        '{"gm":1,"seq":1,"ts":2,"runId":"a\\u0000","type":"mode.set","payload":{"mode":"x"}}',
    ],
)
def test_nothing_is_salvaged_before_the_payload_step(frame: str) -> None:
    r = gm.parse_envelope_json(frame)
    assert isinstance(r, gm.Invalid)
    assert (r.seq, r.ts, r.run_id, r.type) == (None, None, None, None)


def test_one_builder_takes_any_type() -> None:
    env = gm.create_envelope("future.x", [1, {"a": None}], 1, "*", ts=2)
    assert gm.serialize_envelope(env) == '{"gm":1,"seq":1,"ts":2,"runId":"*","type":"future.x","payload":[1,{"a":null}]}'
    assert gm.parse_envelope_json(gm.serialize_envelope(env)).kind == "unknown-type"
    with pytest.raises(gm.BuildError) as ei:
        gm.create_envelope("mode.set", {"mode": "warp"}, 1, "*")
    assert ei.value.issues[0].path == "payload.mode"


def test_serialize_envelope_accepts_ok_and_unknown_type_results() -> None:
    ok = gm.parse_envelope_json('{"gm":1,"seq":1,"ts":2,"runId":"*","type":"mode.set","payload":{"mode":"run"},"x":1}')
    assert isinstance(ok, gm.Ok)
    assert gm.serialize_envelope(ok) == gm.serialize_envelope(ok.envelope)
    assert gm.serialize_envelope_bytes(ok) == gm.serialize_envelope(ok).encode()
    unknown = gm.parse_envelope_json('{"gm":1,"seq":1,"ts":2,"runId":"*","type":"future.y"}')
    assert isinstance(unknown, gm.UnknownType)
    assert gm.serialize_envelope(unknown) == '{"gm":1,"seq":1,"ts":2,"runId":"*","type":"future.y"}'
    with pytest.raises(TypeError):
        gm.serialize_envelope(gm.parse_envelope_json("nope"))  # type: ignore[arg-type]


def test_pause_reason_beside_should_pause() -> None:
    bps = [{"kind": "tool", "name": "t"}]
    assert gm.pause_reason("run", bps, "tool", "t", "before") == "breakpoint"
    assert gm.pause_reason("step", bps, "tool", "t", "before") == "breakpoint"
    assert gm.pause_reason("step", bps, "llm", "x", "error") == "step"
    assert gm.pause_reason("step", bps, "llm", "x", "after") is None
    for mode in ("run", "step"):
        for point in ("before", "after", "error"):
            for kind, name in (("tool", "t"), ("agent", "t")):
                assert (gm.pause_reason(mode, bps, kind, name, point) is not None) == gm.should_pause(mode, bps, kind, name, point)


HELLO = {"versions": {"protocol": 1, "client": "c"}, "capabilities": ["abort", "x-new", "pause"], "resumeToken": "tok"}


def test_negotiate_hello() -> None:
    a = gm.negotiate_hello(HELLO, ["pause", "abort"])
    assert isinstance(a, gm.Accepted)
    assert (a.protocol, a.capabilities, a.resume_token) == (1, ["abort", "pause"], "tok")
    match gm.negotiate_hello(HELLO):
        case gm.Accepted(protocol, caps, token):
            assert caps == ["abort", "pause"] and token == "tok" and protocol == 1
        case _:
            pytest.fail("not accepted")
    r = gm.negotiate_hello({**HELLO, "versions": {"protocol": 2, "client": "c"}})
    assert isinstance(r, gm.Refused) and "protocol 2" in r.reason
    # A parsed Hello object works as well as a dict.
    parsed = gm.parse_envelope_json(gm.serialize_envelope(gm.create_envelope("hello", HELLO, 0, "*", ts=1)))
    assert isinstance(parsed, gm.Ok)
    assert isinstance(gm.negotiate_hello(parsed.envelope.payload), gm.Accepted)
    with pytest.raises(ValueError):
        gm.negotiate_hello({"versions": {}})


def test_hello_ack_from_the_viewer_state() -> None:
    env = gm.hello_ack(HELLO, viewer="me", breakpoints=[{"kind": "tool"}, {"kind": "tool", "point": "before"}], mode="step", seq=0, session_token="s", ts=5)
    assert gm.serialize_envelope(env) == (
        '{"gm":1,"seq":0,"ts":5,"runId":"*","type":"hello.ack","payload":{"versions":{"protocol":1,"viewer":"me"},'
        '"capabilities":["abort","x-new","pause"],"breakpoints":[{"kind":"tool"}],"mode":"step","sessionToken":"s"}}'
    )
    assert gm.parse_envelope_json(gm.serialize_envelope(env)).kind == "ok"
