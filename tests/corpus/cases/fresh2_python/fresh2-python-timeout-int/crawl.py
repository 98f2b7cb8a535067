import time
n = 0
while True:
    n += 1
    print(f'page {n}', flush=True)
    time.sleep(0.5)
