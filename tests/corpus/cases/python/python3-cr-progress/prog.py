import sys, time
for i in range(0, 101, 10):
    bar = "#" * (i // 5)
    sys.stderr.write(f"\rdownloading model.bin [{bar:<20}] {i:3d}%")
    sys.stderr.flush()
    time.sleep(0.01)
sys.stderr.write("\n")
print("saved model.bin (4.2 MB)")
