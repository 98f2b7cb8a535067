export function greet(name: string): string { return `hello ${name}`; }
