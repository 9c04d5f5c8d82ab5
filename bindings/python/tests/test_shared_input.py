"""Parse results share the caller's input instead of copying opaque values (issue 18): the
result holds a reference to a `bytes`/`str` input, a `bytearray` is copied once up front, and
every result stays valid and unchanged whatever the caller does with its own reference."""

from __future__ import annotations

import gc
import json
import sys

from wirecontract import graphmind as gm

FRAME = (
    '{"gm":1,"seq":7,"ts":1700000000000,"runId":"r-é","type":"node.started","payload":{"nodeId":"n1",'
    '"kind":"tool","name":"search","instanceId":"i1","input":{"q":"東京 café \\"quoted\\" 🚀","n":[1,2.5,-0,1e400]},'
    '"zz":{"unknown":true}},"extraTop":[null,"x"]}'
)
UNKNOWN = '{"gm":1,"seq":1,"ts":2,"runId":"r","type":"x.custom","payload":{"a":[1,"\\u00e9\\n"],"b":{}}}'


def expected(text: str) -> tuple[dict, str]:
    env = gm.parse_envelope_json(text).envelope
    return env.to_dict(), gm.serialize_envelope(env)


def check_after_drop(make) -> None:
    for text in (FRAME, UNKNOWN):
        want_dict, want_json = expected(text)
        data = make(text)
        r = gm.parse_envelope_json(data)
        del data
        gc.collect()
        assert r.envelope.to_dict() == want_dict
        assert gm.serialize_envelope(r) == want_json
        assert json.loads(gm.serialize_envelope_bytes(r)) == json.loads(want_json)
        payload = r.envelope.payload
        if text is UNKNOWN:
            assert payload == {"a": [1, "é\n"], "b": {}}
        else:
            assert payload.input == {"q": '東京 café "quoted" 🚀', "n": [1, 2.5, 0, float("inf")]}
            assert payload.extra == {"zz": {"unknown": True}}
        assert r.envelope.extra == ({"extraTop": [None, "x"]} if text is FRAME else {})


def test_bytes_input_may_be_dropped() -> None:
    check_after_drop(lambda t: t.encode())


def test_str_input_may_be_dropped() -> None:
    check_after_drop(lambda t: "".join([t]))


def test_bytearray_input_is_copied_once_and_may_change() -> None:
    want_dict, want_json = expected(FRAME)
    data = bytearray(FRAME.encode())
    r = gm.parse_envelope_json(data)
    data[:] = b"x" * len(data)
    assert r.envelope.to_dict() == want_dict
    assert gm.serialize_envelope(r) == want_json


def test_result_references_bytes_input_instead_of_copying() -> None:
    data = FRAME.encode()
    before = sys.getrefcount(data)
    r = gm.parse_envelope_json(data)
    assert sys.getrefcount(data) == before + 1
    del r
    gc.collect()
    assert sys.getrefcount(data) == before


def test_invalid_utf8_and_lone_surrogates_still_give_their_verdicts() -> None:
    bad = gm.parse_envelope_json(b'{"gm":1,"x":"\xff"}')
    assert bad.kind == "invalid" and "invalid UTF-8 at byte 13" in bad.reason
    lone = gm.parse_envelope_json('{"gm":1,"x":"\ud800"}')
    assert lone.kind == "invalid" and "invalid UTF-8" in lone.reason
    big = gm.parse_envelope_json(FRAME.encode(), max_frame_bytes=10)
    assert big.kind == "invalid" and big.reason == "frame exceeds 10 bytes"


# Graphorin: the same sharing (`bytes`/`str` referenced, `bytearray` copied once).
GRAPHORIN = (
    '{"v":"1","kind":"event","eventId":"e1","subscriptionId":"s1","subject":"runs/1","type":"run.note",'
    '"payload":{"text":"東京 café \\"q\\" 🚀","n":[1,2.5,1e400],"deep":{"x":null}}}'
)
GRAPHORIN_RPC = '{"v":"1","jsonrpc":"2.0","id":"r-1","result":{"items":["a","\\u00e9"],"ok":true}}'


def test_graphorin_results_survive_their_input() -> None:
    from wirecontract import graphorin as go

    for text in (GRAPHORIN, GRAPHORIN_RPC):
        want = go.parse_server_message(text)
        want_dict, want_json = want.to_dict(), go.serialize_message(want)
        for make in (lambda t: t.encode(), lambda t: "".join([t]), lambda t: bytearray(t.encode())):
            data = make(text)
            msg = go.parse_server_message(data)
            if isinstance(data, bytearray):
                data[:] = b"x" * len(data)
            del data
            gc.collect()
            assert msg == want
            assert msg.to_dict() == want_dict
            assert go.serialize_message(msg) == want_json


def test_graphorin_result_references_bytes_input() -> None:
    from wirecontract import graphorin as go

    data = GRAPHORIN.encode()
    before = sys.getrefcount(data)
    msg = go.parse_server_message(data)
    assert sys.getrefcount(data) == before + 1
    del msg
    gc.collect()
    assert sys.getrefcount(data) == before


def test_graphorin_bad_utf8_is_still_a_syntax_error() -> None:
    import pytest

    from wirecontract import graphorin as go

    with pytest.raises(go.ParseError) as ei:
        go.parse_server_message(b'{"v":"1","kind":"\xff"}')
    assert ei.value.is_syntax_error and "invalid UTF-8 at byte 17" in str(ei.value)
    with pytest.raises(go.ParseError) as ei:
        go.parse_client_message('{"v":"1","method":"\ud800"}')
    assert ei.value.is_syntax_error
