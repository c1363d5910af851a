! A gfortran OpenMP program (libgomp) with imbalance of known size, on 2 threads. Its work is sleeping
! (work_ms below): the threads need no core for it, so its lengths hold on a busy machine.
!
! Usage: omp_fortran
!
! Expected:
!   1. `parallel do schedule(static)` over i = 1..8, iteration i works 2*i ms: thread 0 gets
!      1..4 = 20 ms, thread 1 gets 5..8 = 52 ms; the loop takes 52 ms and thread 0 waits 32 ms at its
!      end (load imbalance 32 ms).
!   2. a parallel region where each thread enters `critical` 5 times and holds it 4 ms (40 ms of
!      holding, one thread at a time: 40 ms, 40 ms of waiting in all), then thread 0 works 10 ms
!      and thread 1 30 ms before an explicit `barrier`: thread 0 waits 20 ms there.
!
! Prints the checksum: the sum of i*i over the loop (204) and the number of critical entries (10), and
! on stderr how late its sleeps ended in all ("sleep overshoot: S s", as common/burn.h).
program omp_fortran
  use omp_lib
  use, intrinsic :: iso_c_binding, only: c_int
  use, intrinsic :: iso_fortran_env, only: error_unit
  implicit none
  interface
    function usleep(microseconds) bind(c, name='usleep')
      import :: c_int
      integer(c_int), value :: microseconds
      integer(c_int) :: usleep
    end function usleep
  end interface
  integer :: i, squares, entries, k
  double precision :: overshoot = 0d0

  squares = 0
  !$omp parallel do schedule(static) num_threads(2) reduction(+:squares) ! SITE:fortran_parallel_do
  do i = 1, 8
    call work_ms(2 * i)
    squares = squares + i * i
  end do
  !$omp end parallel do

  entries = 0
  !$omp parallel num_threads(2) private(k) ! SITE:fortran_region
  do k = 1, 5
    !$omp critical ! SITE:fortran_critical
    call work_ms(4)
    entries = entries + 1
    !$omp end critical
  end do
  if (omp_get_thread_num() == 0) then
    call work_ms(10)
  else
    call work_ms(30)
  end if
  !$omp barrier ! SITE:fortran_barrier
  !$omp end parallel

  print '(a, i0, a, i0)', 'omp_fortran: checksum ', squares, ' entries ', entries
  write (error_unit, '(a, f0.6, a)') 'sleep overshoot: ', overshoot, ' s'

contains

  ! Sleeps until `ms` milliseconds of wall-clock time have passed (a sleep cut short by a signal is
  ! resumed for what remains), and adds how late it woke to `overshoot`.
  subroutine work_ms(ms)
    integer, intent(in) :: ms
    double precision :: finish, now
    integer(c_int) :: interrupted
    finish = omp_get_wtime() + ms * 1d-3
    now = omp_get_wtime()
    do while (now < finish)
      interrupted = usleep(int((finish - now) * 1d6, c_int) + 1)
      now = omp_get_wtime()
    end do
    !$omp atomic
    overshoot = overshoot + (now - finish)
  end subroutine work_ms

end program omp_fortran
