#!/bin/sh
echo 'FAIL: parse("1e3") returned 0, expected 1000' >&2
exit 1
