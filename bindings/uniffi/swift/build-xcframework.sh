#!/usr/bin/env bash
# Builds build/WirecontractFFI.xcframework for Package.swift (macOS with Xcode only): the Rust
# static library for macOS (arm64 + x86_64), iOS devices (arm64) and the iOS simulator
# (arm64 + x86_64). The library carries both uniffi namespaces (GraphMind and Graphorin), so the
# framework holds both C headers and one module.modulemap declaring both C modules
# (generated/swift/WirecontractGraphmindFFI.modulemap + WirecontractGraphorinFFI.modulemap).
# Then `swift test` here runs Tests/ against it. PROFILE=dev for a faster unoptimized build.
# `--release VERSION` also zips it to build/WirecontractFFI.xcframework.zip and writes VERSION
# and the zip's checksum into the repository root's Package.swift (the manifest SwiftPM reads
# by URL); upload the zip as that release's asset.
set -euo pipefail
RELEASE=""
[ "${1:-}" = --release ] && RELEASE="${2:?usage: build-xcframework.sh [--release VERSION]}"
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
PROFILE="${PROFILE:-release}"
DIR="$PROFILE"
[ "$PROFILE" = dev ] && DIR=debug
TARGETS=(aarch64-apple-darwin x86_64-apple-darwin aarch64-apple-ios aarch64-apple-ios-sim x86_64-apple-ios)
[ "$(uname -s)" = Darwin ] || { echo "build-xcframework.sh: needs macOS with Xcode (xcodebuild, lipo)" >&2; exit 1; }

cd "$ROOT"
rustup target add "${TARGETS[@]}"
for t in "${TARGETS[@]}"; do
    cargo build --locked -p wirecontract-uniffi --lib --profile "$PROFILE" --target "$t"
done
TD="${CARGO_TARGET_DIR:-$ROOT/target}"
LIB=libwirecontract_uniffi.a
OUT="$HERE/build"
rm -rf "$OUT"
mkdir -p "$OUT/headers" "$OUT/macos" "$OUT/ios-simulator"
for m in WirecontractGraphmindFFI WirecontractGraphorinFFI; do
    cp "generated/swift/$m.h" "$OUT/headers/"
    # uniffi writes each module map without a trailing newline.
    { cat "generated/swift/$m.modulemap"; echo; } >> "$OUT/headers/module.modulemap"
done
lipo -create "$TD/aarch64-apple-darwin/$DIR/$LIB" "$TD/x86_64-apple-darwin/$DIR/$LIB" -output "$OUT/macos/$LIB"
lipo -create "$TD/aarch64-apple-ios-sim/$DIR/$LIB" "$TD/x86_64-apple-ios/$DIR/$LIB" -output "$OUT/ios-simulator/$LIB"
xcodebuild -create-xcframework \
    -library "$OUT/macos/$LIB" -headers "$OUT/headers" \
    -library "$TD/aarch64-apple-ios/$DIR/$LIB" -headers "$OUT/headers" \
    -library "$OUT/ios-simulator/$LIB" -headers "$OUT/headers" \
    -output "$OUT/WirecontractFFI.xcframework"
echo "built $OUT/WirecontractFFI.xcframework"
if [ -n "$RELEASE" ]; then
    (cd "$OUT" && rm -f WirecontractFFI.xcframework.zip && zip -qry WirecontractFFI.xcframework.zip WirecontractFFI.xcframework)
    SUM="$(cd "$ROOT" && swift package compute-checksum "$OUT/WirecontractFFI.xcframework.zip")"
    sed -i '' -e "s/^let ffiVersion = \".*\"/let ffiVersion = \"$RELEASE\"/" \
        -e "s/^let ffiChecksum = \".*\"/let ffiChecksum = \"$SUM\"/" "$ROOT/Package.swift"
    echo "Package.swift: ffiVersion $RELEASE, ffiChecksum $SUM; upload $OUT/WirecontractFFI.xcframework.zip to release v$RELEASE"
fi
