#!/usr/bin/env python3
import getpass, signal, sys

def too_slow(*_):
    print("\nTimed out waiting for passphrase; aborting deploy", file=sys.stderr)
    sys.exit(1)

user = input("Username: ")
signal.signal(signal.SIGALRM, too_slow)
signal.alarm(1)
pw = getpass.getpass("Enter passphrase for key 'deploy': ")
signal.alarm(0)
if pw != "s3cret":
    print("Permission denied (publickey).", file=sys.stderr)
    sys.exit(255)
print(f"Welcome {user}; deploy key unlocked")
