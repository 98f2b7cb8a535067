require_relative '../lib/importer'

RSpec.describe Importer do
  it 'skips rows with a non-numeric qty' do
    rows = [{ id: 1, qty: '2' }, { id: 2, qty: 'two' }]
    expect(Importer.run(rows).map { |r| r[:id] }).to eq([1])
  end
end
