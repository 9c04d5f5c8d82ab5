# Contract evolution: each generated schema against its committed baseline, the released
# contract that deployed peers speak (generated/schema/baseline/<protocol>.v<N>.schema.json).
# Every change is listed with its verdict for old receivers and old senders. An additive
# change is reported and allowed; a breaking change without a protocol-version bump (`gm` for
# GraphMind, `v` for Graphorin, read from the schemas) fails this step. Policy, bumping and
# re-baselining: docs/evolution.md. Also run by scripts/regen, which never stops on it.
set -euo pipefail
BASELINES=generated/schema/baseline
shopt -s nullglob

cargo build --quiet --locked -p wirecontract-cli
diff_policy() {
    cargo run --quiet --locked -p wirecontract-cli -- diff --policy "$@"
}

baselines=("$BASELINES"/*.schema.json)
if [ "${#baselines[@]}" -eq 0 ]; then
    echo "evolution: no baseline under $BASELINES: nothing says what deployed peers speak" >&2
    exit 1
fi

status=0
for base in "${baselines[@]}"; do
    file="$(basename "$base")"
    proto="${file%%.*}"
    currents=(generated/schema/"$proto".v*.schema.json)
    if [ "${#currents[@]}" -eq 0 ]; then
        echo "!!! evolution: $proto: $base exists but generated/schema/ has no $proto schema: was the protocol removed?" >&2
        status=1
        continue
    fi
    for current in "${currents[@]}"; do
        printf '\n--- evolution: %s: %s -> %s\n' "$proto" "$base" "$current"
        if ! diff_policy "$base" "$current"; then
            status=1
        fi
    done
done

# A generated schema without a baseline is a protocol not released yet: nothing to protect.
for current in generated/schema/*.schema.json; do
    file="$(basename "$current")"
    proto="${file%%.*}"
    found=("$BASELINES/$proto".v*.schema.json)
    if [ "${#found[@]}" -eq 0 ]; then
        printf '\nevolution: %s has no baseline (not released yet): not checked. On release: cp %s %s/\n' \
            "$proto" "$current" "$BASELINES"
    fi
done

if [ "$status" -ne 0 ]; then
    printf '\nevolution: FAILED: see the breaking changes above (docs/evolution.md)\n' >&2
fi
exit "$status"
