program ratio
  implicit none
  real :: a, b
  a = 1.0
  read(*, *, end=10) b
10 continue
  b = 0.0
  print *, 'ratio =', a / b
end program ratio
