import re
line = "GET /" + "a" * 40 + "!"
pat = re.compile(r"^GET /(a+)+$")
print("parsing 1 line", flush=True)
print(bool(pat.match(line)))
