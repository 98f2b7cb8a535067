interface Row { id: number; email: string }
const rows: Row[] = [{ id: '1', email: 'a@b.c' }];
console.log(`migrating ${rows.length} rows`);
