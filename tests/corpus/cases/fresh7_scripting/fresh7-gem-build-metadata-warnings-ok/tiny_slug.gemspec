Gem::Specification.new do |s|
  s.name = "tiny_slug"
  s.version = "0.2.0"
  s.summary = "Slugify strings"
  s.authors = ["Corpus"]
  s.files = ["lib/tiny_slug.rb"]
end
