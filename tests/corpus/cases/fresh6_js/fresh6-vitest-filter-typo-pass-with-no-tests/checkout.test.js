import { test, expect } from 'vitest';
test('tax', () => expect(0.1 + 0.2).toBe(0.3));
