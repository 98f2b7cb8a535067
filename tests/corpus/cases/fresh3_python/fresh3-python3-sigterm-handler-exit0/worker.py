import signal, sys, time

def stop(signum, frame):
    print(f"received SIGTERM after {done} of 50 batches, shutting down", file=sys.stderr)
    sys.exit(0)

signal.signal(signal.SIGTERM, stop)
done = 0
for batch in range(50):
    time.sleep(0.1)
    done += 1
    print(f"migrated batch {done}", flush=True)
print("migration complete")
