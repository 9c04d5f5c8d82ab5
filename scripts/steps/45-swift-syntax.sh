# Swift: no Swift toolchain here, so every generated and hand-written Swift file (the generated
# GraphMind and Graphorin bindings, both Package.swift manifests, both XCTest suites) is parsed with
# tree-sitter-swift and must have no syntax error; check_names.py then checks the generated names
# against the API design guidelines and the generated wire conversions (swift-ext/), and
# check_manifests.py that both manifests agree and the by-URL one names only committed paths.
# Compiling and running the XCTest suite needs macOS: see bindings/uniffi/README.md.
set -euo pipefail
ROOT="$(pwd)"
source scripts/lib/common.sh
VENV="$ROOT/target/swift-syntax-venv"
if ! "$VENV/bin/python" -c "import tree_sitter, tree_sitter_swift" 2>/dev/null; then
    rm -rf "$VENV"
    "$(python_bin)" -m venv "$VENV"
    "$VENV/bin/pip" install --quiet "tree-sitter==0.26.1" "tree-sitter-swift==0.7.4"
fi
# Resolved and deduplicated: Sources/ holds a symlink to the generated file.
mapfile -t files < <(
    { find Package.swift generated/swift bindings/uniffi/swift -name '*.swift' -not -path '*/.build/*' -not -path '*/build/*' -print0 |
        xargs -0 realpath --relative-to="$ROOT"; } | sort -u
)
[ "${#files[@]}" -ge 5 ] || { echo "45-swift-syntax: expected the generated and hand-written Swift files, found ${#files[@]}" >&2; exit 1; }
"$VENV/bin/python" bindings/uniffi/swift/check_syntax.py "${files[@]}"
# Naming (Swift API design guidelines) of the generated public API, and the generated wire
# conversions (init?(wire:), wire) against the enums they extend.
(cd bindings/uniffi/swift && "$VENV/bin/python" check_names.py "$ROOT"/generated/swift/Wirecontract{Graphmind,Graphorin}.swift \
    --wire "$ROOT"/generated/swift-ext/*.swift)
# The root manifest (by URL) and the local one describe the same package; the root one references
# only committed, non-ignored paths and a released binary.
"$VENV/bin/python" bindings/uniffi/swift/check_manifests.py "$ROOT"
