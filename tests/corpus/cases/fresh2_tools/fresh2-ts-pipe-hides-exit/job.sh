#!/bin/bash
echo 'starting sync'
node -e 'const c = JSON.parse("{bad"); console.log(c)'
