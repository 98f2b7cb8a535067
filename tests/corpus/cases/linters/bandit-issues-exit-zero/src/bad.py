import subprocess
subprocess.call("ls " + input(), shell=True)
