#!/usr/bin/env bash
# Kotlin and Swift bindings through uniffi. Called by scripts/generate-into with OUT_DIR.
#
# 1. Each protocol's uniffi records, enums, unions and conversions are generated from the
#    contract's reflection tables: bindings/uniffi/src/generated.rs (GraphMind) and
#    bindings/uniffi/graphorin/src/generated.rs (Graphorin). When OUT_DIR is the repository's
#    generated/ (scripts/regen) they are written in place; for any other OUT_DIR
#    (scripts/check-drift) a difference fails.
# 2. The cdylib is built (debug: the uniffi metadata is the same as release and it is the build
#    the other steps reuse). It holds both uniffi namespaces, so the in-tree uniffi-bindgen,
#    pinned to the crate's uniffi version, writes both in library mode: OUT_DIR/kotlin
#    (dev/wirecontract/{graphmind,graphorin}) and OUT_DIR/swift (WirecontractGraphmind*,
#    WirecontractGraphorin*). Deterministic: --no-format, no paths or dates in the output.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="${1:?usage: scripts/generators/uniffi.sh OUT_DIR}"
cd "$ROOT"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

stale=0
for pair in graphmind:bindings/uniffi/src/generated.rs graphorin:bindings/uniffi/graphorin/src/generated.rs; do
    protocol="${pair%%:*}"
    GEN_RS="${pair#*:}"
    cargo run --quiet --locked -p wirecontract-uniffi-gen -- "$protocol" "$TMP/$protocol.rs"
    if [ "$OUT" = "$ROOT/generated" ]; then
        cmp -s "$TMP/$protocol.rs" "$GEN_RS" || cp "$TMP/$protocol.rs" "$GEN_RS"
    elif ! diff -u --label "$GEN_RS (committed)" --label "$GEN_RS (from the contract)" "$GEN_RS" "$TMP/$protocol.rs" >&2; then
        echo "uniffi.sh: $GEN_RS differs from what the contract generates. Run scripts/regen and commit." >&2
        stale=1
    fi
done
[ "$stale" -eq 0 ] || exit 1

cargo build --quiet --locked -p wirecontract-uniffi
case "$(uname -s)" in
    Darwin) LIB="$TARGET/debug/libwirecontract_uniffi.dylib" ;;
    *) LIB="$TARGET/debug/libwirecontract_uniffi.so" ;;
esac
rm -rf "$OUT/kotlin" "$OUT/swift"
for lang in kotlin swift; do
    # Must run inside the workspace: uniffi finds bindings/uniffi/uniffi.toml via cargo metadata.
    "$TARGET/debug/uniffi-bindgen" generate --no-format --library "$LIB" --language "$lang" --out-dir "$OUT/$lang" >/dev/null
done
