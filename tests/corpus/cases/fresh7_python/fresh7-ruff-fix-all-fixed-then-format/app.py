import os, sys
from typing import List
import json

def names(xs: List[str]) -> List[str]:
    return sorted(set(xs))

print(json.dumps(names(['b','a'])))
