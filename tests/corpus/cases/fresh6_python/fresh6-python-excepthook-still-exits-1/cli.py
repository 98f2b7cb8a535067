import sys, json
def hook(tp, val, tb):
    print(f"fatal: {tp.__name__}: {val}", file=sys.stderr)
sys.excepthook = hook
cfg = json.load(open("settings.json"))
print(cfg["name"])
