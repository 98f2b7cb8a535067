import subprocess, sys
if sys.argv[1:] == ["test"]:
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/"])
    print("task 'test' done")
