rows = ['a', 'b']
assert len(rows) == 3, f'expected 3 rows, got {len(rows)}'
print('check ok')
