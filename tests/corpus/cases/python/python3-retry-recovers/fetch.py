import logging
logging.basicConfig(format="%(asctime)s %(levelname)s %(message)s")
log = logging.getLogger("fetch")
attempts = 0
def fetch():
    global attempts
    attempts += 1
    if attempts < 3:
        raise ConnectionResetError(104, "Connection reset by peer")
    return "payload"
for i in range(5):
    try:
        data = fetch()
        break
    except ConnectionError:
        log.exception("attempt %d failed, retrying", i + 1)
open("out.txt", "w").write(data + "\n")
log.warning("succeeded after %d attempts", attempts)
