export function fail(msg){throw new Error(msg)}
