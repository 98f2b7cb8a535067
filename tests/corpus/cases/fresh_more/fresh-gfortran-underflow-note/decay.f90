program decay
  implicit none
  real :: x, k
  integer :: t
  x = 1.0
  k = 0.0
  read(*, *, end=10) k
10 continue
  k = 50.0
  do t = 1, 4
    x = x * exp(-k)
  end do
  print '(A,ES10.3)', 'remaining fraction: ', x
  stop
end program decay
