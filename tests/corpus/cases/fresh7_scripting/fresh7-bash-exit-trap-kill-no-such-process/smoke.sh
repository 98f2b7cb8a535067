#!/usr/bin/env bash
set -e
sh -c 'echo ready > state.txt' &
helper=$!
trap 'kill $helper || true' EXIT
wait $helper
grep -q ready state.txt
echo "smoke test passed"
