import sys
with open("out.csv", "w") as fh:
    for i in range(1, 2001):
        fh.write(f"{i},{i * i}\n")
        pct = i * 100 // 2000
        sys.stderr.write(f"\rexporting: {pct:3d}%|{'#' * (pct // 5):20}| {i}/2000 chunks")
sys.stderr.write("\n")
