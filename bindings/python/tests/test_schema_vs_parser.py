"""Schema versus parser (spec graphmind-v1 §5.15).

An independent draft 2020-12 validator (python-jsonschema) checks every shared vector, extra
vector and real-client frame against the committed ``generated/schema/graphmind.v1.schema.json``.
The schema accepts a frame exactly when the parser says ``ok`` or ``unknown-type``, except for
the frames listed in ``generated/schema/graphmind.v1.known-disagreements.json`` (hand-maintained,
each with its reason): a new disagreement fails, and so does a listed one that went away.
Every frame our serializer writes validates, and the frames whose re-serialized value differs
from the original (the one lossy spot of §5.9) are listed in the same file.

Frames are decoded as ``JSON.parse`` would (``json.loads`` without NaN/Infinity literals; it
keeps the last of duplicate keys and turns ``1e400`` into ``inf`` like JavaScript), in a thread
with a large stack so that the 10,000-level vectors decode. From CPython 3.12 on, C-level
recursion (``json.loads``, generator expressions) has its own fixed limit that no stack or
``sys.setrecursionlimit`` raises: there, frames too deep for the interpreter are left out of
the comparison (collected in ``SKIPPED_DEEP``); the default interpreter (3.11) compares all.
"""

from __future__ import annotations

import json
import re
import sys
import threading
from typing import Any, Callable

import pytest
from jsonschema import Draft202012Validator

from wirecontract import graphmind as gm

from conftest import REPO, graphmind_vectors

SCHEMA_PATH = REPO / "generated/schema/graphmind.v1.schema.json"
KNOWN_PATH = REPO / "generated/schema/graphmind.v1.known-disagreements.json"
VECTORS = graphmind_vectors()
ACCEPTED = ("ok", "unknown-type")


# Frames left out because this interpreter cannot decode or validate them (3.12+ only).
SKIPPED_DEEP: set[str] = set()


def _too_deep_here(vid: str) -> None:
    """Records `vid` as too deep for this interpreter; re-raises before CPython 3.12, where the
    large thread stack must be enough."""
    if sys.version_info < (3, 12):
        raise
    SKIPPED_DEEP.add(vid)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"JSON.parse rejects {name}")


class _Array(list):  # type: ignore[type-arg]
    """A JSON array whose repr is short: python-jsonschema puts ``repr(instance)`` into every
    error message it builds, which is quadratic in the depth of nested arrays (minutes for the
    100,000-level vector). Validation and equality are those of ``list``."""

    def __repr__(self) -> str:
        return f"<array of {len(self)}>"


def _short_reprs(value: Any) -> Any:
    if isinstance(value, list):
        return _Array(_short_reprs(x) for x in value)
    if isinstance(value, dict):
        return {k: _short_reprs(x) for k, x in value.items()}
    return value


def _decode(text: str) -> tuple[bool, Any]:
    """(True, value) as JSON.parse would give it, or (False, None) for text it rejects."""
    try:
        return True, _short_reprs(json.loads(text, parse_constant=_reject_constant))
    except ValueError:
        return False, None


def _deep(fn: Callable[[], Any]) -> Any:
    """Runs fn in a thread with a 512 MiB stack and a high recursion limit (deep vectors)."""
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - re-raised in the caller's thread
            result["error"] = e

    old_limit, old_stack = sys.getrecursionlimit(), threading.stack_size()
    sys.setrecursionlimit(1_000_000)
    threading.stack_size(512 * 1024 * 1024)
    try:
        t = threading.Thread(target=run)
        t.start()
        t.join()
    finally:
        threading.stack_size(old_stack)
        sys.setrecursionlimit(old_limit)
    if "error" in result:
        raise result["error"]
    return result["value"]


def _survey() -> dict[str, Any]:
    """For every frame: the parser's verdict, the validator's verdict, and the serializer check."""
    validator = Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    rows = {}
    for v in VECTORS:
        r = gm.parse_envelope_json(v["frame"])
        try:
            decoded, value = _decode(v["frame"])
            schema_valid = decoded and validator.is_valid(value)
            row = {"parser": r.kind, "schema": "valid" if schema_valid else "invalid", "json": decoded}
            if r.kind in ACCEPTED:
                written = gm.serialize_envelope(r.envelope)
                ok, again = _decode(written)
                assert ok, f"{v['id']}: the serializer wrote text JSON.parse rejects: {written[:200]}"
                row["written_errors"] = [f"{'.'.join(map(str, e.path))}: {e.message[:120]}" for e in validator.iter_errors(again)]
                row["lossy"] = decoded and again != value
        except RecursionError:
            _too_deep_here(v["id"])
            continue
        rows[v["id"]] = row
    return rows


@pytest.fixture(scope="module")
def survey() -> dict[str, Any]:
    return _deep(_survey)


@pytest.fixture(scope="module")
def known() -> dict[str, Any]:
    return json.loads(KNOWN_PATH.read_text(encoding="utf-8"))


def test_known_disagreements_file_is_well_formed(known: dict[str, Any]) -> None:
    ids = {v["id"] for v in VECTORS}
    for section in ("disagreements", "lossy"):
        entries = known[section]
        assert [e["id"] for e in entries] == sorted({e["id"] for e in entries}), f"{section}: ids must be unique and sorted"
        for e in entries:
            assert e["id"] in ids, f"{section}: {e['id']} is not a vector or real-client frame"
            assert len(e["reason"]) > 20, f"{section}: {e['id']} needs a reason"
    for e in known["disagreements"]:
        assert e["parser"] in ("ok", "unknown-type", "version-mismatch", "invalid") and e["schema"] in ("valid", "invalid")
    # Code generators that drop part of the schema's meaning: each names the tool, the
    # construct, the effect and a script that reproduces it (the tool is a network install).
    for e in known.get("generators", []):
        assert {"tool", "construct", "effect", "reason", "reproduce"} <= set(e), e
        assert (REPO / e["reproduce"]).is_file(), f"{e['reproduce']} is missing"


def test_the_generators_limitation_is_about_the_schema_as_it_is(known: dict[str, Any]) -> None:
    """The datamodel-code-generator entry describes today's schema: the unknown branch says
    `not: {enum}` and restates it as a `pattern`, and the envelopes state
    additionalProperties: true."""
    schema = json.loads((REPO / "generated/schema/graphmind.v1.schema.json").read_text(encoding="utf-8"))
    unknown = schema["$defs"]["envelope.unknown"]
    assert unknown["properties"]["type"]["not"] == {"enum": list(gm.MESSAGE_TYPES)}
    assert "pattern" in unknown["properties"]["type"]
    for name, d in schema["$defs"].items():
        if name.startswith("envelope."):
            assert d["additionalProperties"] is True, name
    assert any("datamodel-code-generator" in e["tool"] for e in known["generators"])


def test_schema_and_parser_disagree_exactly_on_the_known_frames(survey: dict[str, Any], known: dict[str, Any]) -> None:
    found = {}
    for vid, row in survey.items():
        parser_accepts = row["parser"] in ACCEPTED
        if parser_accepts != (row["schema"] == "valid"):
            found[vid] = (row["parser"], row["schema"])
    listed = {e["id"]: (e["parser"], e["schema"]) for e in known["disagreements"]}
    new = {k: v for k, v in found.items() if k not in listed}
    stale = {k: v for k, v in listed.items() if k not in found and k not in SKIPPED_DEEP}
    changed = {k: (listed[k], found[k]) for k in found.keys() & listed.keys() if found[k] != listed[k]}
    assert not new, f"NEW schema/parser disagreements (fix the schema, or list them with a reason in {KNOWN_PATH.name}): {new}"
    assert not stale, f"STALE entries in {KNOWN_PATH.name} (schema and parser now agree; remove them): {stale}"
    assert not changed, f"entries whose verdicts changed (listed, found): {changed}"
    # Not vacuous: both verdicts occur often.
    assert sum(r["schema"] == "valid" for r in survey.values()) > 300
    assert sum(r["schema"] == "invalid" for r in survey.values()) > 100


def test_every_frame_the_serializer_writes_validates(survey: dict[str, Any]) -> None:
    bad = {vid: row["written_errors"] for vid, row in survey.items() if row.get("written_errors")}
    assert not bad, f"serialize(parse(frame)) does not validate against the schema: {bad}"
    assert sum("written_errors" in r for r in survey.values()) > 300


def test_serializer_is_lossy_exactly_on_the_known_frames(survey: dict[str, Any], known: dict[str, Any]) -> None:
    found = {vid for vid, row in survey.items() if row.get("lossy")}
    listed = {e["id"] for e in known["lossy"]} - SKIPPED_DEEP
    assert found == listed, f"re-serialized value differs from the original: new {sorted(found - listed)}, stale {sorted(listed - found)}"


def test_real_client_frames_all_validate(survey: dict[str, Any]) -> None:
    bad = [vid for vid, row in survey.items() if vid.startswith("real-client/") and row["schema"] != "valid" and row["parser"] in ACCEPTED]
    assert not bad, bad


def _near_misses(word: str) -> list[str]:
    """Strings one edit away from ``word``, its prefixes and extensions."""
    out = [word[:i] for i in range(len(word))] + [word + x for x in ("x", ".", "\n", "\u00e9", "\U0001f600")]
    for i in range(len(word)):
        out += [word[:i] + word[i + 1 :], word[:i] + "Z" + word[i + 1 :], word[:i] + "\n" + word[i:]]
    return out


def test_the_unknown_type_pattern_restates_not_enum() -> None:
    """Issue 40 item 12: the `pattern` on the unknown branch's `type` (kept by generators that
    drop `not`) matches exactly the strings `not: {enum}` admits: no message type, every near
    miss of one, the empty string and unrelated text. Checked with Python's `re` (search, as
    JSON Schema's `pattern` means)."""
    schema = json.loads((REPO / "generated/schema/graphmind.v1.schema.json").read_text(encoding="utf-8"))
    pattern = re.compile(schema["$defs"]["envelope.unknown"]["properties"]["type"]["pattern"])
    known = set(gm.MESSAGE_TYPES)
    for t in known:
        assert not pattern.search(t), t
    candidates = ["", "future.x", "x", "-", "node", "hello.", "exec.resumed.more", "\u00e9"]
    for t in known:
        candidates += _near_misses(t)
    for c in candidates:
        assert bool(pattern.search(c)) == (c not in known), repr(c)
