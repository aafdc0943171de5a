! mpi-io-fortran — a Fortran MPI-IO program: each rank writes one block of
! 1024 4-byte integers at rank * 4096 bytes of DIR/fortran.dat with
! MPI_File_write_at_all.  Fortran bindings enter MPI through PMPI, so this
! shows the runtime catching calls that do not come through the C API.
!
!     mpiexec -n 4 mpi-io-fortran DIR
program mpi_io_fortran
  use mpi
  implicit none
  integer :: ierr, rank, fh, i
  integer :: block(1024)
  integer(kind=MPI_OFFSET_KIND) :: offset
  character(len=4096) :: dir

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call get_command_argument(1, dir)
  do i = 1, 1024
     block(i) = rank
  end do
  call MPI_File_open(MPI_COMM_WORLD, trim(dir) // '/fortran.dat', &
       MPI_MODE_CREATE + MPI_MODE_WRONLY, MPI_INFO_NULL, fh, ierr)
  if (ierr /= MPI_SUCCESS) call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  offset = int(rank, MPI_OFFSET_KIND) * 4096
  call MPI_File_write_at_all(fh, offset, block, 1024, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  call MPI_File_close(fh, ierr)
  call MPI_Finalize(ierr)
end program mpi_io_fortran
