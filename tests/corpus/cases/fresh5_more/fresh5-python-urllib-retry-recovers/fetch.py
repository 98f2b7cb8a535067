import os, time, logging, urllib.request, urllib.error
logging.basicConfig(format="%(levelname)s %(message)s", level=logging.INFO)
url = os.environ["HTTP_APP"] + "/flaky/fresh5-py/2"
for attempt in range(1, 5):
    try:
        body = urllib.request.urlopen(url, timeout=5).read().decode()
        break
    except urllib.error.HTTPError as e:
        logging.error("attempt %d: %s", attempt, e)
        time.sleep(0.1)
open("page.txt", "w").write(body)
logging.info("saved: %s", body.strip())
