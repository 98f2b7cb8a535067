import os, sys
import json
from typing import List


def handle(events : List[dict]) -> int :
    count=0
    for e in events :
        if e['type']=='click': count+=1
        elif e['type'] == "view" :
            pass
    return count
