export interface User { id: number; email: string }
export function label(u: User): string { return u.name; }
export const n: number = '3';
