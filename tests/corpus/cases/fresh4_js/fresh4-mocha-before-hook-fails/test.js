describe('users', () => {
  before(() => { throw new Error('fixture users.json missing'); });
  it('lists', () => {});
});
