import multiprocessing as mp, sys

def render(name):
    if not name.endswith(".png"):
        raise ValueError(f"unsupported image type: {name}")
    return name

def failed(exc):
    print(f"render error: {exc!r}", file=sys.stderr)

if __name__ == "__main__":
    with mp.Pool(2) as pool:
        for n in ("a.heic", "b.webp", "c.tiff"):
            pool.apply_async(render, (n,), error_callback=failed)
        pool.close()
        pool.join()
    print("render queue drained")
