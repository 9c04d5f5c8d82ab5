#!/usr/bin/env bash
# Builds the Android library: target/android/wirecontract-android-0.1.0.aar and its POM.
#
#   bindings/uniffi/android/build-aar.sh                       # needs an Android NDK
#   bindings/uniffi/android/build-aar.sh --linux-stand-in SO   # TEST MODE, see below
#
# With an NDK (ANDROID_NDK_HOME, ANDROID_NDK_ROOT, or the newest $ANDROID_HOME/ndk/*): the
# release libwirecontract_uniffi.so for arm64-v8a, armeabi-v7a, x86_64 and x86 through cargo-ndk
# (installed with `cargo install` when missing), linked with `-z max-page-size=16384` so every
# PT_LOAD is 16 KB aligned (Google Play's requirement for 64-bit libraries; elf_align.py checks
# each library's ABI and alignment). Without one it says so in one line and exits 1.
# Then the AAR: jni/<abi>/libwirecontract_uniffi.so, classes.jar (the uniffi-generated Kotlin of
# both packages, compiled by Maven with pom.xml here), AndroidManifest.xml, proguard.txt, an empty
# R.txt; and wirecontract-android.pom beside it, declaring net.java.dev.jna:jna@aar. aar.py
# checks the AAR's entries against aar-layout.txt.
#
# --linux-stand-in SO (scripts/steps/48-android.sh): no NDK is needed; SO, a Linux x86-64 build
# of the library linked with the same flag, stands in for every ABI, so that packaging and the
# layout and alignment checks run for real here. The result is named *-LINUX-STAND-IN.aar and is
# not an Android library: nothing in it runs on Android.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
TD="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="$ROOT/target/android"
LIB=libwirecontract_uniffi.so
ABIS=(arm64-v8a armeabi-v7a x86_64 x86)
PAGE_FLAG="-C link-arg=-Wl,-z,max-page-size=16384"
PY="$(command -v python3 || command -v python)"
STAND_IN=""
case "${1:-}" in
    --linux-stand-in) STAND_IN="${2:?usage: build-aar.sh [--linux-stand-in LIB.so]}" ;;
    "") ;;
    *) echo "usage: build-aar.sh [--linux-stand-in LIB.so]" >&2; exit 2 ;;
esac
cd "$ROOT"
JNI="$OUT/jni"

if [ -n "$STAND_IN" ]; then
    NAME=wirecontract-android-0.1.0-LINUX-STAND-IN
    echo "build-aar.sh: TEST MODE: $STAND_IN (Linux x86-64) stands in for ${ABIS[*]}; the AAR is for the layout check only"
    rm -rf "$JNI"
    for abi in "${ABIS[@]}"; do
        mkdir -p "$JNI/$abi"
        cp "$STAND_IN" "$JNI/$abi/$LIB"
    done
else
    NAME=wirecontract-android-0.1.0
    NDK="${ANDROID_NDK_HOME:-${ANDROID_NDK_ROOT:-}}"
    if [ -z "$NDK" ]; then
        for sdk in "${ANDROID_HOME:-}" "${ANDROID_SDK_ROOT:-}"; do
            [ -n "$sdk" ] && [ -d "$sdk/ndk" ] && NDK="$(ls -d "$sdk"/ndk/*/ 2>/dev/null | sort -V | tail -n1)"
            [ -n "$NDK" ] && break
        done
    fi
    [ -n "$NDK" ] && [ -d "$NDK" ] || { echo "build-aar.sh: no Android NDK (set ANDROID_NDK_HOME); nothing built" >&2; exit 1; }
    export ANDROID_NDK_HOME="${NDK%/}"
    rm -rf "$JNI"
    mkdir -p "$JNI"
    rustup target add aarch64-linux-android armv7-linux-androideabi x86_64-linux-android i686-linux-android
    command -v cargo-ndk >/dev/null || cargo install --locked cargo-ndk --version '^4'
    # Per target, so only the Android links get the flag (build scripts stay host-linked).
    for t in AARCH64_LINUX_ANDROID ARMV7_LINUX_ANDROIDEABI X86_64_LINUX_ANDROID I686_LINUX_ANDROID; do
        export "CARGO_TARGET_${t}_RUSTFLAGS=$PAGE_FLAG"
    done
    cargo ndk -t arm64-v8a -t armeabi-v7a -t x86_64 -t x86 -o "$JNI" \
        build --locked --release -p wirecontract-uniffi --lib
    for abi in "${ABIS[@]}"; do
        "$PY" -B "$HERE/elf_align.py" --abi "$abi" "$JNI/$abi/$LIB"
    done
fi

# classes.jar: the generated Kotlin only (pom.xml).
mvn -q -B -Dstyle.color=never -f "$HERE/pom.xml" package
CLASSES="$OUT/classes/wirecontract-android-classes.jar"
"$PY" -B "$HERE/aar.py" pack "$OUT/$NAME.aar" --jni "$JNI" --classes "$CLASSES" \
    --manifest "$HERE/AndroidManifest.xml" --proguard "$HERE/proguard.txt"
cp "$HERE/wirecontract-android.pom" "$OUT/$NAME.pom"
"$PY" -B "$HERE/aar.py" check "$OUT/$NAME.aar" --listing "$HERE/aar-layout.txt" \
    --pom "$OUT/$NAME.pom" --kotlin-pom "$ROOT/bindings/uniffi/kotlin/pom.xml" ${STAND_IN:+--stand-in}
echo "built $OUT/$NAME.aar"
