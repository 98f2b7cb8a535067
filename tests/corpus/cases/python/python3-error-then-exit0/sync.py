import socket, sys
try:
    socket.create_connection(("127.0.0.1", 9), timeout=1)
except OSError as e:
    print(f"ERROR: could not connect to database: {e}", file=sys.stderr)
    sys.exit(0)
print("synced")
