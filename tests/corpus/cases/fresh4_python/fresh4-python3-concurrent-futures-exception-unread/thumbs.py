import os
from concurrent.futures import ThreadPoolExecutor
os.makedirs("thumbs", exist_ok=True)

def resize(name):
    raise OSError(f"cannot identify image file {name!r}")

with ThreadPoolExecutor(4) as ex:
    futures = [ex.submit(resize, f"img{i}.png") for i in range(5)]
print("all jobs submitted, done:", sum(f.done() for f in futures))
for f in futures:
    if f.exception():
        print("job error:", f.exception())
