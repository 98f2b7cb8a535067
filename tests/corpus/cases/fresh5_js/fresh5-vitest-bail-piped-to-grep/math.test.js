import { test, expect } from 'vitest';
test('adds', () => expect(0.1 + 0.2).toBe(0.3));
test('muls', () => expect(3 * 3).toBe(9));
