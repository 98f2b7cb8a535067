program mean
  implicit none
  real :: xs(4) = [1.0, 2.0, 3.0, 6.0]
  integer :: unused, n
  n = sum(xs)
  print '(A,F5.2)', 'mean=', sum(xs) / size(xs)
end program mean
