import hashlib, sys
h = hashlib.sha256()
for i in range(2000):
    h.update(str(i).encode() * 100)
    if i % 20 == 0:
        pct = i * 100 // 2000
        sys.stderr.write(f"\rhashing: {pct:3d}%|{'#' * (pct // 5):<20}| {i}/2000 [00:00<00:00]")
sys.stderr.write("\rhashing: 100%|####################| 2000/2000\n")
print("digest", h.hexdigest())
