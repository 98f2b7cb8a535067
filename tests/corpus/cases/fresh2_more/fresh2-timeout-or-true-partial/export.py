import time
for i in range(1, 51):
    print(f'exported batch {i}/50', flush=True)
    time.sleep(0.5)
print('export complete')
