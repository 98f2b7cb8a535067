import threading
def export():
    rows = None
    print("exporting", len(rows), "rows")
t = threading.Thread(target=export)
t.start(); t.join()
print("main done")
