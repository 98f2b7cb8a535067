export function f(x) {
  console.log('f', x);
  return x * 2;
}
