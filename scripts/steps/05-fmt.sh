# Formatting: `cargo fmt --check` over every hand-written crate of the workspace (rustfmt.toml).
# The typify round-trip crate is generated (typify formats it itself) and is left out.
# Fix with the same command without `--check`. Then ARCHITECTURE.md's table cells, at most 40
# words each (scripts/check-doc-tables), and no import cycle between files of a crate or of the
# Python package (scripts/check-import-cycles, about a second).
set -euo pipefail
mapfile -t pkgs < <(cargo metadata --no-deps --format-version 1 --locked | python3 -c '
import json, sys
for p in json.load(sys.stdin)["packages"]:
    if p["name"] != "wirecontract-typify":
        print("-p"); print(p["name"])')
cargo fmt "${pkgs[@]}" -- --check
scripts/check-doc-tables
scripts/check-import-cycles
