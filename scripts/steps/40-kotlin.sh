# Kotlin: builds the uniffi cdylib, installs the jar (bindings/uniffi/kotlin: the committed
# generated/kotlin of both packages, dev.wirecontract.graphmind and dev.wirecontract.graphorin,
# the JVM fast path generated/kotlin-jvm + src/main/kotlin, -Werror, the native library inside as
# linux-x86-64/libwirecontract_uniffi.so) into the local Maven repository, then runs the JUnit
# suite (bindings/uniffi/kotlin/tests) against that installed jar, no jna.library.path: the JVM
# fast path (JNI parse/build) over every vector, its generated matching against the core, a
# plain-Java test building a frame of every type; GraphMind's conformance vectors and real-client frames,
# round trips, all 16 types, range checks, matchers; every Graphorin vector (verdict, variant,
# guards, byte-for-byte round trip), ids, issues, catalogues, subprotocol helpers; a 1,000,000-deep
# frame on a 256 KiB thread and naming safety for both; the JVM session host (SessionHost.kt over
# java.net.http.WebSocket) against `wirecontract listen` (a pause, an inject, a disconnect while
# held, the docs' adapter), the adapter-core scenarios against the real client's recordings
# (AdapterCoreTest: redaction, token batching, the loop-guard environment, through `listen`), and
# `wirecontract conform` against it (ConformTest: every scenario of
# docs/conform.md plays ConformWorkload.kt in a JVM of its own and passes). A debug build: it reuses what steps 10 and 20 compiled, where a release
# build (fat LTO, one codegen unit) costs minutes on a 2-core CI machine. Maven fetches what it
# needs into ~/.m2 on a cold machine. A jar build given no native library must stop with its
# message (maven-enforcer-plugin).
set -euo pipefail
ROOT="$(pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
command -v mvn >/dev/null || { echo "40-kotlin: Maven (mvn) and a JDK 17+ are required" >&2; exit 1; }
# The CLI too: SessionHostTest drives `wirecontract listen`.
# Two builds: built together, the CLI would take uniffi's features of shared dependencies
# (serde_json, clap) and be compiled a second time; alone it is step 27's build, reused.
cargo build --quiet --locked -p wirecontract-uniffi
cargo build --quiet --locked -p wirecontract-cli
REPORTS="$ROOT/target/kotlin-tests/surefire-reports"  # tests/pom.xml: <directory>
rm -rf "$REPORTS"
mvn -q -B -Dstyle.color=never -f bindings/uniffi/kotlin/pom.xml -Dnative.lib.dir="$TARGET/debug" install
# Without a native library the jar is not built: the build stops naming the directory.
empty="$(mktemp -d)"
if mvn -q -B -Dstyle.color=never -f bindings/uniffi/kotlin/pom.xml -Dnative.lib.dir="$empty" validate >"$empty.log" 2>&1 \
    || ! grep -q "No native library in native.lib.dir ($empty)" "$empty.log"; then
    echo "40-kotlin: a jar build without the native library did not stop with its message:" >&2
    cat "$empty.log" >&2
    exit 1
fi
rm -rf "$empty" "$empty.log"
status=0
mvn -q -B -Dstyle.color=never -f bindings/uniffi/kotlin/tests/pom.xml -Dwirecontract.cli="$TARGET/debug/wirecontract" test || status=$?
# -q hides Surefire's own summary: total it from the reports.
python3 - "$REPORTS" <<'PY' || true
import glob, sys, xml.etree.ElementTree as ET
totals = dict(tests=0, failures=0, errors=0, skipped=0)
for path in glob.glob(f"{sys.argv[1]}/TEST-*.xml"):
    root = ET.parse(path).getroot()
    for k in totals:
        totals[k] += int(root.get(k, 0))
print("Surefire: Tests run: {tests}, Failures: {failures}, Errors: {errors}, Skipped: {skipped}".format(**totals))
PY
exit "$status"
