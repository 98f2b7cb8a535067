RETRY_TIMEOUT = 30

def fetch(url):
    breakpoint()
    return url
