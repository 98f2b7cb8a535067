import subprocess
probe = subprocess.run(["git", "rev-parse", "--verify", "v1.2.0"])
if probe.returncode != 0:
    print("tag v1.2.0 not found, creating it")
    subprocess.run(["git", "tag", "v1.2.0"], check=True)
print(subprocess.run(["git", "tag", "--list"], capture_output=True, text=True, check=True).stdout.strip())
