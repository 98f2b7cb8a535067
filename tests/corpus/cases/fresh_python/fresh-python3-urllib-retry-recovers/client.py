import logging, os, time, urllib.request
logging.basicConfig(format="%(levelname)s %(message)s")
url = os.environ["HTTP_APP"] + "/flaky/fresh-py-retry/2"
for attempt in range(1, 6):
    try:
        body = urllib.request.urlopen(url, timeout=5).read().decode()
        print("response:", body.strip())
        break
    except Exception:
        logging.exception("attempt %d failed, retrying in 0.2s", attempt)
        time.sleep(0.2)
else:
    raise SystemExit("giving up")
