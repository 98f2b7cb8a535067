program report
  implicit none
  write(*, '(A)') 'station: Z' // achar(252) // 'rich  temp: 12.5'
  write(*, '(A)') 'station: Gen' // achar(232) // 've  temp: 14.0'
  write(*, '(A)') 'report complete'
end program report
