require "minitest/autorun"
def import(rows)
  rows.filter_map do |r|
    Integer(r)
  rescue ArgumentError => e
    warn "ERROR skipping row #{r.inspect}: #{e.message}"
    warn e.backtrace.first
    nil
  end
end
class ImporterTest < Minitest::Test
  def test_skips_bad = assert_equal([1, 3], import(%w[1 x 3]))
end
