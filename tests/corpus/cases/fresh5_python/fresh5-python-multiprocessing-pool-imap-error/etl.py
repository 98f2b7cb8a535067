import multiprocessing as mp, logging
logging.basicConfig(level=logging.DEBUG, format="%(processName)s %(levelname)s %(message)s")
def parse(rec):
    logging.debug("parsing record %r", rec)
    return int(rec["amount"])
if __name__ == "__main__":
    recs = [{"amount": str(i)} for i in range(20)] + [{"amount": "12,50"}]
    with mp.Pool(2) as pool:
        for v in pool.imap(parse, recs):
            logging.debug("got %s", v)
