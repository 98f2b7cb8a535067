#!/bin/bash
set -euo pipefail
errors=$(grep -c 'ERROR' app.log || true)
echo "ERROR lines in app.log: ${errors}"
test "$errors" -eq 0
echo "deploy check passed"
