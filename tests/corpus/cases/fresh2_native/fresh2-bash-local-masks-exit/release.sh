#!/bin/bash
set -euo pipefail
build() {
  local out=$(gcc -o app main.c 2>&1)
  echo "$out"
}
build
echo "release 2.3.0 built"
