import multiprocessing as mp, json

def build(path):
    rows = json.load(open("rows.json"))
    with open(path, "w") as fh:
        fh.write(str(sum(r["amount"] for r in rows)))

if __name__ == "__main__":
    p = mp.Process(target=build, args=("report.txt",))
    p.start(); p.join()
    print("report done")
