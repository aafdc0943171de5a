# mpi-io-abi.py — mpi-io-abi.c's MPI-IO job through mpi4py (which Debian
# builds with Open MPI), for the runtime's tests: the ranks open PATH
# collectively; each writes BLOCK bytes at rank*BLOCK with File.Write_at_all,
# reads it back with File.Read_at, and closes.  Each
# rank prints what it did, in the words of the counters, as the C version.
import sys

from mpi4py import MPI

BLOCK = 4096

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
fh = MPI.File.Open(comm, sys.argv[1], MPI.MODE_CREATE | MPI.MODE_RDWR)
st = MPI.Status()
fh.Write_at_all(rank * BLOCK, bytearray([ord("A") + rank]) * BLOCK, st)
written = st.Get_count(MPI.BYTE)
back = bytearray(BLOCK)
fh.Read_at(rank * BLOCK, back, st)
read = st.Get_count(MPI.BYTE)
fh.Close()
# One write of the whole line: Open MPI forwards each write of a rank as it comes.
sys.stdout.write("rank %d: coll_opens 1 coll_writes 1 bytes_written %d indep_reads 1 bytes_read %d first %c\n"
                 % (rank, written, read, chr(back[0])))
sys.stdout.flush()
