#!/bin/bash
echo 'waiting for postgres on 127.0.0.1:1 ...'
until (exec 3<>/dev/tcp/127.0.0.1/1) 2>/dev/null; do sleep 0.5; done
echo connected
