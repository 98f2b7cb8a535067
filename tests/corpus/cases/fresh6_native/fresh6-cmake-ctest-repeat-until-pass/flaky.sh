if [ -f "$1" ]; then echo 'roundtrip ok'; exit 0; fi
touch "$1"
echo 'ERROR: socket timeout talking to 127.0.0.1:7000' >&2
exit 1
