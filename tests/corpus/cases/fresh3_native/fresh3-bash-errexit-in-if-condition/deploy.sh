#!/bin/bash
set -e
build() {
  gcc -o app missing.c
  echo "build ok"
}
if build; then
  echo "deployed"
fi
