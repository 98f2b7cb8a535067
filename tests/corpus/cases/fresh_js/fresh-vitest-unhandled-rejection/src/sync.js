export function sync() {
  Promise.reject(new Error('sync worker lost connection'));
  return true;
}
