#!/bin/bash
set -u
if yarn --version; then
  echo "using yarn"
else
  echo "yarn missing, falling back to npm $(npm --version)"
fi
echo "dependencies: none to install"
