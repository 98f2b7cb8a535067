import time
from tqdm import tqdm
with open("index.txt", "w") as f:
    for i in tqdm(range(300), desc="thumbnails", mininterval=0, ncols=80):
        time.sleep(0.002)
        f.write(f"img_{i:04d}.png\n")
print("thumbnails done")
