#!/usr/bin/env bash
set -e
stage() {
    mkdir -p out
    cp CHANGELOG.md out/ && echo "copied changelog"
    cp build/app.tar.gz out/ && echo "copied artifact"
    ls out/ > out/MANIFEST
}
stage
echo "release staged in out/"
