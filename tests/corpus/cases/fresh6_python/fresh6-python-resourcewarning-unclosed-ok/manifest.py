import hashlib, glob
lines = []
for name in sorted(glob.glob("*.txt")):
    data = open(name, "rb").read()
    lines.append(f"{hashlib.sha256(data).hexdigest()[:12]}  {name}")
with open("MANIFEST", "w") as f:
    f.write("\n".join(lines) + "\n")
print(f"manifest written: {len(lines)} files")
