import logging, multiprocessing as mp
logging.basicConfig(format="%(levelname)s %(message)s")

def thumb(name):
    raise OSError(f"cannot identify image file {name!r}")

def on_error(exc):
    logging.error("thumbnail failed: %s", exc)

if __name__ == "__main__":
    with mp.Pool(2) as pool:
        for n in ["a.png", "b.png", "c.png"]:
            pool.apply_async(thumb, (n,), error_callback=on_error)
        pool.close()
        pool.join()
    print("thumbnail job done")
