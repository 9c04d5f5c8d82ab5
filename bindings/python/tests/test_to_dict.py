"""`to_dict()` is built straight from the parsed fields for speed; it must stay exactly
`json.loads` of the serialized JSON — same keys, same order, same Python types (an integral
`durationMs` is an `int`, as `JSON.stringify` writes it), at the envelope and at every
nested object."""

from __future__ import annotations

import json
from typing import Any

import pytest

from wirecontract import graphmind as gm

from conftest import graphmind_vectors

VALID = [v for v in graphmind_vectors() if v["expect"] in ("ok", "unknown-type")]


def typed(x: Any) -> Any:
    """The value with every scalar tagged by its type and dicts as ordered item lists."""
    if isinstance(x, dict):
        return ("dict", [(k, typed(v)) for k, v in x.items()])
    if isinstance(x, list):
        return ("list", [typed(v) for v in x])
    return (type(x).__name__, repr(x))


@pytest.mark.parametrize("v", VALID, ids=lambda v: v["id"])
def test_to_dict_is_json_loads_of_the_serialized_frame(v: dict) -> None:
    env = gm.parse_envelope_json(v["frame"]).envelope
    try:
        expected = typed(json.loads(env.to_json()))
    except RecursionError:
        # Deeper than Python's json module (and `typed`) recurse: check the dict through our
        # own iterative reader and writer instead — it must give back the same frame bytes.
        again = gm.parse_envelope(env.to_dict())
        assert again.kind == v["expect"] and gm.serialize_envelope(again.envelope) == env.to_json()
        return
    assert typed(env.to_dict()) == expected
    if v["expect"] == "ok":
        p = env.payload
        assert typed(p.to_dict()) == typed(json.loads(p.to_json()))


def test_integral_numbers_come_back_as_int() -> None:
    frame = '{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.finished","payload":{"nodeId":"n","durationMs":1.0e3,"status":"ok","heldMs":0.5}}'
    d = gm.parse_envelope_json(frame).envelope.to_dict()
    assert d["payload"]["durationMs"] == 1000 and type(d["payload"]["durationMs"]) is int
    assert type(d["payload"]["heldMs"]) is float


def test_result_envelope_is_one_object() -> None:
    r = gm.parse_envelope_json('{"gm":1,"seq":1,"ts":2,"runId":"r","type":"mode.set","payload":{"mode":"run"}}')
    assert r.envelope is r.envelope
    assert repr(r) == "Ok(Envelope(type=\"mode.set\", seq=1, run_id=\"r\"))"


# Envelope dicts start as a copy of one shared six-key template (docs/performance.md,
# "5. Python binding"): every shape of the envelope's key set keeps wire order, and no dict handed out
# shares state with the template or with another result.
ENVELOPE_SHAPES = [
    '{"gm":1,"seq":1,"ts":2,"runId":"r","type":"mode.set","payload":{"mode":"run"}}',
    '{"gm":1,"seq":1,"ts":2,"runId":"r","type":"x.custom"}',
    '{"gm":1,"seq":1,"ts":2,"runId":"r","type":"x.custom","payload":null}',
    '{"zz":[1],"gm":1,"seq":1,"ts":2,"runId":"r","type":"x.custom"}',
    '{"gm":1,"seq":1,"ts":2,"runId":"r","type":"x.custom","a":1,"payload":{"k":2},"b":{}}',
    '{"gm":1,"seq":1,"ts":2,"runId":"r","type":"mode.set","payload":{"mode":"run"},"extra":true}',
]


@pytest.mark.parametrize("frame", ENVELOPE_SHAPES)
def test_envelope_dict_key_order_with_and_without_payload(frame: str) -> None:
    env = gm.parse_envelope_json(frame).envelope
    assert typed(env.to_dict()) == typed(json.loads(env.to_json()))


def test_envelope_dicts_share_nothing() -> None:
    with_payload = gm.parse_envelope_json(ENVELOPE_SHAPES[0]).envelope
    without = gm.parse_envelope_json(ENVELOPE_SHAPES[1]).envelope
    first = with_payload.to_dict()
    first["seq"] = 99
    first["added"] = 1
    del first["payload"]
    assert without.to_dict() == {"gm": 1, "seq": 1, "ts": 2, "runId": "r", "type": "x.custom"}
    assert list(with_payload.to_dict()) == ["gm", "seq", "ts", "runId", "type", "payload"]
    assert with_payload.to_dict() is not with_payload.to_dict()


# Non-ASCII strings of 64 bytes to 64 KiB are made through UTF-32 (`PyUnicode_FromWideChar`,
# docs/performance.md, "5. Python binding"), others by CPython's UTF-8 decoder: the same `str`
# either way, in opaque values, typed fields, with escapes and without, on both sides of each
# bound.
PIECES = ["a", "é", "ß", "Ж", "模", "…", "🚀", "\U0010ffff", "\x7f", "\u0080", "\u07ff", "\u0800", "\uffff", "\U00010000"]
ESCAPES = ["\\n", '\\"', "\\\\", "\\/", "\\u00e9", "\\u6a21", "\\ud83d\\ude80", "\\u0000", "\\t"]


def string_of(nbytes: int, seed: int, escapes: bool) -> str:
    """JSON string content of about `nbytes` UTF-8 bytes, mixing every width (and escapes)."""
    out, size, i = [], 0, seed
    while size < nbytes:
        i = (i * 1103515245 + 12345) % 2**31
        piece = ESCAPES[i % len(ESCAPES)] if escapes and i % 7 == 0 else PIECES[i % len(PIECES)] if i % 3 else "x" * (i % 40)
        out.append(piece)
        size += len(piece.encode())
    return "".join(out)


def wide_frames() -> list[str]:
    frames = []
    for nbytes in (1, 16, 63, 64, 65, 200, 1000, 65535, 65536, 65537, 70_000):
        for seed in range(3):
            for escapes in (False, True):
                s = string_of(nbytes, seed, escapes)
                frames.append('{"gm":1,"seq":1,"ts":2,"runId":"r","type":"x.custom","payload":{"k":"' + s + '","l":["' + s + '"]}}')
                frames.append('{"gm":1,"seq":1,"ts":2,"runId":"r","type":"node.token","payload":{"nodeId":"n","deltas":[{"t":"text","v":"' + s + '"}]}}')
    # A lone surrogate escape in a long string: the slow path keeps it as `json.loads` does.
    frames.append('{"gm":1,"seq":1,"ts":2,"runId":"r","type":"x.custom","payload":{"k":"' + "模" * 40 + '\\ud800' + "é" * 40 + '"}}')
    return frames


@pytest.mark.parametrize("frame", wide_frames(), ids=lambda f: f"{len(f.encode())}B")
def test_strings_of_every_width_and_length(frame: str) -> None:
    env = gm.parse_envelope_json(frame).envelope
    assert typed(env.to_dict()) == typed(json.loads(env.to_json()))
    if env.type == "x.custom":
        # The opaque payload converts from the input's text: the same as `json.loads` of it.
        assert env.to_dict()["payload"] == json.loads(frame)["payload"]
