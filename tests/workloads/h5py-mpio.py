# h5py-mpio.py — a parallel HDF5 job through h5py's MPI-IO driver (Debian's
# python3-h5py-mpi, on Open MPI with mpi4py), for the runtime's tests: the
# ranks create PATH together, make one float64 dataset of N elements per
# rank, each writes its own slice collectively, and close.  With "read",
# they open the file again and each reads its slice back independently (h5py
# opens the dataset with H5Oopen) and checks it.  With CHUNK, the dataset is
# chunked in pieces of CHUNK elements.  HDF5 and the MPI library
# decide how that reaches the file; each rank prints only what it asked for:
#
#	rank R: elements N dataset_bytes B [read_bytes B]
#
#	mpiexec.openmpi -n 2 python3 h5py-mpio.py PATH [N [read|write [CHUNK]]]
import sys

import h5py
import numpy
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
size = comm.Get_size()
n = int(sys.argv[2]) if len(sys.argv) > 2 else 65536
if not h5py.get_config().mpi:
    sys.exit("h5py-mpio: this h5py has no MPI driver (python3-h5py-mpi)")

mine = numpy.arange(rank * n, (rank + 1) * n, dtype="f8")
with h5py.File(sys.argv[1], "w", driver="mpio", comm=comm) as f:
    chunks = (int(sys.argv[4]),) if len(sys.argv) > 4 else None
    dset = f.create_dataset("x", (size * n,), dtype="f8", chunks=chunks)
    with dset.collective:
        dset[rank * n:(rank + 1) * n] = mine
line = "rank %d: elements %d dataset_bytes %d" % (rank, n, mine.nbytes)
if len(sys.argv) > 3 and sys.argv[3] == "read":
    with h5py.File(sys.argv[1], "r", driver="mpio", comm=comm) as f:
        back = f["x"][rank * n:(rank + 1) * n]
    if not numpy.array_equal(back, mine):
        sys.exit("h5py-mpio: rank %d read back other data than it wrote" % rank)
    line += " read_bytes %d" % back.nbytes
# One write of the whole line: Open MPI forwards each write of a rank as it comes.
sys.stdout.write(line + "\n")
sys.stdout.flush()
