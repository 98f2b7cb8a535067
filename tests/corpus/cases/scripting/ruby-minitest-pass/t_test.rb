require 'minitest/autorun'
class T < Minitest::Test
  def test_sum
    assert_equal 4, 2 + 2
  end
end
