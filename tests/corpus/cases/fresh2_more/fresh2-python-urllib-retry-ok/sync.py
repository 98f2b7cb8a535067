import logging, os, time, urllib.error, urllib.request
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("sync")
url = os.environ["HTTP_APP"] + "/flaky/f2-py/2"
for attempt in range(1, 6):
    try:
        body = urllib.request.urlopen(url, timeout=5).read().decode()
        log.info("fetched: %s", body.strip())
        break
    except urllib.error.HTTPError as e:
        log.warning("attempt %d failed: %s, retrying", attempt, e)
        time.sleep(0.1)
else:
    raise SystemExit("giving up")
