require_relative '../lib/invoice'

RSpec.describe Invoice do
  let(:inv) { Invoice.new([{ price: 10, qty: 2 }, { price: 5, qty: 1 }]) }

  it 'sums the lines' do
    expect(inv.total).to eq(25)
  end

  it 'computes tax on the total' do
    expect(inv.tax).to eq(4.5)
  end
end
