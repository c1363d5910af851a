! Instrumented through `parperf fortran --instrument=functions`: the module procedure `accumulate`
! (called 200 times) and the subroutine `work` must appear as function intervals.
module numbers
  implicit none
contains
  subroutine accumulate(total, i)
    real(8), intent(inout) :: total
    integer, intent(in) :: i
    total = total + sqrt(real(i, 8))
  end subroutine accumulate
end module numbers

subroutine work(total)
  use numbers
  implicit none
  real(8), intent(out) :: total
  integer :: i
  total = 0
  do i = 1, 200
    call accumulate(total, i)
  end do
end subroutine work

program main
  implicit none
  real(8) :: total
  call work(total)
  print *, 'total', total
end program main
