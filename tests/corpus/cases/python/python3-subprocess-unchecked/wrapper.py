import subprocess, sys
subprocess.run([sys.executable, "-c", "raise SystemExit('migration 0042 failed: column exists')"])
print("pipeline complete")
