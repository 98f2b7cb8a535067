class Invoice
  def initialize(lines) = @lines = lines
  def total = @lines.sum { |l| l[:price] * l[:qty] }
  def tax = (total * 0.2).round(2)
end
