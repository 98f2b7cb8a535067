import sys
rows = ['Müller;5,00 €', 'Jürgen;“quoted”;3']
for r in rows:
    sys.stdout.buffer.write(r.encode('cp1252') + b'\r\n')
print(f'exported {len(rows)} rows as cp1252', file=sys.stderr)
