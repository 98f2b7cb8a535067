export const g = (y) => {
  console.log('g', y);
  console.log('done');
  return y;
};
