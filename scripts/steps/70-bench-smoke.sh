# Benchmark smoke run: a 2,000-frame corpus through the Rust (criterion) and Python benchmarks.
# Checks only that they run and that every verdict agrees with the corpus labels (the
# generator's documented seq:-1 label error aside) and that the single pass equals the
# reference reader; no timing assertion (scripts/bench is the real run).
set -euo pipefail
scripts/bench --smoke
