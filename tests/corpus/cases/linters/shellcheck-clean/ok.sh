#!/bin/bash
set -euo pipefail
for f in ./*.txt; do
  cp -- "$f" /tmp/
done
