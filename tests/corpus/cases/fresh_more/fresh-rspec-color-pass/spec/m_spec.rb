RSpec.describe 'm' do
  it('adds') { expect(1 + 1).to eq(2) }
  it('subs') { expect(3 - 1).to eq(2) }
end
