const { slug } = require('./slug');
test('lowercases', () => { expect(slug('Hello World')).toBe('hello-world'); });
test('strips trailing punctuation', () => { expect(slug('Hello, World!')).toBe('hello-world'); });
