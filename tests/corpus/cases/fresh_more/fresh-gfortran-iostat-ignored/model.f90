program model
  implicit none
  integer :: ios
  real :: t(3)
  t = 0.0
  open(unit=10, file='inputs/temps.dat', status='old', action='read', iostat=ios)
  if (ios /= 0) then
    write(*, '(A,I0,A)') 'warning: could not open inputs/temps.dat (iostat=', ios, '), using zeros'
  else
    read(10, *) t
    close(10)
  end if
  write(*, '(A,3F7.2)') 'forecast:', t * 1.1
end program model
