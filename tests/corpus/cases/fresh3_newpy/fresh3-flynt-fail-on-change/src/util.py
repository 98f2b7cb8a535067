from typing import List, Optional, Dict

class Cache(object):
    def __init__(self):
        super(Cache, self).__init__()
        self.data: Dict[str, List[int]] = dict()

    def get(self, key: str) -> Optional[List[int]]:
        return self.data.get(key)

def label(name, n):
    return "{} has {} items".format(name, n)

def tag(a, b):
    return "%s-%s" % (a, b)

def names(xs):
    return set([x.lower() for x in xs])
