import locale
stamp = locale.getdefaultlocale()[0]
f = open("report.txt", "w")
f.write(f"generated {stamp}\nrows: 42\n")
f.flush()
f = None
