# The tests of `scripts/dist --all` that run artifacts: natively (x86-64 glibc), under qemu-x86_64
# with a processor model without AVX2, and under qemu-aarch64 with Debian's arm64 CPython, JDK and
# Node from the arm64 root. Sourced after dist.sh and arm64-root.sh.
#
# What qemu emulates: qemu-aarch64-static's default CPU model `max` (Armv8 with Advanced SIMD);
# qemu-x86_64-static -cpu Westmere: an x86-64 processor with SSE4.2 and without AVX, AVX2 or
# AVX-512, so the Python UTF-32 route and the scanners take their portable fallbacks.

# dist_run_all DIST ARM64_ROOT
dist_run_all() {
    local dist="$1" r64="$2" host_python w
    dist_shared >/dev/null || return 1
    # The interpreter's own file (qemu runs ELF files, not pyenv's shim scripts).
    host_python="$("$(python_bin)" -c 'import sys; print(sys.executable)')"
    w="$(ls "$dist"/python/*manylinux_2_17_x86_64*.whl)"
    step "Python smoke: manylinux x86_64 wheel, natively"
    dist_python_smoke "$w" manylinux2014_x86_64 "$host_python"
    step "Python smoke: manylinux x86_64 wheel under qemu-x86_64 -cpu Westmere (no AVX2)"
    dist_python_smoke "$w" manylinux2014_x86_64 qemu-x86_64-static -cpu Westmere "$host_python"
    step "Python smoke: manylinux aarch64 wheel under qemu-aarch64 (Debian's arm64 CPython)"
    dist_python_smoke "$(ls "$dist"/python/*manylinux_2_17_aarch64*.whl)" manylinux2014_aarch64 \
        qemu-aarch64-static -L "$r64" "$r64/usr/bin/python3"
    dist_sdist_smoke "$(ls "$dist"/python/wirecontract-*.tar.gz)"
    dist_jar_smoke "$(ls "$dist"/jvm/wirecontract-graphmind-kotlin-*.jar)" "$r64"
    dist_node_smoke "$dist/node" "$r64"
}

# dist_sdist_smoke SDIST: `pip install SDIST` in a fresh virtual environment (pip builds the wheel
# from source with maturin and cargo: this machine has Rust), then the smoke suite.
dist_sdist_smoke() {
    local sdist="$1" venv="$ROOT/target/dist-sdist-venv"
    step "sdist: pip install $(basename "$sdist") into a fresh venv (a build from source), smoke suite"
    rm -rf "$venv"
    "$(python_bin)" -m venv "$venv"
    "$venv/bin/pip" install --quiet --upgrade pip
    # The build's target directory is kept between runs (a cold fat-LTO build takes minutes).
    CARGO_TARGET_DIR="$ROOT/target/dist-sdist-build" nice -n 10 "$venv/bin/pip" install --quiet --no-cache-dir "$sdist"
    (cd "$ROOT/target" && WIRECONTRACT_SHARED="$(dist_shared)" "$venv/bin/python" -B "$ROOT/scripts/dist-tools/smoke.py" "$ROOT")
}

# The shared vectors as JarSmoke reads them: tab-separated fields, each base64 of UTF-16BE.
dist_jar_vectors() {
    "$(python_bin)" - "$(dist_shared)" "$1" <<'PY'
import base64, json, sys
from pathlib import Path
shared, out = Path(sys.argv[1]), sys.argv[2]
def f(x):
    return base64.b64encode(("" if x is None else str(x)).encode("utf-16-be", "surrogatepass")).decode()
def jsonl(p):
    return [json.loads(l) for l in (shared / p).read_text(encoding="utf-8").splitlines() if l.strip()]
with open(out, "w") as o:
    for v in jsonl("vectors/graphmind/conformance.jsonl"):
        o.write("\t".join(["gm"] + [f(v.get(k)) for k in ("name", "expect", "type", "frame")]) + "\n")
    for v in jsonl("vectors/graphorin/conformance.jsonl"):
        o.write("\t".join(["go"] + [f(v.get(k)) for k in ("name", "expect", "variant", "direction", "frame")]) + "\n")
    for v in jsonl("vectors/graphmind/shrink.jsonl"):
        o.write("\t".join(["shrink"] + [f(v.get(k)) for k in ("name", "payload_json", "max_bytes", "type", "expect_json", "tier")]) + "\n")
PY
}

# dist_jar_smoke_setup JAR WORK: compiles JarSmoke into WORK/classes against JAR and writes the
# vectors to WORK/vectors.tsv; sets DIST_JAR_CP to the class path: the jar, JNA and the Kotlin
# standard library (from the local Maven repository, where building the jar put them).
dist_jar_smoke_setup() {
    local jar="$1" work="$2" m2="${MAVEN_REPO:-$HOME/.m2/repository}" jna kotlin
    local pom="$ROOT/bindings/uniffi/kotlin/pom.xml"
    jna="$m2/net/java/dev/jna/jna/$(sed -n 's:.*<jna.version>\(.*\)</jna.version>.*:\1:p' "$pom")"
    kotlin="$m2/org/jetbrains/kotlin/kotlin-stdlib/$(sed -n 's:.*<kotlin.version>\(.*\)</kotlin.version>.*:\1:p' "$pom")"
    rm -rf "$work"
    mkdir -p "$work/classes"
    DIST_JAR_CP="$jar:$(ls "$jna"/jna-*.jar | grep -v sources | head -n1):$(ls "$kotlin"/kotlin-stdlib-*.jar | grep -v sources | head -n1)"
    javac -d "$work/classes" -cp "$DIST_JAR_CP" "$ROOT/scripts/dist-tools/JarSmoke.java"
    dist_jar_vectors "$work/vectors.tsv"
}

# dist_jar_smoke_arm64 ARM64_ROOT WORK: JarSmoke (set up by dist_jar_smoke_setup) on Debian's
# arm64 JDK under qemu-aarch64: the jar's linux-aarch64 library.
dist_jar_smoke_arm64() {
    local r64="$1" work="$2" java64
    step "jar smoke: Debian's arm64 JDK under qemu-aarch64 (linux-aarch64)"
    java64="$(ls -d "$r64"/usr/lib/jvm/java-17-openjdk-arm64/bin/java)"
    qemu-aarch64-static -L "$r64" "$java64" -cp "$DIST_JAR_CP:$work/classes" JarSmoke "$work/vectors.tsv"
}

# dist_jar_smoke JAR ARM64_ROOT: JarSmoke on this machine's JDK and under qemu-aarch64 on Debian's
# arm64 JDK; then a copy of the jar without linux-x86-64 must refuse to load naming the platform
# and the override property.
dist_jar_smoke() {
    local jar="$1" r64="$2" work="$ROOT/target/dist-smoke/jar"
    dist_jar_smoke_setup "$jar" "$work"
    step "jar smoke: this machine's JDK (linux-x86-64)"
    java -cp "$DIST_JAR_CP:$work/classes" JarSmoke "$work/vectors.tsv"
    dist_jar_smoke_arm64 "$r64" "$work"
    step "jar smoke: a jar without linux-x86-64"
    "$(python_bin)" - "$jar" "$work/missing.jar" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as a, zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as b:
    for i in a.infolist():
        if not i.filename.startswith("linux-x86-64/"):
            b.writestr(i, a.read(i.filename))
PY
    java -cp "${DIST_JAR_CP/#$jar/$work/missing.jar}:$work/classes" JarSmoke --expect-missing linux-x86-64
}

# dist_node_smoke NODE_DIR ARM64_ROOT: node_modules laid out as npm would install them (the main
# package and the one platform package that fits), then node-smoke.js on this machine's Node
# (linux-x64-gnu) and under qemu-aarch64 on Debian's arm64 Node (linux-arm64-gnu); and without any
# platform package, the error must name the one to install.
dist_node_smoke() {
    local dir="$1" r64="$2" work="$ROOT/target/dist-smoke/node" plat
    rm -rf "$work"
    for plat in linux-x64-gnu linux-arm64-gnu none; do
        mkdir -p "$work/$plat/node_modules/@wirecontract/node"
        tar xzf "$dir"/wirecontract-node-[0-9]*.tgz -C "$work/$plat/node_modules/@wirecontract/node" --strip-components=1
        if [ "$plat" != none ]; then
            mkdir -p "$work/$plat/node_modules/@wirecontract/node-$plat"
            tar xzf "$dir"/wirecontract-node-"$plat"-*.tgz -C "$work/$plat/node_modules/@wirecontract/node-$plat" --strip-components=1
        fi
    done
    step "Node smoke: this machine's Node (linux-x64-gnu)"
    WIRECONTRACT_SHARED="$(dist_shared)" node "$ROOT/scripts/dist-tools/node-smoke.js" "$work/linux-x64-gnu"
    dist_node_smoke_arm64 "$r64" "$work/linux-arm64-gnu"
    step "Node smoke: no platform package installed"
    node "$ROOT/scripts/dist-tools/node-smoke.js" "$work/none" --expect-missing @wirecontract/node-linux-x64-gnu
}

# dist_node_smoke_arm64 ARM64_ROOT DIR: node-smoke.js on Debian's arm64 Node under qemu-aarch64,
# DIR/node_modules holding @wirecontract/node and @wirecontract/node-linux-arm64-gnu.
dist_node_smoke_arm64() {
    step "Node smoke: Debian's arm64 Node under qemu-aarch64 (linux-arm64-gnu)"
    WIRECONTRACT_SHARED="$(dist_shared)" qemu-aarch64-static -L "$1" "$1/usr/bin/node" "$ROOT/scripts/dist-tools/node-smoke.js" "$2"
}
