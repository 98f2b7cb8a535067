#!/bin/bash
set -e
mkdir -p out
echo 'build ok' > out/build.log
if grep -qi error out/build.log; then echo 'errors in build'; exit 1; fi
cp out/build.log out/deployed.log
echo 'deploy finished'
