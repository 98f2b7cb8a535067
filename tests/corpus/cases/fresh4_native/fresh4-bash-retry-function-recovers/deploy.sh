#!/bin/bash
set -euo pipefail
retry() { local n=1; until "$@"; do (( n >= 4 )) && return 1; echo "retry $n/3 after failure, sleeping 0.1s" >&2; n=$((n+1)); sleep 0.1; done; }
acquire() { c=$(cat .tries 2>/dev/null || echo 0); echo $((c+1)) > .tries; if (( c < 2 )); then echo 'ERROR: lock held by another process (pid 4242)' >&2; return 1; fi; echo 'lock acquired'; }
retry acquire
echo 'deploy finished'
