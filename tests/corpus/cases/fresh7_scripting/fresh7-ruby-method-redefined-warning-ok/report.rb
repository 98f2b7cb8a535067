require_relative 'helpers'
module Fmt
  def self.money(c) = format('EUR %.2f', c / 100.0)
end
[1999, 500].each { |c| puts Fmt.money(c) }
puts 'report done'
