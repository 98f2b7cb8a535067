program stats
  implicit none
  real :: total, n, mean
  total = 0.0
  n = 0.0
  mean = total / n
  print '(a, f8.3)', 'mean latency (ms): ', mean
end program stats
