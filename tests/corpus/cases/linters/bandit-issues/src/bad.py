import subprocess
password = "hunter2"
subprocess.call("ls " + input(), shell=True)
