! parperf annotation API for Fortran: bind(C) interfaces over parperf.h.
!
!   use parperf
!   call parperf_begin("solve")                ! a user interval
!   do step = 1, n
!     call parperf_begin("step", value=int(mod(step, 2), 8), kind=PARPERF_KIND_SEQUENTIAL_LOOP)
!     ...
!     call parperf_end("step")
!   end do
!   call parperf_end("solve")
!
! Compile this file with your program (gfortran -c parperf.f90) and link with -lparperf. Names are
! interned on first use; with -cpp you can pass file=__FILE__, line=__LINE__.
module parperf
  use, intrinsic :: iso_c_binding, only: c_char, c_int, c_int64_t, c_size_t
  implicit none
  private

  integer(c_int), parameter, public :: PARPERF_KIND_USER = 1
  integer(c_int), parameter, public :: PARPERF_KIND_PARALLEL_LOOP = 2
  integer(c_int), parameter, public :: PARPERF_KIND_SEQUENTIAL_LOOP = 3
  integer(c_int), parameter, public :: PARPERF_KIND_BRANCH = 4
  integer(c_int), parameter, public :: PARPERF_EVENT_START = 0
  integer(c_int), parameter, public :: PARPERF_EVENT_END = 1
  integer(c_int), parameter, public :: PARPERF_EVENT_ATOMIC = 2

  public :: parperf_begin, parperf_end, parperf_loop_iteration, parperf_control, parperf_flush
  public :: parperf_event_create, parperf_event

  interface
    subroutine c_begin_n(name, name_len, kind, file, file_len, line, value) &
        bind(C, name="parperf_interval_begin_n")
      import :: c_char, c_int, c_int64_t, c_size_t
      character(kind=c_char), dimension(*), intent(in) :: name, file
      integer(c_size_t), value :: name_len, file_len
      integer(c_int), value :: kind, line
      integer(c_int64_t), value :: value
    end subroutine c_begin_n

    subroutine c_end_n(name, name_len) bind(C, name="parperf_interval_end_n")
      import :: c_char, c_size_t
      character(kind=c_char), dimension(*), intent(in) :: name
      integer(c_size_t), value :: name_len
    end subroutine c_end_n

    subroutine parperf_loop_iteration() bind(C, name="parperf_loop_iteration")
    end subroutine parperf_loop_iteration

    subroutine c_control(on) bind(C, name="parperf_control")
      import :: c_int
      integer(c_int), value :: on
    end subroutine c_control

    subroutine parperf_flush() bind(C, name="parperf_flush")
    end subroutine parperf_flush

    function c_event_create(name, description) result(id) bind(C, name="parperf_event_create")
      import :: c_char, c_int
      character(kind=c_char), dimension(*), intent(in) :: name, description
      integer(c_int) :: id
    end function c_event_create

    subroutine c_event_record(event, phase) bind(C, name="parperf_event_record")
      import :: c_int
      integer(c_int), value :: event, phase
    end subroutine c_event_record
  end interface

contains

  subroutine parperf_begin(name, value, kind, file, line)
    character(len=*), intent(in) :: name
    integer(c_int64_t), intent(in), optional :: value
    integer(c_int), intent(in), optional :: kind
    character(len=*), intent(in), optional :: file
    integer, intent(in), optional :: line
    integer(c_int64_t) :: v
    integer(c_int) :: k, l
    v = 0
    k = PARPERF_KIND_USER
    l = 0
    if (present(value)) v = value
    if (present(kind)) k = kind
    if (present(line)) l = int(line, c_int)
    if (present(file)) then
      call c_begin_n(name, len(name, c_size_t), k, file, len(file, c_size_t), l, v)
    else
      call c_begin_n(name, len(name, c_size_t), k, "", 0_c_size_t, l, v)
    end if
  end subroutine parperf_begin

  subroutine parperf_end(name)
    character(len=*), intent(in) :: name
    call c_end_n(name, len(name, c_size_t))
  end subroutine parperf_end

  subroutine parperf_control(on)
    logical, intent(in) :: on
    if (on) then
      call c_control(1_c_int)
    else
      call c_control(0_c_int)
    end if
  end subroutine parperf_control

  ! Fortran strings are not NUL-terminated: the C side needs the terminator added here.
  function parperf_event_create(name, description) result(id)
    character(len=*), intent(in) :: name, description
    integer(c_int) :: id
    id = c_event_create(name // char(0), description // char(0))
  end function parperf_event_create

  subroutine parperf_event(event, phase)
    integer(c_int), intent(in) :: event, phase
    call c_event_record(event, phase)
  end subroutine parperf_event

end module parperf
