# Swift, compiled and run: Swift 6.0.3 (Debian trixie's swiftlang, in a debootstrap root kept in
# the user's cache and run through chroot: scripts/lib/swift-root.sh) builds the local SwiftPM
# package bindings/uniffi/swift (the generated GraphMind and Graphorin bindings, the hand-written
# SessionHost.swift, the XCTest suites and Examples/AdapterExample.swift, compiled into the GraphMind
# tests) against the debug libwirecontract_uniffi cargo builds for this machine (the Linux route of
# its manifest: LinuxFFI/module.modulemap), and runs the XCTest suites, once with -swift-version 5
# and once with -swift-version 6 (strict concurrency), each with its own .build directory
# (target/swift/v5, v6), every target of the package with -warnings-as-errors. SessionHostTests drive `wirecontract listen` (the CLI built here)
# on loopback and check its NDJSON record, AdapterCoreTests play the adapter-core scenarios through
# it against the real client's recordings (vectors/graphmind/adapter-core); then `wirecontract conform` plays every scenario against
# the SessionHost (ConformWorkload, in the Swift 6 test bundle). Then check_names.py checks the generated names against
# the API design guidelines and the generated wire conversions (swift-ext/), and check_manifests.py
# that both manifests agree and the by-URL one names only committed paths.
# Needs root (debootstrap, mount namespaces, chroot); a cold machine first builds the root
# (debootstrap, then apt-get install swiftlang libc6-dev).
set -euo pipefail
ROOT="$(pwd)"
source scripts/lib/common.sh
source scripts/lib/swift-root.sh
TARGET="$(cargo metadata --no-deps --format-version 1 --locked | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
SHARED="$(realpath "${WIRECONTRACT_SHARED:-$ROOT/../shared}")"
[ -d "$SHARED/vectors" ] || { echo "45-swift: shared material missing at $SHARED (set WIRECONTRACT_SHARED)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "45-swift: needs root (debootstrap, mount, chroot)" >&2; exit 1; }
# The CLI too: SessionHostTests drive `wirecontract listen`.
# Two builds: built together, the CLI would take uniffi's features of shared dependencies
# (serde_json, clap) and be compiled a second time; alone it is step 27's build, reused.
cargo build --quiet --locked -p wirecontract-uniffi
cargo build --quiet --locked -p wirecontract-cli
swift_root_ensure
# Inside the root: the worktree (read-write) at its own path, the shared material and a cargo
# target directory outside the worktree read-only at theirs.
binds="$SHARED"
case "$TARGET/" in "$ROOT"/*) ;; *) binds="$binds $TARGET" ;; esac
PKG="$ROOT/bindings/uniffi/swift"
LIB="$TARGET/debug"
for mode in 5 6; do
    step "Swift $mode mode"
    scratch="$ROOT/target/swift/v$mode"
    # The manifest reads WIRECONTRACT_SWIFT_MODE: -swift-version and -warnings-as-errors per target.
    flags=(--package-path "$PKG" --scratch-path "$scratch" -Xlinker -L"$LIB" -Xlinker -rpath -Xlinker "$LIB")
    SWIFT_ROOT_BINDS="$binds" swift_root_run "$ROOT" env WIRECONTRACT_SWIFT_MODE="$mode" \
        swift build --build-tests "${flags[@]}"
    # One bound on the suites (each wait inside is bounded too; a hang must not stall CI).
    SWIFT_ROOT_BINDS="$binds" SWIFT_ROOT_TIMEOUT=600 swift_root_run "$ROOT" env WIRECONTRACT_SWIFT_MODE="$mode" \
        WIRECONTRACT_SHARED="$SHARED" WIRECONTRACT_CLI="$LIB/wirecontract" swift test --skip-build --skip ConformWorkload "${flags[@]}"
done
# `wirecontract conform` against the Swift SessionHost: ConformWorkload (the workload of
# docs/conform.md, compiled into the test bundle the Swift 6 build above made) plays every
# scenario in a process of its own, inside the root; all must pass. Reports in target/conform/swift/.
step "conform against the Swift SessionHost"
OUT="$ROOT/target/conform/swift"
rm -rf "$OUT" && mkdir -p "$OUT"
SWIFT_ROOT_BINDS="$binds" SWIFT_ROOT_TIMEOUT=600 swift_root_run "$ROOT" "$LIB/wirecontract" conform --jobs 4 --name swift-session-host \
    --out "$OUT" --report "$OUT/report.txt" --json "$OUT/report.json" --junit "$OUT/junit.xml" \
    -- "$ROOT/target/swift/v6/debug/WirecontractPackageTests.xctest" WirecontractGraphmindTests.ConformWorkload \
    || { cat "$OUT/report.txt" >&2 || true; echo "45-swift: conform against the Swift SessionHost failed" >&2; exit 1; }
# The root manifest (SwiftPM users' by URL) is compiled too: dump-package evaluates it without
# fetching its binary target.
swift_root_run "$ROOT" swift package --package-path "$ROOT" --scratch-path "$ROOT/target/swift/root" dump-package >/dev/null
# Naming is no compiler's business: tree-sitter-swift reads the generated public API.
VENV="$ROOT/target/swift-names-venv"
if ! "$VENV/bin/python" -c "import tree_sitter, tree_sitter_swift" 2>/dev/null; then
    rm -rf "$VENV"
    "$(python_bin)" -m venv "$VENV"
    "$VENV/bin/pip" install --quiet "tree-sitter==0.26.1" "tree-sitter-swift==0.7.4"
fi
(cd "$PKG" && "$VENV/bin/python" check_names.py "$ROOT"/generated/swift/Wirecontract{Graphmind,Graphorin}.swift \
    --wire "$ROOT"/generated/swift-ext/*.swift)
"$VENV/bin/python" "$PKG/check_manifests.py" "$ROOT"
