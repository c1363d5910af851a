! The MPI calls of a Fortran program through the `use mpi` bindings, with known counts.
!
! Usage: mpirun -np 2 fortran_use_mpi      (2 ranks; further ranks join the collectives only)
!
! Every rank calls, in this order (a rank with no part in a step skips it), each call on one line
! marked SITE:<name>:
!   MPI_Init 1 (f_init), MPI_Comm_rank 1 (f_rank), MPI_Comm_size 1 (f_size)
!   MPI_Barrier 5, one site in a loop (f_barrier)
!   rank 0: MPI_Send 3 (f_send) of 10 default integers (40 bytes) to rank 1; rank 1: MPI_Recv 3 (f_recv)
!   ranks 0 and 1, twice: MPI_Irecv (f_irecv) and MPI_Isend (f_isend) of 100 doubles (800 bytes)
!     with the other one, then MPI_Waitall (f_waitall) of both: 2 each
!   MPI_Bcast 4 (f_bcast) of one integer from rank 0, MPI_Allreduce 3 (f_allreduce) of one double
!   MPI_Win_create 1 (f_win_create): a window of one integer over MPI_COMM_WORLD; MPI_Win_fence 2
!     (f_fence), between them ranks 0 and 1 MPI_Put 1 (f_put) one integer (4 bytes) into the other's
!     window (rank 1 puts 7); MPI_Win_free 1 (f_win_free)
!   MPI_Finalize 1 (f_finalize)
! No timing ground truth: the test checks that every call is captured, at its line, with its count.
!
! Prints on rank 0: "fortran_use_mpi: checksum 622" (2 ranks): what rank 0 received with MPI_Irecv,
! 100 x 2 + 100 x 3, the broadcast values 10 + 20 + 30 + 40, the sums 3 + 5 + 7 and the 7 rank 1
! put into its window.
program fortran_use_mpi ! SITE:f_program
  use mpi ! SITE:f_use
  implicit none
  integer :: ierr, rank, nranks, i, k, other, value
  integer :: message(10), requests(2)
  double precision :: outgoing(100), incoming(100), total, mine
  integer(kind=8) :: checksum
  integer :: putvalue, win
  ! Written by the other rank's MPI_Put: volatile, or the compiler reads the 0 it stored (the
  ! `use mpi` interface does not tell it that MPI holds the array).
  integer, volatile :: slot(1)
  integer(kind=MPI_ADDRESS_KIND) :: window_bytes, displacement

  call MPI_Init(ierr) ! SITE:f_init
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr) ! SITE:f_rank
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr) ! SITE:f_size
  checksum = 0

  do i = 1, 5
    call MPI_Barrier(MPI_COMM_WORLD, ierr) ! SITE:f_barrier
  end do

  do i = 1, 3
    if (rank == 0) then
      message = i
      call MPI_Send(message, 10, MPI_INTEGER, 1, i, MPI_COMM_WORLD, ierr) ! SITE:f_send
    else if (rank == 1) then
      call MPI_Recv(message, 10, MPI_INTEGER, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr) ! SITE:f_recv
      checksum = checksum + sum(message)
    end if
  end do

  if (rank < 2) then
    other = 1 - rank
    do i = 1, 2
      outgoing = rank + i
      call MPI_Irecv(incoming, 100, MPI_DOUBLE_PRECISION, other, i, MPI_COMM_WORLD, requests(1), ierr) ! SITE:f_irecv
      call MPI_Isend(outgoing, 100, MPI_DOUBLE_PRECISION, other, i, MPI_COMM_WORLD, requests(2), ierr) ! SITE:f_isend
      call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE, ierr) ! SITE:f_waitall
      checksum = checksum + int(sum(incoming), kind=8)
    end do
  end if

  do k = 1, 4
    value = 0
    if (rank == 0) value = 10 * k
    call MPI_Bcast(value, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr) ! SITE:f_bcast
    checksum = checksum + value
  end do

  do k = 1, 3
    mine = dble(rank + k)
    call MPI_Allreduce(mine, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr) ! SITE:f_allreduce
    checksum = checksum + int(total, kind=8)
  end do

  slot = 0
  window_bytes = 4
  displacement = 0
  call MPI_Win_create(slot, window_bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr) ! SITE:f_win_create
  do k = 1, 2
    call MPI_Win_fence(0, win, ierr) ! SITE:f_fence
    if (k == 1 .and. rank < 2) then
      putvalue = 6 + rank
      call MPI_Put(putvalue, 1, MPI_INTEGER, 1 - rank, displacement, 1, MPI_INTEGER, win, ierr) ! SITE:f_put
    end if
  end do
  if (rank == 0) checksum = checksum + slot(1)
  call MPI_Win_free(win, ierr) ! SITE:f_win_free

  if (rank == 0) print '(a, i0)', 'fortran_use_mpi: checksum ', checksum
  call MPI_Finalize(ierr) ! SITE:f_finalize
end program fortran_use_mpi
