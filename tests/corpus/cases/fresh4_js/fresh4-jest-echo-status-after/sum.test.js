test('sum', () => expect(0.1 + 0.2).toBe(0.3));
test('ok', () => expect(1).toBe(1));
