"""Schema versus parser for Graphorin (spec graphorin-v1 §14, issue: the second protocol rides
the same drift guard). Every shared and extra Graphorin vector is validated by an independent
draft 2020-12 validator (python-jsonschema) against the committed
``generated/schema/graphorin.v1.schema.json`` through its per-direction ``$defs``; the schema
must accept a frame exactly when the parser does, except for the frames listed in
``generated/schema/graphorin.v1.known-disagreements.json``. Every frame the serializer writes
validates."""

from __future__ import annotations

import json
from typing import Any

from jsonschema import Draft202012Validator

from wirecontract import graphorin as go

from conftest import REPO, SHARED, _jsonl
from test_schema_vs_parser import SKIPPED_DEEP, _decode, _deep, _too_deep_here

SCHEMA = json.loads((REPO / "generated/schema/graphorin.v1.schema.json").read_text(encoding="utf-8"))
KNOWN = json.loads((REPO / "generated/schema/graphorin.v1.known-disagreements.json").read_text(encoding="utf-8"))
VALIDATORS = {d: Draft202012Validator({**SCHEMA, "oneOf": [{"$ref": f"#/$defs/{d.title()}Message"}]}) for d in ("server", "client")}


def _vectors() -> list[dict[str, Any]]:
    out = [{**v, "id": f"conformance/{v['name']}"} for v in _jsonl(SHARED / "vectors/graphorin/conformance.jsonl")]
    for f in sorted((REPO / "vectors/graphorin").glob("*.jsonl")):
        out += [{**v, "id": f"{f.stem}/{v['name']}"} for v in _jsonl(f)]
    assert len(out) >= 110
    return out


def _survey() -> dict[str, Any]:
    disagreements, unwritten, checked = {}, [], 0
    for v in _vectors():
        parse = go.parse_server_message if v["direction"] == "server" else go.parse_client_message
        try:
            msg = parse(v["frame"])
        except go.ParseError:
            msg = None
        try:
            ok, value = _decode(v["frame"])
            if not ok:
                assert msg is None, f"{v['id']}: parser accepts text JSON.parse rejects"
                continue
            valid = VALIDATORS[v["direction"]].is_valid(value)
            if msg is not None:
                ok2, written = _decode(go.serialize_message(msg))
                if not (ok2 and VALIDATORS[v["direction"]].is_valid(written)):
                    unwritten.append(v["id"])
        except RecursionError:
            _too_deep_here(v["id"])
            continue
        checked += 1
        if valid != (msg is not None):
            disagreements[v["id"]] = ("ok" if msg is not None else "invalid", "valid" if valid else "invalid")
    return {"disagreements": disagreements, "unwritten": unwritten, "checked": checked}


SURVEY = _deep(_survey)


def test_schema_and_parser_disagree_exactly_on_the_known_frames() -> None:
    assert SURVEY["checked"] >= 100
    listed = {d["id"]: (d["parser"], d["schema"]) for d in KNOWN["disagreements"]}
    assert all(d.get("reason") for d in KNOWN["disagreements"]), "every entry needs a reason"
    new = {k: v for k, v in SURVEY["disagreements"].items() if k not in listed}
    stale = {k: v for k, v in listed.items() if SURVEY["disagreements"].get(k) != v and k not in SKIPPED_DEEP}
    assert not new, f"new schema/parser disagreements (fix the schema or list them with a reason): {new}"
    assert not stale, f"listed disagreements that no longer hold: {stale}"


def test_every_frame_the_serializer_writes_validates() -> None:
    assert SURVEY["unwritten"] == []
