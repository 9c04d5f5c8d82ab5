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

# A virtual environment with maturin, created once under target/.
tool_venv() {
    local venv="${WIRECONTRACT_TOOL_VENV:-$ROOT/target/tool-venv}"
    if [ ! -x "$venv/bin/maturin" ]; then
        "$(python_bin)" -m venv "$venv"
        "$venv/bin/pip" install --quiet --upgrade pip
        "$venv/bin/pip" install --quiet "maturin>=1.8,<2"
    fi
    echo "$venv"
}

# Builds the abi3 wheel into target/wheels (replacing older ones). Release by default;
# WIRECONTRACT_WHEEL_PROFILE=debug builds a quick unoptimized one (scripts/contract-change).
build_wheel() {
    local venv profile=--release
    venv="$(tool_venv)"
    [ "${WIRECONTRACT_WHEEL_PROFILE:-release}" = debug ] && profile=
    rm -f "$ROOT"/target/wheels/wirecontract-*.whl
    "$venv/bin/maturin" build --quiet $profile --locked -m "$ROOT/bindings/python/Cargo.toml" --out "$ROOT/target/wheels" 2>&1 | grep -v '^📦' || true
    ls "$ROOT"/target/wheels/wirecontract-*.whl >/dev/null
}
