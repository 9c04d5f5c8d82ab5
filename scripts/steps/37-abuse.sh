# `wirecontract listen` under abuse (bindings/cli/tests/listen_abuse.py): slow readers,
# connection churn, 10,000 runs, oversized frames, hostile runIds, silent and half-open
# connections at once beside a well-behaved app, then descriptor exhaustion under
# `ulimit -n 64`; asserts peak RSS, the closes of docs/robustness.md ("Resource limits"), that
# the app's frames are each stored once (replay included) and every pause is answered.
# Loopback only; about a minute on 2 cores. Logs and records are left in <target>/listen-abuse/.
set -euo pipefail
ROOT="$(pwd)"
source scripts/lib/common.sh
cargo build --locked --quiet -p wirecontract-cli
TARGET="$(cargo metadata --no-deps --format-version 1 --locked | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
# The same virtual environment as step 35 (websockets pinned there).
REQS="$ROOT/bindings/cli/tests/listen-requirements.txt"
VENV="${WIRECONTRACT_LISTEN_VENV:-$ROOT/target/listen-venv}"
pinned='import graphmind, websockets, sys; sys.exit(not (graphmind.__version__ == "0.5.1" and websockets.__version__ == "17.4"))'
if ! "$VENV/bin/python" -c "$pinned" 2>/dev/null; then
    rm -rf "$VENV"
    "$(python_bin)" -m venv "$VENV"
    "$VENV/bin/pip" install --quiet -r "$REQS"
fi
rm -rf "$TARGET/listen-abuse"
# One bound on the whole run; timeout signals its process group, so listeners go too.
timeout --kill-after=5 180 "$VENV/bin/python" "$ROOT/bindings/cli/tests/listen_abuse.py" \
    --cli "$TARGET/debug/wirecontract" --out "$TARGET/listen-abuse"
