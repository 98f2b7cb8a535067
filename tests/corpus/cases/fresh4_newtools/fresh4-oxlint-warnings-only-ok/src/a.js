export function f() { const unusedError = new Error('x'); return 1; }
