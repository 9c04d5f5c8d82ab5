#!/usr/bin/env bash
# Builds the Node-API addon with plain cargo and lays out the npm package in place:
#   wirecontract.node  the cdylib (this platform), loaded by index.js
#   index.d.ts         generated from the contract's registry (scripts/gen, src/ts.rs)
#   index.mjs          the ESM entry: index.js re-exported by every runtime name index.d.ts
#                      declares (scripts/gen, src/ts.rs)
#   zod-schemas.js     the zod 4 schema objects, generated from the registry (scripts/gen, src/zod.rs)
#   accept.js          whether the parser accepts a frame, told from its JSON.parse value (the
#                      WASM backend's first step; scripts/gen, src/accept.rs)
#   contract-id.json   the id of the contract index.d.ts was generated from; index.js refuses
#                      an addon whose own id (compiled in) differs
# Usage: bindings/node/build.sh [--debug]. Honours CARGO_TARGET_DIR.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
cd "$ROOT"
PROFILE=release
[ "${1:-}" = "--debug" ] && PROFILE=debug
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
if [ "$PROFILE" = release ]; then
    cargo build --locked -p wirecontract-node --release
else
    cargo build --locked -p wirecontract-node
fi
case "$(uname -s)" in
    Darwin) LIB="libwirecontract_node.dylib" ;;
    *) LIB="libwirecontract_node.so" ;;
esac
cp "$TARGET/$PROFILE/$LIB" "$HERE/wirecontract.node"
# The declarations: regenerate into a temporary directory (the committed copy under
# generated/ is checked by scripts/check-drift) and ship them with the package.
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
cargo run --locked --quiet -p wirecontract-gen -- "$TMP"
cp "$TMP/typescript/index.d.ts" "$HERE/index.d.ts"
cp "$TMP/typescript/index.mjs" "$HERE/index.mjs"
cp "$TMP/typescript/contract-id.json" "$HERE/contract-id.json"
cp "$TMP/typescript/zod-schemas.js" "$HERE/zod-schemas.js"
cp "$TMP/typescript/accept.js" "$HERE/accept.js"
echo "built $HERE/wirecontract.node, index.d.ts, index.mjs, zod-schemas.js and contract-id.json"
