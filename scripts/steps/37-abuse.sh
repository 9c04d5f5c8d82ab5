# `wirecontract listen` under abuse (bindings/cli/tests/listen_abuse.py): slow readers,
# connection churn, 10,000 runs, oversized frames, hostile runIds, silent and half-open
# connections at once beside a well-behaved app, then descriptor exhaustion under
# `ulimit -n 64`; asserts peak RSS, the closes of docs/robustness.md ("Resource limits"), that
# the app's frames are each stored once (replay included) and every pause is answered.
# Loopback only; about a minute on 2 cores. Logs and records are left in <target>/listen-abuse/.
set -euo pipefail
ROOT="$(pwd)"
source scripts/lib/common.sh
listen_venv
rm -rf "$TARGET/listen-abuse"
# One bound on the whole run; timeout signals its process group, so listeners go too.
timeout --kill-after=5 180 "$VENV/bin/python" "$ROOT/bindings/cli/tests/listen_abuse.py" \
    --cli "$TARGET/debug/wirecontract" --out "$TARGET/listen-abuse"
