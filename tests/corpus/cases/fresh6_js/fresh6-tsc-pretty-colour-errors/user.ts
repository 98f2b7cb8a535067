interface User { name?: string }
export const upper = (u: User): string => u.name.toUpperCase();
