# Generated artifacts match the contract.
set -euo pipefail
scripts/check-drift
