module Fmt
  def self.money(c) = format('$%.2f', c / 100.0)
end
