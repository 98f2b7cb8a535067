const rows = [{n: 'Zoë', c: 'Köln'}, {n: 'José'}];
for (const r of rows) {
  if (!r.c) throw new Error(`row ${r.n}: missing city`);
  process.stdout.write(Buffer.from(`${r.n};${r.c}\n`, 'latin1'));
}
