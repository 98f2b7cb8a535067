import os, sys
import json

def handler(event, context):
    body = json.loads(event["body"])
    if body == None:
        return {"status": 400}
    l = [x for x in body]
    return {"status": 200, "n": len(l)}
