# Shared helpers for the scripts. Sourced, not run.
step() { printf '\n==> %s\n' "$*"; }

# Python used to create virtual environments (3.10+).
python_bin() {
    for p in "${PYTHON:-}" python3.11 python3.12 python3.13 python3.10 python3; do
        [ -n "$p" ] && command -v "$p" >/dev/null 2>&1 && { command -v "$p"; return; }
    done
    echo "no python3 found" >&2
    return 1
}

# A Python of one minor version (python_for 3.13): `python3.13` when it runs, else the newest
# pyenv-installed 3.13.x (pyenv shims refuse versions that are not selected).
python_for() {
    local v="$1" p
    if command -v "python$v" >/dev/null 2>&1 && "python$v" -c '' >/dev/null 2>&1; then
        command -v "python$v"
        return
    fi
    p="$(ls -d "$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"/versions/"$v".*/bin/"python$v" 2>/dev/null | sort -V | tail -1)"
    [ -n "$p" ] || { echo "no Python $v found (python$v or pyenv)" >&2; return 1; }
    echo "$p"
}

# A virtual environment with maturin (wheel builds), ziglang (links the wheel against glibc
# 2.17, the manylinux2014 baseline) and auditwheel (checks the wheel's tag), created once
# under target/.
tool_venv() {
    local venv="${WIRECONTRACT_TOOL_VENV:-$ROOT/target/tool-venv}"
    if [ ! -x "$venv/bin/maturin" ] || [ ! -x "$venv/bin/auditwheel" ] || ! "$venv/bin/python" -c 'import ziglang' 2>/dev/null; then
        [ -x "$venv/bin/python" ] || "$(python_bin)" -m venv "$venv"
        "$venv/bin/pip" install --quiet --upgrade pip
        "$venv/bin/pip" install --quiet "maturin>=1.8,<2" "ziglang==0.17.*" "auditwheel>=6,<7"
    fi
    echo "$venv"
}

# Builds the abi3 wheel into target/wheels (replacing older ones). Release by default: linked by
# zig against glibc 2.17 and tagged manylinux2014 (manylinux_2_17), installable on any glibc
# Linux of the last decade. WIRECONTRACT_WHEEL_PROFILE=debug builds a quick unoptimized wheel
# for this machine only (scripts/contract-change).
build_wheel() {
    local venv
    venv="$(tool_venv)"
    rm -f "$ROOT"/target/wheels/wirecontract-*.whl
    if [ "${WIRECONTRACT_WHEEL_PROFILE:-release}" = debug ]; then
        "$venv/bin/maturin" build --quiet --locked -m "$ROOT/bindings/python/Cargo.toml" --out "$ROOT/target/wheels" 2>&1 | grep -v '^📦' || true
    else
        # maturin finds zig through `python -m ziglang` of the first python on PATH.
        PATH="$venv/bin:$PATH" "$venv/bin/maturin" build --quiet --release --locked --zig --compatibility manylinux2014 \
            -m "$ROOT/bindings/python/Cargo.toml" --out "$ROOT/target/wheels" 2>&1 | grep -v '^📦\|^🛠' || true
    fi
    ls "$ROOT"/target/wheels/wirecontract-*.whl >/dev/null
}

# listen_venv: builds the CLI, then sets TARGET (cargo's target directory) and VENV, the virtual
# environment of the listen steps (35, 37) with graphmind-ai and websockets at the pins of
# bindings/cli/tests/listen-requirements.txt; made once, remade when a pin no longer holds.
listen_venv() {
    cargo build --locked --quiet -p wirecontract-cli
    TARGET="$(cargo metadata --no-deps --format-version 1 --locked | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
    VENV="${WIRECONTRACT_LISTEN_VENV:-$ROOT/target/listen-venv}"
    local pinned='import graphmind, websockets, sys; sys.exit(not (graphmind.__version__ == "0.5.1" and websockets.__version__ == "17.4"))'
    if ! "$VENV/bin/python" -c "$pinned" 2>/dev/null; then
        rm -rf "$VENV"
        "$(python_bin)" -m venv "$VENV"
        "$VENV/bin/pip" install --quiet -r "$ROOT/bindings/cli/tests/listen-requirements.txt"
    fi
}
