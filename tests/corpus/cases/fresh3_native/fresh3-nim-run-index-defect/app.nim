let xs = @[1, 2, 3]
for i in 0 .. xs.len:
  echo xs[i]
