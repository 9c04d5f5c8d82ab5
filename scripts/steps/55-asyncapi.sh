# AsyncAPI: both generated documents (generated/asyncapi/*.asyncapi.yaml) must parse with the
# official parser (@asyncapi/parser) with no diagnostic of severity error, and every message
# example must satisfy its payload schema (scripts/check-asyncapi.mjs). Warnings are printed.
# The parser is installed once with npm into target/asyncapi-check (no lock file, nothing saved).
set -euo pipefail
ROOT="$(pwd)"
CACHE="$ROOT/target/asyncapi-check"
command -v node >/dev/null && command -v npm >/dev/null || { echo "55-asyncapi: node and npm are required" >&2; exit 1; }
if [ ! -f "$CACHE/node_modules/@asyncapi/parser/package.json" ]; then
    mkdir -p "$CACHE"
    (cd "$CACHE" && npm install --silent --no-package-lock --no-save --no-audit --no-fund @asyncapi/parser >&2)
fi
mapfile -t docs < <(find generated/asyncapi -name '*.asyncapi.yaml' | sort)
[ "${#docs[@]}" -ge 2 ] || { echo "55-asyncapi: expected the GraphMind and Graphorin documents, found ${#docs[@]}" >&2; exit 1; }
ASYNCAPI_PARSER_DIR="$CACHE" node scripts/check-asyncapi.mjs "${docs[@]}"
