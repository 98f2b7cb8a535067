const add = (a, b) => a + b;
test('adds', () => expect(add(1, 2)).toBe(3));
test('adds floats', () => expect(add(0.1, 0.2)).toBe(0.3));
