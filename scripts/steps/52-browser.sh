# The browser build of @wirecontract/node: builds the WASM backend (bindings/wasm/build.sh:
# wasm-bindgen and wasm-opt, both cached under ~/.cache/wirecontract), enforces its size
# budget, then runs the browser suite (browser/suite.mjs: every shared GraphMind and
# Graphorin vector and real-client frame, the shrink vectors byte for byte, the property
# tests, ViewerSession over a real-client capture, the README's browser and viewer examples)
# three ways: in Node over the native addon, in Node over the WASM build, and in headless
# Chromium (Debian's `chromium`, installed here when missing) over the `browser` bundle.
# Needs step 50's addon build and npm install (run standalone, it does both itself).
set -euo pipefail
ROOT="$(pwd)"
if [ ! -x /usr/bin/chromium ] && [ -z "${WIRECONTRACT_CHROMIUM:-}" ]; then
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        echo "installing Debian's chromium"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; } >/dev/null
    else
        echo "chromium not found: install Debian's chromium (apt-get install chromium) or set WIRECONTRACT_CHROMIUM" >&2
        exit 1
    fi
fi
cd "$ROOT/bindings/node"
[ -f wirecontract.node ] && [ -f index.d.ts ] || "$ROOT/bindings/node/build.sh"
[ -x node_modules/.bin/esbuild ] && [ -d node_modules/playwright-core ] || npm install --no-package-lock --no-audit --no-fund --loglevel=error
"$ROOT/bindings/wasm/build.sh"
node --test "$ROOT/bindings/wasm/tests/"
# Over the WASM build, the files step 50 runs over the addon: ViewerSession's cases and the
# reference's (@graphmind-ai/schema) names and behaviours, any protocol by name.
WIRECONTRACT_BACKEND=wasm node --test test/viewer-session.test.js test/reference-conformance.test.js test/reference-names.test.js test/protocols.test.js
node browser/node-run.mjs native
WIRECONTRACT_BACKEND=wasm node browser/node-run.mjs wasm
node browser/browser-run.mjs
node browser/site-run.mjs
