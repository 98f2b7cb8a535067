interface Internal { x: number }
/** Parse a value. Throws {@link ParseErr} on bad input. */
export function parse(s: string): Internal { return { x: Number(s) }; }
