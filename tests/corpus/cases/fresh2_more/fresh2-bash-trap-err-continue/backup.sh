#!/bin/bash
trap 'echo "ERROR: command failed at line $LINENO: $BASH_COMMAND" >&2' ERR
mkdir -p out
sqlite3 missing/app.db .dump > out/dump.sql
gzip -f out/dump.sql
echo "backup finished"
