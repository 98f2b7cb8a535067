import sys
for i in range(0, 61, 20):
    sys.stderr.write(f"\rcopying {i}%")
    sys.stderr.flush()
sys.stderr.write("\n")
raise OSError(28, "No space left on device", "/data/out.bin")
