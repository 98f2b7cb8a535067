import { sync } from './sync.js';
test('sync starts', async () => { expect(sync()).toBe(true); await new Promise((r) => setTimeout(r, 50)); });
