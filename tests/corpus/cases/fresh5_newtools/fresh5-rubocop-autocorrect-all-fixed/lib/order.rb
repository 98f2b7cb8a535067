class Order
  def initialize(items)
    @items=items
  end
  def total
    sum = 0
    @items.each { |i| sum = sum + i[:price] * i[:qty] }
    return sum
  end
end
