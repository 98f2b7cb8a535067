#!/bin/bash
echo 'dumping database'
echo 'pg_dump: error: connection to server on socket "/run/postgresql/.s.PGSQL.5432" failed: No such file or directory' >&2
exit 1
