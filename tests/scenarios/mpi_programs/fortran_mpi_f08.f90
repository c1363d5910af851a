! The MPI calls of a Fortran program through the `use mpi_f08` bindings (the Fortran 2008 interface:
! no ierr arguments, typed handles), with known counts; the same program as fortran_use_mpi.f90.
!
! Usage: mpirun -np 2 fortran_mpi_f08      (2 ranks; further ranks join the collectives only)
!
! The calls, their counts and their SITE markers are those listed at the top of fortran_use_mpi.f90.
! No timing ground truth: the test checks that every call is captured, at its line, with its count.
!
! Prints on rank 0: "fortran_mpi_f08: checksum 622" (2 ranks): what rank 0 received with MPI_Irecv,
! 100 x 2 + 100 x 3, the broadcast values 10 + 20 + 30 + 40, the sums 3 + 5 + 7 and the 7 rank 1
! put into its window.
program fortran_mpi_f08 ! SITE:f_program
  use mpi_f08 ! SITE:f_use
  implicit none
  integer :: rank, nranks, i, k, other, value
  integer :: message(10)
  type(MPI_Request) :: requests(2)
  double precision :: outgoing(100), incoming(100), total, mine
  integer(kind=8) :: checksum
  integer :: slot(1), putvalue
  type(MPI_Win) :: win
  integer(kind=MPI_ADDRESS_KIND) :: window_bytes, displacement

  call MPI_Init() ! SITE:f_init
  call MPI_Comm_rank(MPI_COMM_WORLD, rank) ! SITE:f_rank
  call MPI_Comm_size(MPI_COMM_WORLD, nranks) ! SITE:f_size
  checksum = 0

  do i = 1, 5
    call MPI_Barrier(MPI_COMM_WORLD) ! SITE:f_barrier
  end do

  do i = 1, 3
    if (rank == 0) then
      message = i
      call MPI_Send(message, 10, MPI_INTEGER, 1, i, MPI_COMM_WORLD) ! SITE:f_send
    else if (rank == 1) then
      call MPI_Recv(message, 10, MPI_INTEGER, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ! SITE:f_recv
      checksum = checksum + sum(message)
    end if
  end do

  if (rank < 2) then
    other = 1 - rank
    do i = 1, 2
      outgoing = rank + i
      call MPI_Irecv(incoming, 100, MPI_DOUBLE_PRECISION, other, i, MPI_COMM_WORLD, requests(1)) ! SITE:f_irecv
      call MPI_Isend(outgoing, 100, MPI_DOUBLE_PRECISION, other, i, MPI_COMM_WORLD, requests(2)) ! SITE:f_isend
      call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE) ! SITE:f_waitall
      checksum = checksum + int(sum(incoming), kind=8)
    end do
  end if

  do k = 1, 4
    value = 0
    if (rank == 0) value = 10 * k
    call MPI_Bcast(value, 1, MPI_INTEGER, 0, MPI_COMM_WORLD) ! SITE:f_bcast
    checksum = checksum + value
  end do

  do k = 1, 3
    mine = dble(rank + k)
    call MPI_Allreduce(mine, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD) ! SITE:f_allreduce
    checksum = checksum + int(total, kind=8)
  end do

  slot = 0
  window_bytes = 4
  displacement = 0
  call MPI_Win_create(slot, window_bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win) ! SITE:f_win_create
  do k = 1, 2
    call MPI_Win_fence(0, win) ! SITE:f_fence
    if (k == 1 .and. rank < 2) then
      putvalue = 6 + rank
      call MPI_Put(putvalue, 1, MPI_INTEGER, 1 - rank, displacement, 1, MPI_INTEGER, win) ! SITE:f_put
    end if
  end do
  if (rank == 0) checksum = checksum + slot(1)
  call MPI_Win_free(win) ! SITE:f_win_free

  if (rank == 0) print '(a, i0)', 'fortran_mpi_f08: checksum ', checksum
  call MPI_Finalize() ! SITE:f_finalize
end program fortran_mpi_f08
