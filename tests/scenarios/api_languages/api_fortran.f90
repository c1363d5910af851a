! The Fortran API: named intervals with values and kinds, iteration marks, an event, control.
program api_fortran
  use parperf
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t
  implicit none
  integer :: row, i
  integer(c_int) :: send
  double precision :: total

  total = 0
  send = parperf_event_create("send", "a message")
  call parperf_begin("compute", value=1_c_int64_t, file="api_fortran.f90", line=12)
  call parperf_begin("rows", kind=PARPERF_KIND_PARALLEL_LOOP)
  do row = 1, 4
    call parperf_loop_iteration()
    do i = 1, 100000
      total = total + i * 0.5d0
    end do
  end do
  call parperf_end("rows")
  call parperf_event(send, PARPERF_EVENT_START)
  call parperf_event(send, PARPERF_EVENT_END)
  call parperf_end("compute")
  call parperf_control(.false.)
  call parperf_begin("skipped")
  call parperf_end("skipped")
  call parperf_control(.true.)
  call parperf_flush()
  print '(F20.1)', total
end program api_fortran
