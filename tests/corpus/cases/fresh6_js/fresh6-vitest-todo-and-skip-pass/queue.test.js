import { test, expect } from 'vitest';
const q = [];
test('push', () => { q.push(1); expect(q.length).toBe(1); });
test('shift', () => { expect(q.shift()).toBe(1); });
test.skip('priority ordering', () => {});
test.todo('persistence');
