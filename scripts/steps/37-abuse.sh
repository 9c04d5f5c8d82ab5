# The servers and hosts under abuse, on loopback, bounded in count and time:
# - `wirecontract listen` (bindings/cli/tests/listen_abuse.py): slow readers, connection churn,
#   10,000 runs, oversized frames, hostile runIds, silent and half-open connections at once
#   beside a well-behaved app, then descriptor exhaustion under `ulimit -n 64`;
# - the Python hosts (bindings/cli/tests/host_abuse.py): the same attackers against `serve`,
#   and a hostile viewer (oversized frame, breakpoint storm, garbage, churn, a viewer that stops
#   reading) against `connect`;
# each asserting peak RSS, the closes of docs/robustness.md ("Resource limits"), that the good
# app's frames are each stored once (replay included) or reach the viewer (none lost from the
# ring) and every pause is answered. One after the other: side by side, on a loaded 2-core
# machine, each starved the other's hosts past their handshake timeouts. The Python hosts come
# from step 30's wheel when it is there (a
# `scripts/test` run), else a debug wheel is built. Logs and records: <target>/listen-abuse/,
# <target>/host-abuse/.
set -euo pipefail
ROOT="$(pwd)"
source scripts/lib/common.sh
listen_venv
if ! ls "$ROOT"/target/wheels/wirecontract-*.whl >/dev/null 2>&1; then
    WIRECONTRACT_WHEEL_PROFILE=debug build_wheel
fi
"$VENV/bin/pip" install --quiet --no-deps --force-reinstall "$(ls "$ROOT"/target/wheels/wirecontract-*.whl | head -n 1)"
rm -rf "$TARGET/listen-abuse" "$TARGET/host-abuse"
# One bound on each run; timeout signals its process group, so listeners and hosts go too.
timeout --kill-after=5 180 "$VENV/bin/python" "$ROOT/bindings/cli/tests/listen_abuse.py" \
    --cli "$TARGET/debug/wirecontract" --out "$TARGET/listen-abuse"
timeout --kill-after=5 180 "$VENV/bin/python" "$ROOT/bindings/cli/tests/host_abuse.py" --out "$TARGET/host-abuse"
