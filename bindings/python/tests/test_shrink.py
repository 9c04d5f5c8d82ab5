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
