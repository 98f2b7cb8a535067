import sys
n = 0
for line in open("legacy.log", "rb"):
    if line.startswith(b"ERROR"):
        sys.stdout.buffer.write(line)
        n += 1
print(f"{n} error lines", flush=True)
