#!/usr/bin/env bash
invalid=0
grep -v '^#' hosts.conf | while read -r name ip port; do
    if ! [[ $ip =~ ^([0-9]{1,3}\.){3}[0-9]{1,3}$ ]] || (( port > 65535 )); then
        echo "invalid entry: $name $ip $port" >&2
        invalid=$((invalid + 1))
    fi
done
echo "$invalid invalid entries"
exit $invalid
