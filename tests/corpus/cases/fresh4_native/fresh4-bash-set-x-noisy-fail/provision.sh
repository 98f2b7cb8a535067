#!/bin/bash
for i in $(seq 1 200); do v="item_$i"; : "$v"; done
cp templates/nginx.conf.tpl /tmp/nginx.conf
echo done
