import strutils, os
let parts = "a,b,c".split(',')
echo "parts: ", parts.len
