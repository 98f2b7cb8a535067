def nest(n):
    d = {}
    cur = d
    for i in range(n):
        cur["child"] = {}
        cur = cur["child"]
    return d

def flatten(d, prefix=""):
    out = {}
    for k, v in d.items():
        key = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            out.update(flatten(v, key))
        else:
            out[key] = v
    return out

print(len(flatten(nest(5000))))
