! A Fortran program built -O2 without frame pointers (gfortran), for the unwinding of sampled call
! paths through gfortran's code, its runtime (cpu_time) and libm (cos, sin).
!
! The program spends 300 ms of its CPU time in heavy and 100 ms in light (through `through`): heavy
! has 75 % of the two's samples, and every sample's path reaches main, gfortran's C main that calls
! the program (MAIN__).
module spin_work
  implicit none
  double precision, volatile :: sink = 0d0
contains
  subroutine heavy(seconds)
    double precision, intent(in) :: seconds
    double precision :: start, now
    integer :: i
    call cpu_time(start)
    do
      do i = 1, 20000
        sink = sink + cos(dble(i) * 1d-4)
      end do
      call cpu_time(now)
      if (now - start >= seconds) exit
    end do
  end subroutine heavy

  subroutine light(seconds)
    double precision, intent(in) :: seconds
    double precision :: start, now
    integer :: i
    call cpu_time(start)
    do
      do i = 1, 20000
        sink = sink + sin(dble(i) * 1d-4)
      end do
      call cpu_time(now)
      if (now - start >= seconds) exit
    end do
  end subroutine light

  subroutine through(seconds)
    double precision, intent(in) :: seconds
    call light(seconds)
    sink = sink + 1  ! keeps the call a call, not a jump
  end subroutine through
end module spin_work

program hot_calls
  use spin_work
  implicit none
  call heavy(0.300d0)
  call through(0.100d0)
  print '(a)', 'done'
end program hot_calls
