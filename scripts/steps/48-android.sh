# Android, as far as it runs without an NDK (bindings/uniffi/android): the Linux library is linked
# with the Android build's flag (-z max-page-size=16384; `cargo rustc` passes it to the final link
# only, so the dependencies step 40 built are reused) and elf_align.py passes it, while the
# default-linked library (4 KB PT_LOAD alignment) fails; build-aar.sh --linux-stand-in then
# packages an AAR with that Linux library standing in for all four ABIs (TEST MODE, named
# *-LINUX-STAND-IN.aar; nothing Android runs it) and the real classes.jar (Maven compiles the
# generated Kotlin), and aar.py checks its entries against aar-layout.txt, every library's
# alignment and the POM's JNA AAR dependency; test_aar.py shows each of those checks fails on a
# broken copy. build-aar.sh without an NDK must exit 1 with its one-line reason.
set -euo pipefail
ROOT="$(pwd)"
source scripts/lib/common.sh
TD="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="$ROOT/target/android"
mkdir -p "$OUT"
A="$ROOT/bindings/uniffi/android"
PY="$(python_bin)"

# The default-linked library (what step 40 built; relinked only if this step ran last).
cargo build --quiet --locked -p wirecontract-uniffi --lib
# Without debug information (strip keeps the program headers the checks read): the AAR holds
# four copies, and zipping four 100 MB debug libraries took most of this step.
strip --strip-debug -o "$OUT/linux-default-link.so" "$TD/debug/libwirecontract_uniffi.so"
cargo rustc --quiet --locked -p wirecontract-uniffi --lib --crate-type cdylib -- -C link-arg=-Wl,-z,max-page-size=16384
strip --strip-debug -o "$OUT/linux-16k.so" "$TD/debug/libwirecontract_uniffi.so"
"$PY" -B "$A/elf_align.py" "$OUT/linux-16k.so"

bindings/uniffi/android/build-aar.sh --linux-stand-in "$OUT/linux-16k.so"
(cd "$A" && "$PY" -B test_aar.py "$OUT/wirecontract-android-0.1.0-LINUX-STAND-IN.aar" \
    "$OUT/wirecontract-android-0.1.0-LINUX-STAND-IN.pom" "$OUT/linux-default-link.so" --root "$ROOT")

status=0
msg="$(env -u ANDROID_NDK_HOME -u ANDROID_NDK_ROOT -u ANDROID_HOME -u ANDROID_SDK_ROOT bindings/uniffi/android/build-aar.sh 2>&1)" || status=$?
if [ "$status" != 1 ] || [ "$(printf '%s\n' "$msg" | wc -l)" != 1 ]; then
    echo "48-android: build-aar.sh without an NDK should print one line and exit 1; exit $status:" >&2
    printf '%s\n' "$msg" >&2
    exit 1
fi
echo "  without an NDK, as it should: $msg (exit 1)"
