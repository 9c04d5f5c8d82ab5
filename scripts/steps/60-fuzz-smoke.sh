# Fuzzing smoke pass: builds every cargo-fuzz target (fuzz/) and runs each for a few seconds,
# starting from the seed corpora (conformance vectors, real-client frames, our regression
# vectors), so every seed is replayed through every invariant. A crash fails the step. The
# real run is `scripts/fuzz [SECONDS_PER_TARGET]`; numbers and findings: docs/robustness.md.
set -euo pipefail
scripts/fuzz "${FUZZ_SMOKE_SECONDS:-4}"
