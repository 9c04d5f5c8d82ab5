# `wirecontract listen` end to end with the real client: graphmind-ai==0.5.1 (from PyPI, in its
# own virtual environment, created once and reused while its pins hold) drives an agent against
# the listener in seven scenarios (continue, inject, abort, step mode, reconnect with replay,
# fail-open while held, answers typed at its terminal prompt);
# bindings/cli/tests/listen_real_client.py checks each recording.
# Records and listener logs are left in <target>/listen-e2e/ for inspection.
set -euo pipefail
ROOT="$(pwd)"
source scripts/lib/common.sh
listen_venv
# One bound on the whole run; timeout signals its process group, so listeners the driver
# started go too. The driver itself kills its listeners on every exit path.
timeout --kill-after=5 150 "$VENV/bin/python" "$ROOT/bindings/cli/tests/listen_real_client.py" \
    --cli "$TARGET/debug/wirecontract" --out "$TARGET/listen-e2e"
# `wirecontract conform` against the real client (bindings/cli/tests/conform_real_client.py):
# every scenario plays, and exactly the checks conform_real_client.expected.json lists fail,
# each where the client differs by the session spec's decisions (docs/session.md, "The real
# client under `wirecontract conform`"). Reports in <target>/conform/real-client/.
OUT="$TARGET/conform/real-client"
rm -rf "$OUT" && mkdir -p "$OUT"
timeout --kill-after=5 300 "$TARGET/debug/wirecontract" conform --jobs 4 --name graphmind-ai-0.5.1 \
    --expect "$ROOT/bindings/cli/tests/conform_real_client.expected.json" \
    --out "$OUT" --report "$OUT/report.txt" --json "$OUT/report.json" --junit "$OUT/junit.xml" \
    -- "$VENV/bin/python" "$ROOT/bindings/cli/tests/conform_real_client.py" \
    || { cat "$OUT/report.txt" >&2 || true; echo "35-listen: conform against the real client is not as expected" >&2; exit 1; }
