! fortran-scratch — files as Fortran programs (NWChem, quantum chemistry
! codes) use them: scratch files (STATUS='SCRATCH', which libgfortran makes
! with mkostemp in TMPDIR and unlinks at once), named work files closed with
! STATUS='DELETE' (libgfortran's remove()), and a result file kept.  Run in
! an empty folder: every file it opens there is one it creates (t1041).
program fortran_scratch
  implicit none
  integer :: u, k
  real(8) :: x(1000)

  x = 1.0d0
  do k = 1, 3
    open (newunit=u, status='scratch', form='unformatted')
    write (u) x
    rewind (u)
    read (u) x
    close (u)
  end do
  open (newunit=u, file='work1.dat', status='new', form='unformatted')
  write (u) x
  close (u, status='delete')
  open (newunit=u, file='work2.dat', status='replace', form='formatted')
  write (u, *) x(1:10)
  close (u, status='delete')
  open (newunit=u, file='work3.dat', status='unknown', access='direct', recl=8000)
  write (u, rec=1) x
  write (u, rec=1) x
  close (u, status='delete')
  open (newunit=u, file='result.dat', status='unknown')
  write (u, *) sum(x)
  close (u)
end program fortran_scratch
