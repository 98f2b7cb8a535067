program sum
  implicit none
  integer :: a(10), i, s
  a = 1
  s = 0
  do i = 1, 11
    s = s + a(i)
  end do
  print *, 'sum =', s
end program sum
