# The Node artifacts of scripts/dist, laid out as napi-rs packages are: @wirecontract/node (the
# JavaScript, the declarations, the loader load-native.js; no addon) and one package per platform
# (bindings/node/npm/<platform>/package.json: `os`, `cpu`, `libc`, the addon as `main`), listed
# in the main package's optionalDependencies. Each is an `npm pack` tarball. Sourced after dist.sh.

DIST_NODE_TARGETS=(
    "x86_64-unknown-linux-gnu linux-x64-gnu"
    "aarch64-unknown-linux-gnu linux-arm64-gnu"
    "x86_64-unknown-linux-musl linux-x64-musl"
    "aarch64-unknown-linux-musl linux-arm64-musl"
    "x86_64-apple-darwin darwin-x64"
    "aarch64-apple-darwin darwin-arm64"
)

# dist_node OUT_DIR
dist_node() {
    local out="$1" stage="$ROOT/target/dist-node" entry target plat lib f
    command -v npm >/dev/null || { echo "dist: the Node packages need npm" >&2; return 1; }
    rm -rf "$stage"
    mkdir -p "$stage/main" "$out"
    rm -f "$out"/*.tgz
    for entry in "${DIST_NODE_TARGETS[@]}"; do
        read -r target plat <<<"$entry"
        lib="$(dist_cdylib wirecontract-node "$target")" || return 1
        mkdir -p "$stage/$plat"
        cp "$ROOT/bindings/node/npm/$plat/package.json" "$stage/$plat/"
        cp "$lib" "$stage/$plat/wirecontract.$plat.node"
        (cd "$stage/$plat" && npm pack --quiet --pack-destination "$out" >/dev/null)
    done
    # The main package: the files package.json lists. The generated ones (the declarations, the
    # zod schemas, the contract id) and the browser backend (wasm/, schema/, dist/) are made in
    # place in bindings/node, as bindings/node/build.sh and bindings/wasm/build.sh make them for
    # the tests (gitignored there), then copied; no addon of its own.
    cargo run --locked --quiet -p wirecontract-gen -- "$stage/gen"
    # The generated files, as bindings/node/build.sh copies them.
    for f in index.d.ts index.mjs contract-id.json zod-schemas.js accept.js; do
        cp "$stage/gen/typescript/$f" "$ROOT/bindings/node/$f"
    done
    (cd "$ROOT/bindings/node" && { [ -x node_modules/.bin/esbuild ] ||
        npm install --no-package-lock --no-audit --no-fund --loglevel=error >&2; }) || return 1
    "$ROOT/bindings/wasm/build.sh" >&2 || return 1
    cp "$ROOT/bindings/node/package.json" "$stage/main/"
    for f in $(node -e 'for (const f of require(process.argv[1]).files) console.log(f)' "$ROOT/bindings/node/package.json"); do
        [ -e "$ROOT/bindings/node/$f" ] || { echo "dist: bindings/node/$f (listed in package.json files) was not made" >&2; return 1; }
        cp -r "$ROOT/bindings/node/${f%/}" "$stage/main/"
    done
    (cd "$stage/main" && npm pack --quiet --pack-destination "$out" >/dev/null)
    ls -l "$out" >&2
}
