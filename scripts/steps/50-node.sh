# Node.js: build the napi-rs addon, the generated declarations and zod schemas into
# bindings/node, install the dev dependencies (typescript, fast-check, zod; no lockfile is
# committed or written), type-check the examples against index.d.ts, run the node:test suites
# (vectors, real-client frames, round trips, fast-check properties, hostile input, the
# reference's names and behaviours, the zod schemas against the parser).
set -euo pipefail
ROOT="$(pwd)"
bindings/node/build.sh
cd "$ROOT/bindings/node"
npm install --no-package-lock --no-audit --no-fund --loglevel=error
npx --no-install tsc -p tsconfig.json
node --test test/
