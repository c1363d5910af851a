! A gfortran OpenMP program (libgomp) with imbalance of known size, on 2 threads.
!
! Usage: omp_fortran
!
! Expected:
!   1. `parallel do schedule(static)` over i = 1..8, iteration i computes 2*i ms: thread 0 gets
!      1..4 = 20 ms, thread 1 gets 5..8 = 52 ms; the loop takes 52 ms and thread 0 waits 32 ms at its
!      end (load imbalance 32 ms).
!   2. a parallel region where each thread enters `critical` 5 times and holds it 4 ms (40 ms of
!      holding, one thread at a time: 40 ms, 40 ms of waiting in all), then thread 0 computes 10 ms
!      and thread 1 30 ms before an explicit `barrier`: thread 0 waits 20 ms there.
!
! Prints the checksum: the sum of i*i over the loop (204) and the number of critical entries (10).
program omp_fortran
  use omp_lib
  implicit none
  integer :: i, squares, entries, k

  squares = 0
  !$omp parallel do schedule(static) num_threads(2) reduction(+:squares) ! SITE:fortran_parallel_do
  do i = 1, 8
    call burn_ms(2 * i)
    squares = squares + i * i
  end do
  !$omp end parallel do

  entries = 0
  !$omp parallel num_threads(2) private(k) ! SITE:fortran_region
  do k = 1, 5
    !$omp critical ! SITE:fortran_critical
    call burn_ms(4)
    entries = entries + 1
    !$omp end critical
  end do
  if (omp_get_thread_num() == 0) then
    call burn_ms(10)
  else
    call burn_ms(30)
  end if
  !$omp barrier ! SITE:fortran_barrier
  !$omp end parallel

  print '(a, i0, a, i0)', 'omp_fortran: checksum ', squares, ' entries ', entries

contains

  ! Computes for `ms` milliseconds of wall-clock time.
  subroutine burn_ms(ms)
    integer, intent(in) :: ms
    double precision :: finish
    finish = omp_get_wtime() + ms * 1d-3
    do while (omp_get_wtime() < finish)
    end do
  end subroutine burn_ms

end program omp_fortran
