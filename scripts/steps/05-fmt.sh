# Formatting: `cargo fmt --check` over the workspace (rustfmt.toml). Fix with `cargo fmt --all`.
set -euo pipefail
cargo fmt --all -- --check
