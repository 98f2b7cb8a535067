import json
cfg = json.load(open("config.json"))
assert cfg["replicas"] > 0, "replicas must be positive"
