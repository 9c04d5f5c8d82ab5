# Python: build the wheel, install it with the test dependencies into a fresh virtual
# environment, run pytest (conformance, API, hypothesis, the real graphmind-ai client).
set -euo pipefail
ROOT="$(pwd)"
source scripts/lib/common.sh
build_wheel
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
