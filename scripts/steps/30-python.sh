# Python: build the manylinux2014 abi3 wheel and check its tag with auditwheel; install it with
# the test dependencies into a fresh virtual environment and run pytest (conformance, API,
# hypothesis, the real graphmind-ai client, the session hosts against `wirecontract listen`, the
# eight real-client scenarios re-enacted, the Python examples of docs/session.md) and mypy
# --strict on the default interpreter (3.11), then the same suite, its size and volume load tests
# aside, on the oldest and newest supported CPythons (3.10, 3.13) side by side.
set -euo pipefail
ROOT="$(pwd)"
source scripts/lib/common.sh
build_wheel
# The session host tests drive `wirecontract listen` (a debug build, shared with step 35).
cargo build --locked --quiet -p wirecontract-cli
TARGET="$(cargo metadata --no-deps --format-version 1 --locked | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
export WIRECONTRACT_CLI="$TARGET/debug/wirecontract"
WHEEL="$(ls "$ROOT"/target/wheels/wirecontract-*.whl)"
case "$(basename "$WHEEL")" in
    *-cp310-abi3-*manylinux_2_17_x86_64*) ;;
    *) echo "30-python: expected a cp310-abi3 manylinux_2_17 wheel, got $(basename "$WHEEL")" >&2; exit 1 ;;
esac
# auditwheel reads the ELF: the glibc symbol versions must allow manylinux_2_17. Its report goes
# to a file first, and no `grep -q` reads a pipe: it exits at the first match, and under pipefail
# the writer it cut off (auditwheel's BrokenPipeError) failed the step at random.
"$(tool_venv)/bin/auditwheel" show "$WHEEL" > "$ROOT/target/auditwheel.txt" \
    && grep -q 'consistent with the following platform tag:' "$ROOT/target/auditwheel.txt" \
    && grep -A1 'consistent with the following platform tag:' "$ROOT/target/auditwheel.txt" | grep '"manylinux_2_17_x86_64"' >/dev/null \
    || { echo "30-python: auditwheel does not accept manylinux_2_17 for $WHEEL" >&2; cat "$ROOT/target/auditwheel.txt" >&2; exit 1; }

run_suite() {  # run_suite PYTHON VENV_DIR [PYTEST_ARGS...]: fresh venv, dependencies, wheel, pytest
    local python="$1" venv="$2"
    shift 2
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet --upgrade pip
    "$venv/bin/pip" install --quiet -r bindings/python/tests/requirements.txt
    "$venv/bin/pip" install --quiet "$WHEEL"
    echo "pytest on $("$venv/bin/python" --version)"
    # Run from outside the source tree so the installed wheel, not the sources, is imported.
    (cd "$ROOT/target" && "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@" "$ROOT/bindings/python/tests")
}

VENV="$ROOT/target/test-venv"
run_suite "$(python_bin)" "$VENV"
# `wirecontract conform` against the asyncio host (bindings/python/conform/workload_async.py)
# and the synchronous one (connect_sync, workload_sync.py): every scenario must pass. Reports
# and recordings in target/conform/python-async/ and python-sync/.
conform_python() {  # conform_python NAME WORKLOAD
    local out="$ROOT/target/conform/$1"
    rm -rf "$out" && mkdir -p "$out"
    timeout --kill-after=5 300 "$WIRECONTRACT_CLI" conform --jobs 4 --name "$1" \
        --out "$out" --report "$out/report.txt" --json "$out/report.json" --junit "$out/junit.xml" \
        -- "$VENV/bin/python" "$ROOT/$2" \
        || { cat "$out/report.txt" >&2 || true; echo "30-python: conform against $1 failed" >&2; exit 1; }
}
conform_python python-async bindings/python/conform/workload_async.py
conform_python python-sync bindings/python/conform/workload_sync.py
# The shipped stubs type-check a program that uses them.
"$VENV/bin/python" -m mypy --strict --no-incremental "$ROOT/bindings/python/tests/typing_example.py"
# The stubs match the installed package (names, signatures, finality); the generated allowlist
# names only what stubtest cannot see (fields served by __getattr__, Literal aliases, __all__).
(cd "$ROOT/target" && "$VENV/bin/python" -m mypy.stubtest wirecontract --allowlist "$ROOT/generated/python/stubtest-allowlist.txt")
# The oldest and newest interpreters run every test but the load tests (marker `load`,
# conftest.py: size, volume and time bounds, the same on any interpreter) except the thread
# cases (test_threads.py), which do depend on the interpreter's threading. The two run side by
# side (each suite is one process; CI has two cores), each into its log, printed when both end.
versions=(3.10 3.13)
pids=()
# Interrupted or killed, the step stops both suites (background jobs ignore Ctrl-C) and shows
# what they printed.
trap 'kill "${pids[@]}" 2>/dev/null; cat "$ROOT"/target/pytest-3.*.log 2>/dev/null; exit 130' INT TERM
for v in "${versions[@]}"; do
    run_suite "$(python_for "$v")" "$ROOT/target/test-venv-$v" -m "not load or threads" >"$ROOT/target/pytest-$v.log" 2>&1 &
    pids+=("$!")
done
failed=()
for i in "${!versions[@]}"; do
    wait "${pids[$i]}" || failed+=("${versions[$i]}")
done
trap - INT TERM
for v in "${versions[@]}"; do cat "$ROOT/target/pytest-$v.log"; done
[ "${#failed[@]}" = 0 ] || { echo "30-python: the suite failed on Python ${failed[*]}" >&2; exit 1; }
# A debug wheel with the `test-hooks` feature: a forced panic at the boundary must surface as
# wirecontract.InternalError (test_panic_hook.py; the release wheel above must lack the hook).
HOOKS_WHEELS="$ROOT/target/wheels-test-hooks"
rm -rf "$HOOKS_WHEELS"
"$(tool_venv)/bin/maturin" build --quiet --locked --features test-hooks -m bindings/python/Cargo.toml --out "$HOOKS_WHEELS" 2>&1 | grep -v '^📦' || true
"$VENV/bin/pip" install --quiet --force-reinstall --no-deps "$HOOKS_WHEELS"/wirecontract-*.whl
(cd "$ROOT/target" && WIRECONTRACT_TEST_HOOKS=1 "$VENV/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/bindings/python/tests/test_panic_hook.py")
