echo "Hello, $1"
