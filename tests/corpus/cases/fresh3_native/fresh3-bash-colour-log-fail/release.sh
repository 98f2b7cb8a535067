#!/bin/bash
g=$'\e[32m'; r=$'\e[31m'; n=$'\e[0m'
echo "${g}==>${n} checking working tree"
echo "${g}==>${n} checking tag"
echo "${r}ERROR:${n} tag v1.2.0 already exists" >&2
exit 1
