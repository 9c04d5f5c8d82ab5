#!/usr/bin/env bash
# Kotlin and Swift bindings through uniffi. Called by scripts/generate-into with OUT_DIR.
#
# The uniffi records, enums, unions and conversions of each protocol are generated from the
# contract's registry by the binding crates' build scripts (bindings/uniffi/build.rs,
# bindings/uniffi/graphorin/build.rs), so building the cdylib is all it takes. It is built
# debug (the uniffi metadata is the same as release and it is the build the other steps
# reuse). It holds both uniffi namespaces, so the in-tree uniffi-bindgen, pinned to the crate's
# uniffi version, writes both in library mode: OUT_DIR/kotlin (dev/wirecontract/{graphmind,
# graphorin}) and OUT_DIR/swift (WirecontractGraphmind*, WirecontractGraphorin*).
# Deterministic: --no-format, no paths or dates in the output. uniffi's Kotlin is then given
# the JNI transport of the functions bindings/uniffi/src/jni/calls.rs exports (JNA stays for
# the rest); Swift calls C directly and is left as uniffi writes it.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="${1:?usage: scripts/generators/uniffi.sh OUT_DIR}"
cd "$ROOT"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"

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
# Kotlin: the functions bindings/uniffi/src/jni/calls.rs exports over JNI get JNI bodies (same
# signatures, same converters) and the JniCalls object (kotlin_jni_calls.py says how).
python3 "$ROOT/scripts/generators/kotlin_jni_calls.py" bindings/uniffi/src/jni/calls.rs "$OUT/kotlin"
# Kotlin: strings written without a CharsetEncoder each, HostStrings sized without encoding them
# (kotlin_string_converters.py says how; the bytes that cross are the same).
python3 "$ROOT/scripts/generators/kotlin_string_converters.py" "$OUT"/kotlin/dev/wirecontract/*/wirecontract_uniffi*.kt
