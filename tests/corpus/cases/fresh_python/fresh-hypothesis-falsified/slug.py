import re, sys

def slugify(text):
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    if not s:
        print(f"ERROR slugify: input {text!r} has no usable characters, using 'item'", file=sys.stderr)
        return "item"
    return s
