import atexit
results = [1, 2, 3]
def flush():
    with open("/nonexistent-dir/results.txt", "w") as f:
        f.write(str(results))
atexit.register(flush)
print("computed", len(results), "results")
