from concurrent.futures import ThreadPoolExecutor, as_completed

def thumb(name):
    raise OSError(f"cannot identify image file {name!r}")

with ThreadPoolExecutor(2) as pool:
    futs = [pool.submit(thumb, n) for n in ("a.png", "b.png", "c.png")]
    for f in as_completed(futs):
        if f.exception():
            print("thumbnail failed:", f.exception())
print("batch complete")
