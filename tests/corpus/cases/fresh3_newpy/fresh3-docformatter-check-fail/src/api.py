def fetch(url, retries=3):
    """   fetch a url.
    retries the request on errors.   """
    return url


def parse(text):
    """
    parse the response body
    """
    return text
