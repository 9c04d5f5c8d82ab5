# The arm64 Linux jar library and Node addon under qemu (step 32 does the wheels; everything else
# is `scripts/dist --all`): cross-builds wirecontract-uniffi's and wirecontract-node's cdylibs for
# aarch64-unknown-linux-gnu (cargo-zigbuild, glibc 2.17; debug builds: their build scripts and
# proc macros, uniffi's bindgen among them, are the host's debug ones steps 10-40 compiled, and
# the smoke suites need no speed), checks the jar structurally (scripts/dist-tools/check_dist.py: ELF
# machine, NEEDED, undefined symbols against the arm64 root's glibc, the JNI and
# uniffi functions the Kotlin side binds; the Node packages' structural checks are
# `scripts/dist`'s), then runs the smoke suites (every shared GraphMind and Graphorin vector's verdict,
# a frame of each message type built, serialized and parsed back, the shrink vectors):
# - JarSmoke (scripts/dist-tools/JarSmoke.java) on Debian's arm64 OpenJDK 17 under qemu-aarch64,
#   with step 40's jar plus the arm64 library as `linux-aarch64/libwirecontract_uniffi.so`
#   (JNA's resource name, where the JNI fast path's loader finds it too);
# - node-smoke.js on Debian's arm64 Node under qemu-aarch64, with @wirecontract/node (the
#   JavaScript of bindings/node and the generated declarations, no browser backend) and
#   @wirecontract/node-linux-arm64-gnu laid out in node_modules as npm installs them.
# Runs after step 40 (its jar and the local Maven repository's JNA and Kotlin standard library).
# The arm64 root is step 32's, cached in ${XDG_CACHE_HOME:-~/.cache}/wirecontract/arm64-root-full.
set -euo pipefail
ROOT="$(pwd)"
source scripts/lib/common.sh
source scripts/lib/dist.sh
source scripts/lib/arm64-root.sh
source scripts/lib/dist-run.sh
OUT="$ROOT/target/dist-arm64"
TARGET=aarch64-unknown-linux-gnu
export DIST_PROFILE=dev
jar40="$(ls "$ROOT"/target/kotlin/wirecontract-graphmind-kotlin-*.jar 2>/dev/null | grep -v sources | head -n1)" || true
[ -n "$jar40" ] || { echo "42-dist-arm64: no target/kotlin/wirecontract-graphmind-kotlin-*.jar: run step 40 first" >&2; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT/jar/linux-aarch64" "$OUT/node"
t=$SECONDS
DIST_ARM64_ROOT="$(dist_arm64_root)"
export DIST_ARM64_ROOT
echo "arm64 root: $((SECONDS - t)) s"

t=$SECONDS
cp "$(dist_cdylib wirecontract-uniffi "$TARGET")" "$OUT/jar/linux-aarch64/"
echo "arm64 uniffi library: $((SECONDS - t)) s"
t=$SECONDS
addon="$(dist_cdylib wirecontract-node "$TARGET")"
echo "arm64 Node addon: $((SECONDS - t)) s"

# The jar: step 40's (its Kotlin classes, the x86-64 library) with the arm64 library added.
jar="$OUT/$(basename "$jar40")"
cp "$jar40" "$jar"
(cd "$OUT/jar" && jar uf "$jar" linux-aarch64/libwirecontract_uniffi.so)

# The Node packages, unpacked as npm installs them: the platform package from its package.json
# and the addon; the main package from bindings/node's JavaScript and the generated files.
mods="$OUT/node/linux-arm64-gnu/node_modules/@wirecontract"
mkdir -p "$mods/node" "$mods/node-linux-arm64-gnu"
cp bindings/node/npm/linux-arm64-gnu/package.json "$mods/node-linux-arm64-gnu/"
cp "$addon" "$mods/node-linux-arm64-gnu/wirecontract.linux-arm64-gnu.node"
cargo run --locked --quiet -p wirecontract-gen -- "$OUT/gen"
cp bindings/node/package.json bindings/node/*.js "$mods/node/"
rm -f "$mods/node/wirecontract.node"
for f in index.d.ts index.mjs contract-id.json zod-schemas.js accept.js; do
    cp "$OUT/gen/typescript/$f" "$mods/node/"
done

t=$SECONDS
dist_check --require jar:linux-aarch64 "$jar"
echo "checks: $((SECONDS - t)) s"
t=$SECONDS
dist_jar_smoke_setup "$jar" "$OUT/jar-smoke"
dist_jar_smoke_arm64 "$DIST_ARM64_ROOT" "$OUT/jar-smoke"
echo "jar smoke under qemu: $((SECONDS - t)) s"
t=$SECONDS
dist_node_smoke_arm64 "$DIST_ARM64_ROOT" "$OUT/node/linux-arm64-gnu"
echo "Node smoke under qemu: $((SECONDS - t)) s"
