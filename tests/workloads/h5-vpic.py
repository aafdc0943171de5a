# h5-vpic.py — VPIC-IO's shape through h5py's MPI-IO driver (Debian's
# python3-h5py-mpi, on Open MPI): STEPS time steps, each spinning SECONDS of
# compute and then writing a file PREFIX.<step>.h5 of 8 particle property
# datasets (x, y, z, px, py, pz, id1, id2), N particles per rank, each rank
# its own slice, collectively.  Rank 0 prints what was asked of HDF5:
#
#	steps S particles_per_rank N dataset_bytes B
#
#	mpiexec.openmpi -n 4 python3 h5-vpic.py PREFIX [STEPS [N [SECONDS]]]
import sys
import time

import h5py
import numpy
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
size = comm.Get_size()
steps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
n = int(sys.argv[3]) if len(sys.argv) > 3 else 32768
seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 0.3
if not h5py.get_config().mpi:
    sys.exit("h5-vpic: this h5py has no MPI driver (python3-h5py-mpi)")

names = ("x", "y", "z", "px", "py", "pz", "id1", "id2")
for step in range(steps):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    values = numpy.full(n, step * size + rank, dtype="f4")
    with h5py.File("%s.%d.h5" % (sys.argv[1], step), "w", driver="mpio", comm=comm) as f:
        for name in names:
            dset = f.create_dataset(name, (size * n,), dtype="f4")
            with dset.collective:
                dset[rank * n:(rank + 1) * n] = values
if rank == 0:
    sys.stdout.write("steps %d particles_per_rank %d dataset_bytes %d\n"
                     % (steps, n, len(names) * size * n * 4))
    sys.stdout.flush()
