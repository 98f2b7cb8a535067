export function parse(raw) {
  try {
    return JSON.parse(raw);
  } catch (err) {
    console.error('failed to parse payload', err);
    return null;
  }
}
