from rich.traceback import install
install(show_locals=False)

def average(xs):
    return sum(xs) / len(xs)

print("weekly report")
print(average([]))
