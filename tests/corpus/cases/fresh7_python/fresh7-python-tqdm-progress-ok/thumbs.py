import time
from tqdm import tqdm
done = 0
for i in tqdm(range(200), desc="thumbnails", mininterval=0.01):
    time.sleep(0.002)
    done += 1
print(f"generated {done} thumbnails")
