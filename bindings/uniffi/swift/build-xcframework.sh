#!/usr/bin/env bash
# Builds WirecontractFFI.xcframework, the native library SwiftPM links for Apple platforms, on
# Linux or macOS, and checks it.
#
#   bindings/uniffi/swift/build-xcframework.sh [--release VERSION]
#
# 1. The Rust static library (`cargo rustc --crate-type staticlib`, the `release` profile: fat
#    LTO, one codegen unit) for the five Apple targets: aarch64-apple-ios (devices),
#    aarch64-apple-ios-sim and x86_64-apple-ios (simulator), aarch64-apple-darwin and
#    x86_64-apple-darwin (macOS). A static library needs no Apple linker or SDK. Where rustup
#    cannot fetch a target's standard library (`rustup target add` fails; the two simulator
#    targets on some machines), the
#    nightly toolchain builds it from rust-src (`-Zbuild-std=std,panic_abort`).
#    MACOSX_DEPLOYMENT_TARGET / IPHONEOS_DEPLOYMENT_TARGET are the root Package.swift's
#    platforms (macOS 12, iOS 15). Build paths are remapped so the libraries name no local path.
# 2. The fat simulator (arm64 + x86_64) and macOS (arm64 + x86_64) libraries (`lipo`, else
#    `xcframework.py lipo`).
# 3. The XCFramework: with `xcodebuild -create-xcframework` where Xcode exists, else
#    xcframework.py writes the same layout (Info.plist, one directory per slice with the library
#    and Headers/: both uniffi C headers and one module.modulemap declaring both C modules).
# 4. check_xcframework.py checks it (architectures, platforms and minimum OS of every object,
#    every C symbol the generated Swift calls defined, only system symbols undefined, the
#    Info.plist against xcframework-Info.plist.example).
# 5. The reproducible zip (xcframework.py zip: sorted entries, fixed times and modes) and its
#    SwiftPM checksum (SHA-256 of the zip; cross-checked with `swift package compute-checksum`
#    when a Swift toolchain is on PATH or in the Swift step's cached root; the output says which).
# `--release VERSION` then writes VERSION and the checksum into the repository root's
# Package.swift (ffiVersion, ffiChecksum); upload the zip as release vVERSION's asset.
# Output: bindings/uniffi/swift/build/ (gitignored; the local Package.swift reads it there), or
# $XCFRAMEWORK_OUT. PROFILE=dev for an unoptimized build.
set -euo pipefail
RELEASE=""
if [ "${1:-}" = --release ]; then
    RELEASE="${2:?usage: build-xcframework.sh [--release VERSION]}"
    # A semantic version without the leading v (the manifest's URL adds it): it goes into a
    # sed expression and a URL, so nothing else is accepted.
    [[ "$RELEASE" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]] ||
        { echo "build-xcframework.sh: --release takes a version such as 0.2.0 (no leading v), not '$RELEASE'" >&2; exit 2; }
elif [ -n "${1:-}" ]; then
    echo "usage: build-xcframework.sh [--release VERSION]" >&2
    exit 2
fi
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
PROFILE="${PROFILE:-release}"
DIR="$PROFILE"
[ "$PROFILE" = dev ] && DIR=debug
OUT="${XCFRAMEWORK_OUT:-$HERE/build}"
TD="${CARGO_TARGET_DIR:-$ROOT/target}"
LIB=libwirecontract_uniffi.a
PY="$(command -v python3 || command -v python)"
cd "$ROOT"

# The deployment targets come from the root manifest's platforms, so the two never disagree.
MACOS_MIN="$(sed -n 's/.*\.macOS(\.v\([0-9_]*\)).*/\1/p' Package.swift | tr _ .)"
IOS_MIN="$(sed -n 's/.*\.iOS(\.v\([0-9_]*\)).*/\1/p' Package.swift | tr _ .)"
[ -n "$MACOS_MIN" ] && [ -n "$IOS_MIN" ] || { echo "build-xcframework.sh: no .macOS/.iOS platform in Package.swift" >&2; exit 1; }
case "$MACOS_MIN" in *.*) ;; *) MACOS_MIN="$MACOS_MIN.0" ;; esac
case "$IOS_MIN" in *.*) ;; *) IOS_MIN="$IOS_MIN.0" ;; esac
export MACOSX_DEPLOYMENT_TARGET="$MACOS_MIN" IPHONEOS_DEPLOYMENT_TARGET="$IOS_MIN"

# lipo (Xcode), else xcframework.py's (LLVM's llvm-lipo reads the LLVM bitcode Rust embeds in std's
# objects and fails when its LLVM is older than rustc's, as Debian bookworm's 14 is).
fat() {
    if command -v lipo >/dev/null; then
        lipo -create "$2" "$3" -output "$1"
    else
        "$PY" -B "$HERE/xcframework.py" lipo "$1" "$2" "$3"
    fi
}

# Stable where rustup ships the target's standard library, else nightly with build-std.
build() {
    local t="$1" sysroot
    if rustup target add "$t" >/dev/null 2>&1; then
        sysroot="$(rustc --print sysroot)"
        set -- cargo
    else
        # An installed nightly is used as it is (`toolchain install` would update it).
        rustup run nightly rustc -V >/dev/null 2>&1 || rustup toolchain install nightly --profile minimal
        rustup component add rust-src --toolchain nightly >/dev/null
        sysroot="$(rustc +nightly --print sysroot)"
        set -- cargo +nightly -Zbuild-std=std,panic_abort
    fi
    local sep=$'\x1f'
    echo "==> $t ($*)"
    CARGO_ENCODED_RUSTFLAGS="--remap-path-prefix=$ROOT=wirecontract$sep--remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=cargo$sep--remap-path-prefix=$sysroot=rust" \
        "$@" rustc --locked -p wirecontract-uniffi --lib --crate-type staticlib --profile "$PROFILE" --target "$t"
}
TARGETS=(aarch64-apple-ios aarch64-apple-darwin x86_64-apple-darwin aarch64-apple-ios-sim x86_64-apple-ios)
if [ -z "${XCFRAMEWORK_SKIP_BUILD:-}" ]; then
    for t in "${TARGETS[@]}"; do build "$t"; done
fi

lib() { echo "$TD/$1/$DIR/$LIB"; }
for t in "${TARGETS[@]}"; do
    [ -f "$(lib "$t")" ] || { echo "build-xcframework.sh: $(lib "$t") missing" >&2; exit 1; }
done
rm -rf "$OUT"
mkdir -p "$OUT/headers" "$OUT/ios" "$OUT/ios-simulator" "$OUT/macos"
for m in WirecontractGraphmindFFI WirecontractGraphorinFFI; do
    cp "generated/swift/$m.h" "$OUT/headers/"
    # uniffi writes each module map without a trailing newline.
    { cat "generated/swift/$m.modulemap"; echo; } >> "$OUT/headers/module.modulemap"
done
cp "$(lib aarch64-apple-ios)" "$OUT/ios/$LIB"
fat "$OUT/ios-simulator/$LIB" "$(lib aarch64-apple-ios-sim)" "$(lib x86_64-apple-ios)"
fat "$OUT/macos/$LIB" "$(lib aarch64-apple-darwin)" "$(lib x86_64-apple-darwin)"
FW="$OUT/WirecontractFFI.xcframework"
if command -v xcodebuild >/dev/null; then
    echo "==> xcodebuild -create-xcframework"
    xcodebuild -create-xcframework \
        -library "$OUT/ios/$LIB" -headers "$OUT/headers" \
        -library "$OUT/ios-simulator/$LIB" -headers "$OUT/headers" \
        -library "$OUT/macos/$LIB" -headers "$OUT/headers" \
        -output "$FW"
else
    echo "==> xcframework.py create (no xcodebuild)"
    "$PY" -B "$HERE/xcframework.py" create "$FW" --headers "$OUT/headers" "$OUT/ios/$LIB" "$OUT/ios-simulator/$LIB" "$OUT/macos/$LIB"
fi
echo "==> check_xcframework.py"
"$PY" -B "$HERE/check_xcframework.py" "$FW" --root "$ROOT"
ZIP="$OUT/WirecontractFFI.xcframework.zip"
"$PY" -B "$HERE/xcframework.py" zip "$FW" "$ZIP"
SUM="$("$PY" -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$ZIP")"
# Cross-checked with SwiftPM where a toolchain is at hand: `swift` on PATH, else (Linux, as root)
# the Debian trixie root with swiftlang that the Swift test step keeps in the user's cache, run
# through chroot with /proc mounted in a private mount namespace.
HOW="SHA-256 of the zip (what SwiftPM's compute-checksum computes; no Swift toolchain here to cross-check)"
SWIFT_ROOT="${WIRECONTRACT_SWIFT_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/wirecontract/swift-root}"
SWIFT_SUM=""
if command -v swift >/dev/null; then
    SWIFT_SUM="$(swift package compute-checksum "$ZIP")"
    HOW="SHA-256 of the zip, equal to swift package compute-checksum's ($(command -v swift))"
elif { [ -x "$SWIFT_ROOT/usr/bin/swift" ] || [ -L "$SWIFT_ROOT/usr/bin/swift" ]; } && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
    cp "$ZIP" "$SWIFT_ROOT/tmp/WirecontractFFI.xcframework.zip"
    SWIFT_SUM="$(unshare -m --propagation private sh -c 'mount -t proc proc "$1/proc" && chroot "$1" swift package compute-checksum /tmp/WirecontractFFI.xcframework.zip' sh "$SWIFT_ROOT")"
    rm -f "$SWIFT_ROOT/tmp/WirecontractFFI.xcframework.zip"
    HOW="SHA-256 of the zip, equal to swift package compute-checksum's (the cached swiftlang root, through chroot)"
fi
if [ -n "$SWIFT_SUM" ] && [ "$SWIFT_SUM" != "$SUM" ]; then
    echo "build-xcframework.sh: swift package compute-checksum says $SWIFT_SUM, sha256 $SUM" >&2
    exit 1
fi
echo "$SUM" > "$ZIP.sha256"
for d in ios ios-simulator macos; do
    printf '%-14s %s bytes\n' "$d" "$(wc -c < "$OUT/$d/$LIB" | tr -d ' ')"
done
echo "$ZIP: $(wc -c < "$ZIP" | tr -d ' ') bytes, checksum $SUM ($HOW)"
if [ -n "$RELEASE" ]; then
    # Portable in-place edit (GNU and BSD sed differ on -i): write a copy, then move it over.
    sed -e "s/^let ffiVersion = \".*\"/let ffiVersion = \"$RELEASE\"/" \
        -e "s/^let ffiChecksum = \".*\"/let ffiChecksum = \"$SUM\"/" Package.swift > Package.swift.tmp
    mv Package.swift.tmp Package.swift
    grep -q "^let ffiChecksum = \"$SUM\"" Package.swift || { echo "build-xcframework.sh: Package.swift has no ffiChecksum line" >&2; exit 1; }
    echo "Package.swift: ffiVersion $RELEASE, ffiChecksum $SUM; upload $ZIP to release v$RELEASE"
fi
