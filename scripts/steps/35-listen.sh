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
