import os
import json

def handler(event):
    return {"ok": True, "n": len(event)}

def _legacy_handler(event):
    return None

def main():
    print(handler([1, 2]))
    return
    print("unreachable")
