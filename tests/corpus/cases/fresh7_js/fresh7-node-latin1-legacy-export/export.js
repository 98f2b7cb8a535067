const rows = [['1001', 'Müller GmbH', 'Köln'], ['1002', 'Café Noël', 'Besançon']];
for (const r of rows) process.stdout.write(Buffer.from(r.join(';') + '\r\n', 'latin1'));
console.error(`exported ${rows.length} customers (ISO-8859-1)`);
