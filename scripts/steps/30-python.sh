# Python: build the wheel, install it with the test dependencies into a fresh virtual
# environment, run pytest (conformance, API, hypothesis, the real graphmind-ai client, the
# session hosts against `wirecontract listen` and the re-enacted real-client scenarios, the
# Python examples of docs/session.md).
set -euo pipefail
ROOT="$(pwd)"
source scripts/lib/common.sh
build_wheel
# The session host tests drive `wirecontract listen` (a debug build, shared with step 35).
cargo build --locked --quiet -p wirecontract-cli
TARGET="$(cargo metadata --no-deps --format-version 1 --locked | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
export WIRECONTRACT_CLI="$TARGET/debug/wirecontract"
VENV="$ROOT/target/test-venv"
rm -rf "$VENV"
"$(python_bin)" -m venv "$VENV"
"$VENV/bin/pip" install --quiet --upgrade pip
"$VENV/bin/pip" install --quiet -r bindings/python/tests/requirements.txt
"$VENV/bin/pip" install --quiet "$ROOT"/target/wheels/wirecontract-*.whl
# Run from outside the source tree so the installed wheel, not the sources, is imported.
cd "$ROOT/target"
"$VENV/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/bindings/python/tests"
# The shipped stubs type-check a program that uses them.
"$VENV/bin/python" -m mypy --strict --no-incremental "$ROOT/bindings/python/tests/typing_example.py"
