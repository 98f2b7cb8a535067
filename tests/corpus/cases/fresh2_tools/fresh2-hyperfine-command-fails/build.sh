#!/bin/bash
echo 'cc: error: main.c: No such file or directory' >&2
exit 1
