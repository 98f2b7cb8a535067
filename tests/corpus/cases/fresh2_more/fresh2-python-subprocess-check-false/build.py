import subprocess
subprocess.run(["gcc", "-o", "app", "app.c"], check=False)
print("build complete")
