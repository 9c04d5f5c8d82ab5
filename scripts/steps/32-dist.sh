# Cross-built wheels (the rest of scripts/dist runs in `scripts/dist --all`): builds the
# manylinux2014 aarch64 wheel (maturin --zig, with the `ci` profile of Cargo.toml: the release
# code without LTO; `scripts/dist` ships the release profile) and runs the smoke suite
# (scripts/dist-tools/smoke.py: every shared GraphMind and Graphorin vector's verdict, a frame of
# each message type built, serialized and parsed back, the shrink vectors, the UTF-32 route's
# fallback) on Debian's arm64 CPython under qemu-aarch64, installed by pip for the
# manylinux2014_aarch64 platform; builds the macOS arm64 wheel and checks both structurally
# (scripts/dist-tools/check_dist.py: tags, Mach-O LC_BUILD_VERSION / ELF NEEDED, PyInit__native
# exported, nothing undefined beyond the system libraries and Python's C API, auditwheel show);
# then test_checks.py breaks both wheels on purpose and shows each check refuses them. The arm64
# root (Debian's arm64 CPython, OpenJDK and Node: step 42 runs the jar and the Node addon on it)
# is cached in ${XDG_CACHE_HOME:-~/.cache}/wirecontract/arm64-root-full (scripts/lib/arm64-root.sh).
set -euo pipefail
ROOT="$(pwd)"
source scripts/lib/common.sh
source scripts/lib/dist.sh
source scripts/lib/arm64-root.sh
OUT="$ROOT/target/dist-step"
export DIST_PROFILE=ci
rm -rf "$OUT"
mkdir -p "$OUT"
t=$SECONDS
DIST_ARM64_ROOT="$(dist_arm64_root)"
echo "arm64 root: $((SECONDS - t)) s"
t=$SECONDS
dist_wheel aarch64-unknown-linux-gnu manylinux2014 "$OUT"
echo "aarch64 wheel: $((SECONDS - t)) s"
t=$SECONDS
dist_wheel aarch64-apple-darwin "" "$OUT"
echo "macOS arm64 wheel: $((SECONDS - t)) s"
ls -l "$OUT"
t=$SECONDS
dist_check --require wheel:manylinux_aarch64 --require wheel:macosx_arm64 "$OUT"
dist_python_smoke "$(ls "$OUT"/*manylinux_2_17_aarch64*.whl)" manylinux2014_aarch64 qemu-aarch64-static -L "$DIST_ARM64_ROOT" "$DIST_ARM64_ROOT/usr/bin/python3"
echo "arm64 smoke under qemu: $((SECONDS - t)) s"
"$(dist_venv)/bin/python" -B scripts/dist-tools/test_checks.py --root "$ROOT" --zig-libc "$(dist_zig_libc)" \
    --glibc-libs "x86_64=/lib/x86_64-linux-gnu,aarch64=$DIST_ARM64_ROOT/lib/aarch64-linux-gnu" --auditwheel "$(dist_venv)/bin/auditwheel" "$OUT"
