#!/usr/bin/env bash
# Reproduces the `generators` entries of generated/schema/graphmind.v1.known-disagreements.json
# for datamodel-code-generator (PyPI `datamodel-code-generator`, pydantic v2 models): installs
# the pinned tool into a scratch venv (target/dmcg-venv), generates models from
# generated/schema/graphmind.v1.schema.json and checks what they keep of the schema's meaning.
# Not a scripts/test step (the tool pulls black, isort, jinja2 and pydantic; a network install).
# Exit 0 when every rule checked below is kept by the generated models; 1 otherwise.
# Usage: scripts/generators-check/datamodel-codegen.sh
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
VERSION="${DMCG_VERSION:-0.89.0}"
VENV="$ROOT/target/dmcg-venv"
OUT="$ROOT/target/dmcg-models"
[ -x "$VENV/bin/datamodel-codegen" ] || { python3 -m venv "$VENV"; "$VENV/bin/pip" install --quiet "datamodel-code-generator==$VERSION"; }
rm -rf "$OUT"
"$VENV/bin/datamodel-codegen" --input "$ROOT/generated/schema/graphmind.v1.schema.json" --input-file-type jsonschema \
    --output-model-type pydantic_v2.BaseModel --output "$OUT/graphmind_models" 2>/dev/null
cd "$OUT"
"$VENV/bin/python" - <<'PY'
import graphmind_models._internal as m
from pydantic import TypeAdapter, ValidationError

ok = True
def check(what, cond):
    global ok
    print(("kept      " if cond else "LOST      ") + what)
    ok = ok and cond

# Kept since the envelope.* definitions state additionalProperties: true.
env = m.Unknown.model_validate({"gm": 1, "seq": 1, "ts": 2, "runId": "r", "type": "future.x", "traceparent": "00-ab"})
check("unknown envelope members (additionalProperties: true)", env.model_dump().get("traceparent") == "00-ab")

# Issue 40 item 12: the generator drops `not: {enum: MESSAGE_TYPES}` on the unknown branch's
# `type` but keeps the `pattern` that restates it, so a known type with an invalid payload is
# rejected by the Unknown model and by the envelope union, as the parser rejects it.
bad = {"gm": 1, "seq": 1, "ts": 2, "runId": "r", "type": "node.started", "payload": {}}
def rejects(model, value):
    try:
        model.model_validate(value)
        return False
    except ValidationError:
        return True
check("the unknown branch rejects a known type (pattern kept where not: {enum} is dropped)", rejects(m.Unknown, bad))
Envelope = next(getattr(m, n) for n in dir(m) if n.startswith("Graphmind") and hasattr(getattr(m, n), "model_validate"))
check("the envelope union rejects node.started with an empty payload", rejects(Envelope, bad))
good = {"gm": 1, "seq": 1, "ts": 2, "runId": "r", "type": "node.started",
        "payload": {"nodeId": "tool:a", "kind": "tool", "name": "a", "instanceId": "i"}}
check("the envelope union accepts a valid node.started", not rejects(Envelope, good))
check("the envelope union accepts an unknown type", not rejects(Envelope, {"gm": 1, "seq": 1, "ts": 2, "runId": "r", "type": "future.x"}))
raise SystemExit(0 if ok else 1)
PY
