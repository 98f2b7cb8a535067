import json, traceback
def load(path):
    with open(path) as f:
        return json.load(f)
try:
    cfg = load("settings.json")
except Exception:
    traceback.print_exc()
    cfg = None
print("finished")
