import subprocess, sys

CHECKS = {
    "format": [sys.executable, "-c", "print('format: 12 files unchanged')"],
    "types": [sys.executable, "-c", "import time; print('types: checking...', flush=True); time.sleep(10)"],
    "unit": [sys.executable, "-c", "print('unit: 40 passed')"],
}
for name, argv in CHECKS.items():
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=1)
        print(r.stdout.strip())
    except subprocess.TimeoutExpired:
        print(f"WARNING: check '{name}' timed out after 1s, skipping", file=sys.stderr)
print("all checks finished")
