# Contract change: in a scratch clone, add a GraphMind message type and a third protocol by
# editing declaration files only, regenerate, and check every artifact and binding follows
# (scripts/contract-change says what it checks).
set -euo pipefail
scripts/contract-change
