# The JVM artifact of scripts/dist: one jar carrying the native library of every platform under
# JNA's resource names (linux-x86-64, linux-aarch64, darwin-x86-64, darwin-aarch64), where both
# the uniffi half (JNA) and the JNI fast path's loader (Native.kt) find it. Sourced after dist.sh.

# The JNA platform directory and library file name of each Rust target the jar carries.
DIST_JAR_TARGETS=(
    "x86_64-unknown-linux-gnu linux-x86-64"
    "aarch64-unknown-linux-gnu linux-aarch64"
    "x86_64-apple-darwin darwin-x86-64"
    "aarch64-apple-darwin darwin-aarch64"
)

# dist_jar OUT_DIR: builds the four libraries (release, stripped), packages the jar with Maven
# (`package`, not `install`: the local repository keeps what step 40 installed) carrying this
# machine's library, then adds the other three with the JDK's `jar` tool.
dist_jar() {
    local out="$1" stage="$ROOT/target/dist-jar" entry target plat lib jar
    command -v mvn >/dev/null && command -v jar >/dev/null || { echo "dist: the jar needs Maven and a JDK 17+" >&2; return 1; }
    rm -rf "$stage"
    mkdir -p "$stage" "$out"
    for entry in "${DIST_JAR_TARGETS[@]}"; do
        read -r target plat <<<"$entry"
        lib="$(dist_cdylib wirecontract-uniffi "$target")" || return 1
        mkdir -p "$stage/$plat"
        cp "$lib" "$stage/$plat/"
    done
    mvn -q -B -Dstyle.color=never -f "$ROOT/bindings/uniffi/kotlin/pom.xml" \
        -Dnative.lib.dir="$stage/linux-x86-64" -Dnative.platform=linux-x86-64 package >&2 || return 1
    jar="$(ls "$ROOT"/target/kotlin/wirecontract-graphmind-kotlin-*.jar | grep -v sources | head -n1)"
    cp "$jar" "$out/"
    jar="$out/$(basename "$jar")"
    for entry in "${DIST_JAR_TARGETS[@]:1}"; do
        read -r target plat <<<"$entry"
        (cd "$stage" && command jar uf "$jar" "$plat"/*)
    done
    unzip -l "$jar" | grep -E '/(lib)?wirecontract_uniffi\.(so|dylib|dll)$' >&2
}
