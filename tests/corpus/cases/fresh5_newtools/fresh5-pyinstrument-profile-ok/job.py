import time

def slow():
    time.sleep(0.2)

slow()
print('job done')
