require 'minitest'

class SlugTest < Minitest::Test
  def slug(s) = s.downcase.tr(' ', '-')

  def test_spaces
    assert_equal 'a-b', slug('A B')
  end

  def test_punctuation
    assert_equal 'a-b', slug('A, B!')
  end
end

Minitest.run(['--seed', '1'])
puts 'test script finished'
