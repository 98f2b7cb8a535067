import time
from tqdm import tqdm
records = [{"id": i, "text": f"doc {i}"} for i in range(100)]
records[37] = {"id": 37, "body": "legacy field name"}
for r in tqdm(records, desc="embedding", mininterval=0.01):
    time.sleep(0.003)
    vec = [ord(c) for c in r["text"]]
