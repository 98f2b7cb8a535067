import { test, expect } from 'vitest';
import { login } from './auth.js';
test('accepts good token', () => expect(login('good')).toBe(true));
test('rejects bad token', () => expect(login('bad')).toBe(false));
