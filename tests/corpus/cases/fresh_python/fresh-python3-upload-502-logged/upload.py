import logging, os, urllib.request, urllib.error
logging.basicConfig(level=logging.INFO, format="%(levelname)s:%(name)s:%(message)s")
log = logging.getLogger("uploader")
url = os.environ["HTTP_APP"] + "/status/502"
log.info("uploading report.json to %s", url)
try:
    urllib.request.urlopen(urllib.request.Request(url, data=b"{}", method="POST"), timeout=5)
    log.info("upload complete")
except urllib.error.HTTPError as e:
    log.error("upload failed: %s %s", e.code, e.reason)
