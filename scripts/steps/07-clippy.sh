# Lints: clippy over every target of the workspace with the workspace's pedantic lints
# (Cargo.toml [workspace.lints]) as errors.
set -euo pipefail
cargo clippy --locked --workspace --all-targets --quiet -- -D warnings
