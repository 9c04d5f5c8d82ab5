# Rust: the contract (unit, conformance, round trip, property tests), the CLI, the generator.
set -euo pipefail
cargo test --locked --workspace --exclude wirecontract-python --exclude wirecontract-bench
