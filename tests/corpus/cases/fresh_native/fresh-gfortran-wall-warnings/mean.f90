program mean
  implicit none
  integer :: i, unused
  real :: s
  integer :: n
  s = 0.0
  do i = 1, 4
    s = s + i
  end do
  n = s / 4
  print '(A,F5.2,A,I0)', 'mean=', s / 4.0, ' floor=', n
end program mean
