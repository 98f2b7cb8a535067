#!/bin/bash
echo 'migrate: fatal: schema version 12 is newer than this release (11)' >&2
exit 3
