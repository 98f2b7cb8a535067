#!/bin/sh
set -e
files=(a b c)
for f in ${files[@]}; do
  [[ -f $f ]] && echo found $f
done
echo done &> deploy.log
