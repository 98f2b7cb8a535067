test('refund', () => { expect(10 - 10).toBe(0); });
