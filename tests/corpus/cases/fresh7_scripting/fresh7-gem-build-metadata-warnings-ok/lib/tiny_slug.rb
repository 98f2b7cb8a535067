module TinySlug
  def self.call(s) = s.downcase.gsub(/[^a-z0-9]+/, '-')
end
