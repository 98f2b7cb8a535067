program newton
  implicit none
  real(8) :: x, fx
  integer :: it
  x = 0.0d0
  do it = 1, 50
    fx = x**2 + 1.0d0
    if (abs(fx) < 1.0d-10) exit
    x = x - fx / (2.0d0 * x + 1.0d-3)
  end do
  if (abs(fx) >= 1.0d-10) then
    write(*, '(A,I0,A)') 'ERROR: Newton iteration did not converge after ', it - 1, ' steps'
    write(*, '(A)') 'root not written to roots.dat'
  end if
  stop
end program newton
