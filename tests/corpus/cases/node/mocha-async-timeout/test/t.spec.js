describe('api', () => {
  it('responds', () => new Promise(() => {}));
});
