export function isMissing(u) {
  return u == null;
}
export const name = (u) => (u === null ? '' : u.name);
