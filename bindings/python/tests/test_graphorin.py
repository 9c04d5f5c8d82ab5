"""Every Graphorin vector in Python: verdict, variant, ParseError shape, round trip."""

from __future__ import annotations

import json

import pytest

from wirecontract import graphorin as go

from conftest import SHARED, REPO, _jsonl

VECTORS = [{**v, "id": f"conformance/{v['name']}"} for v in _jsonl(SHARED / "vectors/graphorin/conformance.jsonl")]
EXTRA = REPO / "vectors/graphorin"
for f in sorted(EXTRA.glob("*.jsonl")) if EXTRA.exists() else []:
    VECTORS += [{**v, "id": f"{f.stem}/{v['name']}"} for v in _jsonl(f)]
assert len(VECTORS) >= 110


def parse(v: dict, data):
    return (go.parse_server_message if v["direction"] == "server" else go.parse_client_message)(data)


@pytest.mark.parametrize("v", VECTORS, ids=[v["id"] for v in VECTORS])
def test_verdict_variant_and_round_trip(v: dict) -> None:
    if v["expect"] == "ok":
        msg = parse(v, v["frame"])
        assert go.variant(msg) == v["variant"]
        # Exactly one guard is true.
        guards = [name for _, name in go._impl.GUARDS if getattr(go, name)(msg)]
        assert len(guards) == 1
        text = go.serialize_message(msg)
        again = parse(v, text)
        assert again == msg and go.serialize_message(again) == text
        try:
            assert json.loads(text) == msg.to_dict()
        except RecursionError:
            assert "deep" in v["name"]  # Python's own json recursion; bytes compared above
    else:
        with pytest.raises(go.ParseError) as ei:
            parse(v, v["frame"])
        e = ei.value
        assert isinstance(e, ValueError)
        assert e.is_json == e.is_syntax_error  # the deprecated name agrees
        if e.is_syntax_error:
            assert e.issues == [] and e.rpc_error_code == -32700
        else:
            assert e.issues and all(i.code for i in e.issues)
            assert e.rpc_error_code == -32600


def test_typed_attributes_and_literals() -> None:
    msg = go.parse_client_message('{"v":"1","jsonrpc":"2.0","id":7.0,"method":"ping"}')
    assert isinstance(msg, go.ClientPingRequest)
    assert (msg.v, msg.jsonrpc, msg.method, msg.id) == ("1", "2.0", "ping", 7)
    assert go.serialize_message(msg) == '{"v":"1","jsonrpc":"2.0","id":7,"method":"ping"}'
    assert go.is_ping_request(msg) and not go.is_event_frame(msg)


def test_parse_error_keeps_the_raw_id_with_its_json_type() -> None:
    with pytest.raises(go.ParseError) as ei:
        go.parse_client_message('{"jsonrpc":"2.0","id":"abc","method":"nope"}')
    assert ei.value.id == "abc" and ei.value.reply_id == "abc"
    with pytest.raises(go.ParseError) as ei:
        go.parse_client_message('{"jsonrpc":"2.0","id":1.5,"method":"ping"}')
    assert ei.value.id == 1.5 and ei.value.reply_id == 0
    with pytest.raises(go.ParseError) as ei:
        go.parse_client_message("{")
    assert ei.value.is_syntax_error and ei.value.id is None
    with pytest.raises(go.ParseError) as ei:
        go.parse_client_message('{"jsonrpc":"2.0","id":1,"method":"nope"}')
    assert not ei.value.is_syntax_error, "JSON that is not a legal frame is a schema failure"


def test_catalogues_and_subprotocol_helpers() -> None:
    assert go.CLOSE_CODES == {r: go.close_code_for(r) for r in go.CLOSE_CODES}
    assert sorted(go.CLOSE_CODES.values()) == list(range(4001, 4009))
    assert all(go.close_code_reason(c) == r for r, c in go.CLOSE_CODES.items())
    assert go.close_code_reason(1000) is None
    assert go.RPC_ERROR_CODES["PARSE_ERROR"] == -32700
    assert go.negotiate([go.SUBPROTOCOL_NAME]) == go.SUBPROTOCOL_NAME
    assert go.negotiate(["other"]) is None
    ticket = go.format_ticket("t0k")
    assert go.parse_ticket([go.SUBPROTOCOL_NAME, ticket]) == "t0k"
    with pytest.raises(ValueError):
        go.format_ticket("")
    # §7: an offer may be one header value (comma-separated), a list, or anything else (empty).
    assert go.negotiate(go.SUBPROTOCOL_NAME) == go.SUBPROTOCOL_NAME
    assert go.negotiate(f"x, {go.SUBPROTOCOL_NAME}") == go.SUBPROTOCOL_NAME
    assert go.parse_ticket("a, ticket.x") == "x"
    assert go.negotiate(None) is None and go.parse_ticket(42) is None
    # §6: any code outside the table maps to nothing.
    assert go.close_code_reason(2**70) is None and go.close_code_reason(-1) is None


def test_build_only_legal_frames() -> None:
    with pytest.raises(go.ParseError):
        go.build_server_message({"kind": "nope"})
    frames = [v["frame"] for v in VECTORS if v["expect"] == "ok" and v["direction"] == "server" and "deep" not in v["name"]]
    for f in map(json.loads, frames[:20]):
        built = go.build_server_message(f)
        assert go.parse_server_message(go.serialize_message(built)) == built
