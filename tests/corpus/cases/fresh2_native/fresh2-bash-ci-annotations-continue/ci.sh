#!/bin/bash
status=0
for f in config/*.json; do
  if ! python3 -m json.tool "$f" > /dev/null 2>err.txt; then
    echo "::error file=$f::$(cat err.txt)"
    status=1
  fi
done
echo "checks finished with status $status"
