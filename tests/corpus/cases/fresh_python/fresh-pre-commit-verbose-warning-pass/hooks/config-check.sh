#!/bin/bash
echo 'WARNING: key "timeout" is deprecated, use "timeout_s"' >&2
echo 'ERROR count: 0'
