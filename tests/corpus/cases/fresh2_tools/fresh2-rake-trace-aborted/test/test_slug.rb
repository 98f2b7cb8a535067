require "minitest/autorun"
def slug(s) = s.downcase.gsub(" ", "-")
class SlugTest < Minitest::Test
  def test_spaces = assert_equal("a-b", slug("A B"))
  def test_punct = assert_equal("a-b", slug("A, B"))
end
