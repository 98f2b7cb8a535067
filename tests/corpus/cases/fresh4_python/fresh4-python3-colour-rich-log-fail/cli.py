import os, sys
C = {'INFO': '\x1b[32m', 'ERROR': '\x1b[1;31m'} if os.environ.get('FORCE_COLOR') else {}
def log(l, m): print(f"{C.get(l, '')}{l:<5}\x1b[0m {m}", file=sys.stderr)
log('INFO', 'loading settings')
if not os.path.exists('settings.toml'):
    log('ERROR', 'settings.toml not found; run `app init` first')
    sys.exit(2)
