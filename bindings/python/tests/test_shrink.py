"""Payload shrinking (graphmind-shrink §15): every vector of shrink.jsonl, from JSON text
and from the decoded Python value, text byte for byte and tier."""

from __future__ import annotations

import json

import pytest

from wirecontract import graphmind as gm
from conftest import SHARED, _jsonl

VECTORS = _jsonl(SHARED / "vectors/graphmind/shrink.jsonl")


def test_vector_count() -> None:
    assert len(VECTORS) == 233


@pytest.mark.parametrize("v", VECTORS, ids=[v["name"] for v in VECTORS])
def test_shrink_payload_json(v: dict) -> None:
    got = gm.shrink_payload_json(v["payload_json"], v["max_bytes"], v["type"])
    assert (got.tier, got.json) == (v["tier"], v["expect_json"]), v["name"]
    as_bytes = gm.shrink_payload_json(v["payload_json"].encode("utf-8", "surrogatepass"), max_bytes=v["max_bytes"], type=v["type"])
    assert as_bytes == got


@pytest.mark.parametrize("v", VECTORS, ids=[v["name"] for v in VECTORS])
def test_shrink_payload_value(v: dict) -> None:
    # json.loads gives 1e400 as inf and big ints exactly; the binding reads them as JSON.parse.
    got = gm.shrink_payload(json.loads(v["payload_json"]), v["max_bytes"], v["type"])
    assert (got.tier, got.json) == (v["tier"], v["expect_json"]), v["name"]


def test_defaults_and_errors() -> None:
    assert gm.DEFAULT_MAX_PAYLOAD_BYTES == 524288
    s = gm.shrink_payload({"b": 1.0, "1": float("inf")})
    assert (s.tier, s.json, s.truncated) == (1, '{"1":null,"b":1}', False)
    assert gm.shrink_payload_json('"\ud800"').json == '"\\ud800"'
    with pytest.raises(ValueError):
        gm.shrink_payload_json("{")
    with pytest.raises(TypeError):
        gm.shrink_payload_json(1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        gm.shrink_payload({"a": object()})


# --- create_envelope(..., max_payload_bytes=...) ------------------------------------------------

SUFFIX = "\u2026[graphmind: truncated]"


def _payload_text(frame: str) -> str:
    return frame[frame.index(',"payload":') + len(',"payload":') : -1]


def test_create_envelope_shrinks_an_oversize_payload_that_then_parses_ok() -> None:
    payload = {"nodeId": "n", "output": "é" * 1_000_000, "durationMs": 2.5, "status": "ok"}
    whole = gm.serialize_envelope(gm.create_envelope("node.finished", payload, seq=1, run_id="r", ts=0))
    assert len(whole.encode()) > 2_000_000

    env = gm.create_envelope("node.finished", payload, seq=1, run_id="r", ts=0, max_payload_bytes=gm.DEFAULT_MAX_PAYLOAD_BYTES)
    frame = gm.serialize_envelope(env)
    assert len(frame.encode()) < gm.DEFAULT_MAX_PAYLOAD_BYTES
    parsed = gm.parse_envelope_json(frame)
    assert isinstance(parsed, gm.Ok) and isinstance(parsed.envelope.payload, gm.NodeFinished)
    shrunk = parsed.envelope.payload.to_dict()
    assert shrunk["output"].endswith(SUFFIX) and shrunk["__graphmindTruncated"] is True
    assert shrunk["fields"][0] == "output"  # the biggest field first (§4 T2)
    # The payload is the reference's text (keys already in spec order here).
    reference = gm.shrink_payload(payload, gm.DEFAULT_MAX_PAYLOAD_BYTES, "node.finished")
    assert reference.tier == 2 and _payload_text(frame) == reference.json
    # Within budget nothing changes.
    small = {"nodeId": "n", "output": [1.5, {"k": None}], "durationMs": 1, "status": "ok"}
    assert gm.serialize_envelope(gm.create_envelope("node.finished", small, 1, "r", 0, max_payload_bytes=100)) == gm.serialize_envelope(
        gm.create_envelope("node.finished", small, 1, "r", 0)
    )


def test_create_envelope_refuses_what_only_the_marker_fits() -> None:
    invalid = {"nodeId": "n", "durationMs": -1, "status": "ok", "output": "a" * 100}
    with pytest.raises(gm.BuildError) as e:
        gm.create_envelope("node.finished", invalid, 1, "r", 0, max_payload_bytes=60)
    assert "only the whole-payload marker" in str(e.value)
    assert [i.path for i in e.value.issues] == ["payload"]
    assert gm.shrink_payload(invalid, 60, "node.finished").tier == 4
    with pytest.raises(ValueError, match="'max_payload_bytes'") as ei:
        gm.create_envelope("node.finished", invalid, 1, "r", 0, max_payload_bytes=-1)
    assert not isinstance(ei.value, OverflowError)


EVENT_VECTORS = [v for v in VECTORS if v["type"] in gm.EVENT_TYPES and v["tier"] in (2, 3)]


@pytest.mark.parametrize("v", EVENT_VECTORS, ids=[v["name"] for v in EVENT_VECTORS])
def test_create_envelope_with_a_budget_builds_every_tier_2_and_3_event_vector(v: dict) -> None:
    payload = json.loads(v["payload_json"])
    env = gm.create_envelope(v["type"], payload, 1, "r", 0, max_payload_bytes=v["max_bytes"])
    frame = gm.serialize_envelope(env)
    assert len(_payload_text(frame).encode()) <= v["max_bytes"]
    assert gm.parse_envelope_json(frame).kind == "ok"
    want = gm.create_envelope(v["type"], json.loads(v["expect_json"]), 1, "r", 0)
    assert frame == gm.serialize_envelope(want)
