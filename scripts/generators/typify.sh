#!/usr/bin/env bash
# Generator: Rust types made by typify from the published JSON Schema, written as the compiled
# workspace crate `wirecontract-typify` in OUT_DIR/typify (generated/typify after scripts/regen).
# Usage: scripts/generators/typify.sh OUT_DIR   (called by scripts/generate-into, after
# wirecontract-gen has written OUT_DIR/schema/graphmind.v1.schema.json).
#
# typify's releases read schemas through schemars 0.8's draft-07 model (`definitions`, not
# `$defs`). So this script first writes a draft-07 rendering of the 2020-12 schema that means
# the same thing (the rules are listed in RENDER_RULES below and in the crate's README), then
# runs a pinned cargo-typify on it. Deterministic: no timestamps, no absolute paths, the same
# pinned tools; two runs are byte-identical (scripts/gen/tests/integration/generated_artifacts.rs).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="${1:?usage: scripts/generators/typify.sh OUT_DIR}"
TYPIFY_VERSION="0.8.0"
SCHEMA="$OUT/schema/graphmind.v1.schema.json"
DEST="$OUT/typify"
[ -f "$SCHEMA" ] || { echo "typify.sh: $SCHEMA missing (run wirecontract-gen first)" >&2; exit 1; }

# cargo-typify, pinned and built once per version from the registry with its own lock file, kept
# in the user's cache (as bindings/wasm/build.sh keeps wasm-bindgen-cli), not under target/: a
# fresh clone does not build it again. WIRECONTRACT_TOOLS_DIR names another directory.
TOOLS="${WIRECONTRACT_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/wirecontract/tools}/cargo-typify-$TYPIFY_VERSION"
if [ ! -x "$TOOLS/bin/cargo-typify" ]; then
    echo "typify.sh: installing cargo-typify $TYPIFY_VERSION into $TOOLS (once)" >&2
    cargo install --quiet --locked "cargo-typify@$TYPIFY_VERSION" --root "$TOOLS" >&2
fi
PYTHON="$(command -v python3)"

rm -rf "$DEST"
mkdir -p "$DEST/src"

# The draft-07 rendering for typify. Each rule keeps the set of valid instances unchanged.
"$PYTHON" - "$SCHEMA" "$DEST/graphmind.v1.draft-07.schema.json" <<'RENDER_RULES'
import json
import re
import sys

src, dst = sys.argv[1], sys.argv[2]
with open(src, encoding="utf-8") as f:
    schema = json.load(f)


def render(node):
    if isinstance(node, list):
        return [render(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    restated = isinstance(node.get("not"), dict) and "enum" in node["not"] and "pattern" in node
    if restated:
        # Rule 7: a `pattern` restating its sibling `not: {enum}` (the unknown branch's `type`,
        # spelled for generators that drop `not`) is left out: typify keeps `not: {enum}`, and
        # the two admit the same strings (tests/test_schema_vs_parser.py checks the pattern).
        assert not any(re.search(node["pattern"], w) for w in node["not"]["enum"]), "pattern must exclude the enum"
    for key, value in node.items():
        if key == "$ref" or (restated and key == "pattern"):
            continue
        if key == "const":
            # Rule 4: `const: v` is `enum: [v]`.
            out["enum"] = [value]
        elif key == "additionalProperties" and value is True:
            # Rule 5: `true` and `{}` both allow every extra member.
            out[key] = {}
        else:
            out[key] = render(value)
    if out.get("type") == "object" and "additionalProperties" not in out:
        # Rule 5: an absent additionalProperties allows every extra member too.
        out["additionalProperties"] = {}
    if "$ref" in node:
        # Rule 2: `#/$defs/X` is `#/definitions/X`.
        ref = node["$ref"].replace("#/$defs/", "#/definitions/", 1)
        if len(node) == 1:
            return {"$ref": ref}
        # Rule 3: draft-07 ignores keywords beside `$ref`; 2020-12 applies them. allOf keeps both.
        out["allOf"] = [{"$ref": ref}] + out.get("allOf", [])
    return out


defs = schema["$defs"]
# Rule 6 precondition: the root anyOf branches are pairwise disjoint on `type`.
branches = [defs[b["$ref"].rsplit("/", 1)[1]] for b in schema["anyOf"]]
known = [b["properties"]["type"]["const"] for b in branches if "const" in b["properties"]["type"]]
others = [b["properties"]["type"] for b in branches if "const" not in b["properties"]["type"]]
assert len(set(known)) == len(known) == len(branches) - 1, "known branches must have distinct type consts"
assert len(others) == 1 and sorted(others[0]["not"]["enum"]) == sorted(known), "one unknown branch excluding them"

out = {}
for key, value in schema.items():
    if key == "$schema":
        out[key] = "http://json-schema.org/draft-07/schema#"  # Rule 1
    elif key == "$defs":
        out["definitions"] = {name: render(d) for name, d in value.items()}  # Rule 2
    elif key == "anyOf":
        out["oneOf"] = render(value)  # Rule 6: disjoint branches, so anyOf == oneOf
    else:
        out[key] = render(value)
with open(dst, "w", encoding="utf-8", newline="\n") as f:
    f.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
RENDER_RULES

# The types: no builders (plain structs), typify's default derives (Serialize, Deserialize,
# Clone, Debug). cargo-typify formats its output with the toolchain's rustfmt.
(cd "$DEST" && "$TOOLS/bin/cargo-typify" typify --no-builder graphmind.v1.draft-07.schema.json -o src/graphmind.rs)

cat > "$DEST/src/lib.rs" <<'EOF'
//! Rust types generated by typify from `generated/schema/graphmind.v1.schema.json` (through its
//! draft-07 rendering `graphmind.v1.draft-07.schema.json`). Generated by
//! `scripts/generators/typify.sh`; do not edit. See README.md.
//!
//! The envelope union is [`graphmind::GraphMindWireEnvelopeProtocolV1`], an untagged enum with
//! one variant per message type plus `Unknown`.
#![allow(missing_docs, clippy::all, clippy::pedantic)]

pub mod graphmind;
EOF

cat > "$DEST/Cargo.toml" <<EOF
# Generated by scripts/generators/typify.sh; do not edit.
[package]
name = "wirecontract-typify"
description = "Rust types generated by typify $TYPIFY_VERSION from the GraphMind v1 JSON Schema (round-trip check of the schema)"
version.workspace = true
edition.workspace = true
license.workspace = true
publish = false

[dependencies]
serde = { workspace = true }
serde_json = { workspace = true }
EOF
# typify checks a `pattern` with regress; depend on it only when the schema has one.
if grep -q '::regress::' "$DEST/src/graphmind.rs"; then
    echo 'regress = "0.12"' >> "$DEST/Cargo.toml"
fi

cat > "$DEST/README.md" <<'EOF'
# wirecontract-typify (generated)

Rust types generated by typify (oxidecomputer/typify; cargo-typify
@TYPIFY_VERSION@, pinned) from `generated/schema/graphmind.v1.schema.json`. Everything in this
folder is written by `scripts/generators/typify.sh` (run by `scripts/regen`); do not edit it.
It is a workspace crate so that the generated code is compiled by every `cargo test`, and
`scripts/gen/tests/integration/typify_round_trip.rs` runs every vector and real-client frame through both the
contract parser and these types.

## Why a draft-07 rendering

typify's releases (0.8.0 here, and the 0.10 alphas too) read a schema through schemars 0.8's
draft-07 model: `definitions`, not `$defs`. No typify release reads draft 2020-12, so we do
not feed it the published schema directly. Instead our generator (`typify.sh`) writes
`graphmind.v1.draft-07.schema.json`, a draft-07 rendering with the same meaning, and typify
reads that. The rules, each of which keeps the set of valid instances unchanged:

1. `$schema` becomes `http://json-schema.org/draft-07/schema#`.
2. `$defs` becomes `definitions` and every `#/$defs/X` becomes `#/definitions/X`.
3. A `$ref` with sibling keywords becomes `allOf: [{$ref}]` plus the siblings (draft-07
   ignores keywords beside `$ref`; 2020-12 applies them).
4. `const: v` becomes `enum: [v]` (typify 0.8 reads single-value enums as fixed values).
5. `additionalProperties: true`, or absent on an object, becomes `additionalProperties: {}`:
   typify keeps unknown members (in a flattened `extra` map) only for an explicit schema, and
   drops them for `true`.
6. The root `anyOf` becomes `oneOf`. The script first checks that the branches are pairwise
   disjoint (each known branch has its own `type` const, the unknown branch's `type` is
   `not` exactly those), so both accept the same frames. typify turns a `oneOf` into an enum;
   an `anyOf` it cannot prove disjoint becomes a struct of 17 flattened `Option`s.
7. A `pattern` beside a `not: {enum}` that it restates (the unknown branch's `type`: the
   published schema spells the exclusion twice, the pattern for generators that drop `not`)
   is left out; typify keeps `not: {enum}`. The script checks that no enum member matches
   the pattern; `bindings/python/tests/test_schema_vs_parser.py` checks that the two admit
   the same strings.

## What typify's types cannot say

They read through serde_json and serde derive, so they differ from the contract parser on a
few frames (JSON.parse semantics, integer spelling, null in optional fields, integer bounds,
null versus absent opaque values). Each difference is listed with its reason in
`scripts/gen/tests/integration/typify_round_trip.rs`, which fails on any new or stale one.
EOF
sed -i "s/@TYPIFY_VERSION@/$TYPIFY_VERSION/g" "$DEST/README.md"
