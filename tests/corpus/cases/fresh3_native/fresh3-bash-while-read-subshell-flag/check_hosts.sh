#!/bin/bash
failed=0
printf 'db 5432 ok\ncache 6379 down\nqueue 5672 ok\n' | while read -r host port state; do
  if [ "$state" != ok ]; then
    echo "ERROR: $host:$port is $state" >&2
    failed=1
  fi
done
[ "$failed" -eq 0 ] && echo "all hosts healthy"
exit $failed
