import { test, expect } from 'vitest';
test('iso date', () => expect(new Date(0).toISOString().slice(0, 10)).toBe('1970-01-02'));
