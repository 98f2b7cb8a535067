#!/bin/bash
set +e
mkdir -p dist
for f in styles/*.less; do
  lessc --no-color "$f" "dist/$(basename "${f%.less}").css"
done
echo 'assets built'
