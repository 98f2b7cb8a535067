import csv
with open("data.csv") as f:
    total = sum(int(r["amount"]) for r in csv.DictReader(f))
print(f"total={total}")
