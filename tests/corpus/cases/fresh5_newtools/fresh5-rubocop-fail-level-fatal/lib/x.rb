def price(q)
  unused = q * 2
  if q = 3
    q
  end
end
