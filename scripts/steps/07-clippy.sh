# Lints: clippy over every target of the workspace with the workspace's pedantic lints
# (Cargo.toml [workspace.lints]) as errors; then rustdoc over every library, private items
# included, with warnings as errors (broken intra-doc links, bad HTML in doc comments). Links
# from a crate's public docs to its private items are allowed: the binding crates document
# their internals for contributors.
set -euo pipefail
cargo clippy --locked --workspace --all-targets --quiet -- -D warnings
RUSTDOCFLAGS="-D warnings -A rustdoc::private-intra-doc-links" \
    cargo doc --locked --quiet --workspace --no-deps --lib --document-private-items --exclude wirecontract-typify
