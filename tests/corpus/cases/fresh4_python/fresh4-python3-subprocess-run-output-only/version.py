import subprocess
r = subprocess.run(['git', 'describe', '--tags'], capture_output=True, text=True)
print('note:', r.stderr.strip())
open('VERSION', 'w').write(r.stdout.strip() + '\n')
print('wrote VERSION')
